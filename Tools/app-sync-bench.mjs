#!/usr/bin/env -S node --experimental-websocket
// The phone app's first sync of a large history in headless Chromium, tapped while it runs.
//
//   node --experimental-websocket Tools/app-sync-bench.mjs [--events N] [--throttle R] [--app DIR]
//     [--after MS] [--json FILE] [--profile FILE] [--trace FILE]
//
// A throwaway HTTP server on loopback serves the app folder (Sources/WebApp/app by default, with
// the server's Content-Security-Policy), the conformance catalogue (Conformance/catalog.json) at
// /v1/catalog, and the rest of the sync API from Tests/WebApp/support/fakeServer.mjs, seeded with
// N station edits (default 100,000) of two other devices plus one knowledge mark per 3,125 edits.
// Debian's chromium (--headless=new, a profile of its own, 390×844 mobile viewport, CPU throttled
// R× by CDP Emulation.setCPUThrottlingRate, default 4) opens /app/#pair=ABCD-EFGH: the app pairs,
// downloads the catalogue and runs its first sync. Every second the bench taps a tab of the tab
// bar (CDP Input.dispatchMouseEvent, press and release sent together, in turn 同期, 駅, 同期, 地図),
// and goes on for --after ms (12 s) after the sync, for the same taps without one. A probe in the
// page (Page.addScriptToEvaluateOnNewDocument) records, on the page's clock: each tap's Event
// Timing entries, grouped by interactionId as INP groups them (a tap's latency: from its press's
// input to the paint after its click), the long tasks, and every change of the counters
// (local-count, sync-progress, sync-status). It prints one JSON summary; exit 0, or 70 when the
// run failed. --profile FILE keeps a CPU profile, --trace FILE a trace of the page's tasks (category
// toplevel: with the profile, it tells what ran in each long task). Needs chromium and
// node ≥ 20 (WebSocket behind --experimental-websocket).

import { readFileSync, writeFileSync, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { benchArgs, catalogText, closeBench, openChromium, openTab, seedBenchHistory } = await import(path.join(repo, 'Tests/WebApp/support/benchHistory.mjs'));
const args = benchArgs(process.argv);
const EVENTS = Number(args.get('events') ?? 100_000);
const THROTTLE = Number(args.get('throttle') ?? 4);
const APP_DIR = path.resolve(args.get('app') ?? path.join(repo, 'Sources/WebApp/app'));
const TIMEOUT_MS = Number(args.get('timeout') ?? 300_000);
/** Taps go on this long after the sync, for the same taps without a sync (the app's own cost). */
const AFTER_MS = Number(args.get('after') ?? 12_000);

const { FakeServer } = await import(path.join(repo, 'Tests/WebApp/support/fakeServer.mjs'));

// MARK: - The history the server holds

const server = new FakeServer({ now: () => Date.now() });
const heldEvents = seedBenchHistory(server, EVENTS, Date.now());

// MARK: - HTTP

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.webmanifest': 'application/manifest+json' };

const httpServer = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = Buffer.concat(chunks).toString('utf8');
  if (url.pathname === '/v1/catalog') {
    if (req.headers['if-none-match'] === '"catalog"') { res.writeHead(304, { ETag: '"catalog"' }); res.end(); return; }
    res.writeHead(200, { 'Content-Type': 'application/json', ETag: '"catalog"' });
    res.end(catalogText);
    return;
  }
  if (url.pathname.startsWith('/v1/')) {
    const answer = await server.fetch(url.href, { method: req.method, body: body || undefined, headers: { Authorization: req.headers.authorization ?? '' } });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(await answer.text());
    return;
  }
  if (!url.pathname.startsWith('/app/')) { res.writeHead(302, { Location: '/app/' }); res.end(); return; }
  const file = path.join(APP_DIR, url.pathname === '/app/' ? 'index.html' : url.pathname.slice('/app/'.length));
  if (!file.startsWith(APP_DIR) || !existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Content-Security-Policy': CSP, 'Cache-Control': 'no-cache' });
  res.end(readFileSync(file));
});
await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${httpServer.address().port}`;

// MARK: - Chromium over CDP

/** @type {((params: {stream: string}) => void) | null} */
let traceDone = null;
const browser = await openChromium('app-sync-bench-', (msg) => {
  if (msg.method === 'Tracing.tracingComplete' && traceDone) traceDone(msg.params);
});
const { send } = browser;

const PROBE = `(() => {
  const B = window.__bench = { taps: [], events: [], longTasks: [], counters: [], pulls: [] };
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.interactionId)
    B.events.push({ name: e.name, interaction: e.interactionId, start: e.startTime, duration: e.duration, delay: e.processingStart - e.startTime, processing: e.processingEnd - e.processingStart, target: e.target?.dataset?.testid ?? null }); })
    .observe({ type: 'event', durationThreshold: 16, buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) B.longTasks.push({ start: e.startTime, duration: e.duration }); })
    .observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.name.includes('/v1/pull')) B.pulls.push({ start: e.startTime, end: e.responseEnd }); })
    .observe({ type: 'resource', buffered: true });
  document.addEventListener('click', (e) => { B.taps.push({ target: e.target?.dataset?.testid ?? null, input: e.timeStamp }); }, true);
  const text = (id) => document.querySelector('[data-testid=' + id + ']')?.textContent ?? null;
  let last = '';
  const note = () => {
    const row = { local: text('local-count'), progress: text('sync-progress'), status: text('sync-status') };
    const key = JSON.stringify(row);
    if (key !== last) { last = key; B.counters.push({ t: performance.now(), ...row }); }
  };
  document.addEventListener('DOMContentLoaded', () => {
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['hidden'] });
    note();
  });
})();`;

let exitCode = 0;
try {
  const s = await openTab(send, THROTTLE);
  await s('Emulation.setDeviceMetricsOverride', { width: 390, height: 844, deviceScaleFactor: 1, mobile: true });
  const { userAgent } = await send('Browser.getVersion');
  await s('Emulation.setUserAgentOverride', { userAgent, acceptLanguage: 'ja' });
  await s('Page.addScriptToEvaluateOnNewDocument', { source: PROBE });
  const evaluate = async (expression) => (await s('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true })).result.value;
  if (args.has('profile')) {
    await s('Profiler.enable');
    await s('Profiler.setSamplingInterval', { interval: 1000 });
    await s('Profiler.start');
  }
  if (args.has('trace')) {
    await send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: ['toplevel'] } });
  }
  await s('Page.navigate', { url: `${origin}/app/#pair=ABCD-EFGH` });
  const started = Date.now();
  // Where the tabs are (fixed at the bottom; read once the page has them).
  let tabs = null;
  while (!tabs && Date.now() - started < 30_000) {
    tabs = await evaluate(`(() => { const r = {}; for (const b of document.querySelectorAll('.tabbar button')) { const x = b.getBoundingClientRect(); r[b.dataset.tab] = [x.x + x.width / 2, x.y + x.height / 2]; } return Object.keys(r).length ? r : null; })()`);
    if (!tabs) await new Promise((r) => setTimeout(r, 100));
  }
  if (!tabs) throw new Error('the tab bar never appeared');
  const order = ['sync', 'station', 'sync', 'map'];
  let tapCount = 0;
  let taps = Promise.resolve();
  const tapTimer = setInterval(() => {
    const [x, y] = tabs[order[tapCount++ % order.length]];
    // Press and release leave together, as a finger's do: the release does not wait for the page
    // to take the press (that would let a busy page's delay fall on the press alone).
    taps = Promise.all([taps,
      s('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 }),
      s('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 })]);
  }, 1000);
  const synced = (r) => r.status === '同期しました。' && Number((r.local ?? '').replace(/\D/g, '')) >= heldEvents;
  let done = false;
  while (!done && Date.now() - started < TIMEOUT_MS) {
    await new Promise((r) => setTimeout(r, 500));
    done = (await evaluate('window.__bench?.counters ?? []')).some(synced);
  }
  const syncedAt = Date.now();
  while (done && Date.now() - syncedAt < AFTER_MS) await new Promise((r) => setTimeout(r, 500));
  clearInterval(tapTimer);
  await taps;
  await new Promise((r) => setTimeout(r, 1500));
  const bench = await evaluate('window.__bench');
  if (args.has('trace')) {
    const complete = new Promise((resolve) => { traceDone = resolve; });
    await send('Tracing.end');
    const { stream } = await complete;
    const parts = [];
    for (;;) {
      const chunk = await send('IO.read', { handle: stream, size: 1 << 20 });
      parts.push(chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data);
      if (chunk.eof) break;
    }
    writeFileSync(args.get('trace'), parts.join(''));
  }
  if (args.has('profile')) writeFileSync(args.get('profile'), JSON.stringify((await s('Profiler.stop')).profile));
  if (!done) { exitCode = 70; console.error('app-sync-bench: the sync did not finish in time; last counters:', JSON.stringify(bench.counters.slice(-5))); }
  const firstPull = Math.min(...bench.pulls.map((p) => p.start));
  const finished = bench.counters.find(synced)?.t ?? null;
  const sorted = (xs) => [...xs].sort((a, b) => a - b);
  const pct = (xs, p) => (xs.length ? sorted(xs)[Math.min(xs.length - 1, Math.floor(p * xs.length))] : null);
  const during = (t) => t >= firstPull && (finished === null || t <= finished);
  // One tap is one interaction (pointerdown … click): from its first event's input to the paint
  // after its last one, as INP counts it; its target is the click's.
  /** @type {Map<number, {start: number, end: number, delay: number, target: string | null}>} */
  const interactions = new Map();
  for (const e of bench.events) {
    const i = interactions.get(e.interaction) ?? { start: e.start, end: e.start + e.duration, delay: 0, target: null };
    i.start = Math.min(i.start, e.start);
    i.end = Math.max(i.end, e.start + e.duration);
    i.delay = Math.max(i.delay, e.delay);
    if (e.name === 'click') i.target = e.target;
    interactions.set(e.interaction, i);
  }
  const tapsIn = (inWindow) => [...interactions.values()].filter((i) => i.target?.startsWith('tab-') && inWindow(i.start));
  const clicks = tapsIn(during).map((i) => ({ duration: i.end - i.start, delay: i.delay }));
  /** Tap to the next paint after its click, per tab, during and after the sync. */
  const perTab = (inWindow) => {
    /** @type {Record<string, {count: number, median: number, max: number}>} */
    const out = {};
    for (const tab of new Set(order)) {
      const ds = tapsIn(inWindow).filter((i) => i.target === `tab-${tab}`).map((i) => Math.round(i.end - i.start));
      if (ds.length) out[tab] = { count: ds.length, median: pct(ds, 0.5), max: Math.max(...ds) };
    }
    return out;
  };
  const firstCount = bench.counters.find((r) => during(r.t) && /^[1-9]/.test(r.local ?? ''));
  const progressRows = bench.counters.filter((r) => during(r.t) && r.progress);
  const longs = bench.longTasks.filter((l) => during(l.start));
  const summary = {
    events: heldEvents, throttle: THROTTLE, app: path.relative(repo, APP_DIR) || APP_DIR,
    firstPullToSynced_ms: finished === null ? null : Math.round(finished - firstPull),
    navigationToSynced_ms: finished === null ? null : Math.round(finished),
    pulls: bench.pulls.length,
    tapsDuringSync: bench.taps.filter((t) => during(t.input)).length,
    tabTapsDuringSync_ms: perTab(during),
    tabTapsAfterSync_ms: finished === null ? null : perTab((t) => t > finished),
    tabTapsDuringSyncAll_ms: { count: clicks.length, median: Math.round(pct(clicks.map((c) => c.duration), 0.5)), p90: Math.round(pct(clicks.map((c) => c.duration), 0.9)), max: Math.round(Math.max(0, ...clicks.map((c) => c.duration))), maxInputDelay: Math.round(Math.max(0, ...clicks.map((c) => c.delay))) },
    longTasks: { count: longs.length, total_ms: Math.round(longs.reduce((n, l) => n + l.duration, 0)), max_ms: Math.round(Math.max(0, ...longs.map((l) => l.duration))) },
    firstNonZeroLocalCount_ms: firstCount ? Math.round(firstCount.t - firstPull) : null,
    progressUpdates: progressRows.length,
    progressSamples: progressRows.filter((_, i) => i % Math.max(1, Math.floor(progressRows.length / 8)) === 0).map((r) => `${Math.round(r.t - firstPull)} ms: ${r.progress}`),
  };
  console.log(JSON.stringify(summary, null, 2));
  if (args.has('json')) writeFileSync(args.get('json'), JSON.stringify({ summary, bench }, null, 1));
} catch (error) {
  console.error(`app-sync-bench: ${error instanceof Error ? error.stack : error}`);
  exitCode = 70;
} finally {
  await closeBench(browser, httpServer);
}
process.exit(exitCode);
