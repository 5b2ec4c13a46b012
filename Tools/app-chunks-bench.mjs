#!/usr/bin/env -S node --experimental-websocket
// The phone app's replica in chunks (Schemas/phone-app.md "The stored form"), in headless
// Chromium: the first sync of a large history answered with record frames, and opening that
// replica again with the network unused.
//
//   node --experimental-websocket Tools/app-chunks-bench.mjs [--events N] [--runs R] [--throttle T]
//
// A loopback HTTP server serves Sources/WebApp/app and the sync API of
// Tests/WebApp/support/fakeServer.mjs answering pulls with record frames (`frames`), seeded as
// Tools/app-sync-bench.mjs seeds it: N station edits (default 100,000) of two other devices, one
// knowledge mark per 3,125. A pull answer is made once per request body and kept, as the Swift
// server serves stored frames without encoding them again. Chromium (--headless=new, CPU
// throttled T× by CDP, default 1) loads a blank page of that origin and, R+1 times (the first a
// warm-up, not counted): (sync) a new IndexedDB database, `Ledger.open`, then `SyncSession.run`
// until the replica holds every event and `saveCompletions` as App.syncOnce ends, timed from the
// session's start to its end; (open) a
// reload of the page, then `IndexedDbStore.open` and `Ledger.open(…, {early: true})` of that
// database, as App.start opens it, timed from the modules' import to the ledger's return, when
// compDate (what the map draws from) reads the completions snapshot (Schemas/phone-app.md "The
// completions snapshot"); then to `loaded` (every record decoded and indexed), with the longest
// task of the page meanwhile (a tap waits at most that long). In a fresh page as an opening
// phone has. Prints one JSON summary with the medians.

import { readFileSync, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { FakeServer } from '../Tests/WebApp/support/fakeServer.mjs';
import { benchArgs, closeBench, openChromium, openTab, repo, seedBenchHistory } from '../Tests/WebApp/support/benchHistory.mjs';

const args = benchArgs(process.argv);
const EVENTS = Number(args.get('events') ?? 100_000);
const RUNS = Number(args.get('runs') ?? 5);
const THROTTLE = Number(args.get('throttle') ?? 1);
const APP_DIR = path.join(repo, 'Sources/WebApp/app');

const server = new FakeServer({ now: () => Date.now() });
server.frames = true;
const heldEvents = seedBenchHistory(server, EVENTS, Date.now());

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript' };
/** @type {Map<string, {status: number, headers: Record<string, string>, body: Buffer}>} */
const answers = new Map();
const httpServer = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const parts = [];
  for await (const part of req) parts.push(part);
  const body = Buffer.concat(parts).toString('utf8');
  if (url.pathname === '/bench.html') { res.writeHead(200, { 'Content-Type': TYPES['.html'] }); res.end('<!doctype html><title>bench</title>'); return; }
  if (url.pathname.startsWith('/v1/')) {
    const key = `${url.pathname} ${req.headers.accept ?? ''} ${body}`;
    let answer = url.pathname === '/v1/pull' ? answers.get(key) : undefined;
    if (!answer) {
      const r = await server.fetch(url.href, { method: req.method, body: body || undefined, headers: { Authorization: req.headers.authorization ?? '', Accept: req.headers.accept ?? '' } });
      answer = { status: r.status, headers: Object.fromEntries(r.headers), body: Buffer.from(await r.arrayBuffer()) };
      if (url.pathname === '/v1/pull') answers.set(key, answer);
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
    return;
  }
  const file = path.join(APP_DIR, url.pathname.replace(/^\/app\//, ''));
  if (!url.pathname.startsWith('/app/') || !file.startsWith(APP_DIR) || !existsSync(file) || !statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
  res.end(readFileSync(file));
});
await new Promise((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${httpServer.address().port}`;

const browser = await openChromium('app-chunks-bench-');
const { send } = browser;

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const round = (x) => Math.round(x * 10) / 10;
let exitCode = 0;
try {
  const s = await openTab(send, THROTTLE);
  const evaluate = async (expression) => {
    const r = await s('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(JSON.stringify(r.exceptionDetails).slice(0, 800));
    return r.result.value;
  };
  const load = async () => {
    await s('Page.navigate', { url: `${origin}/bench.html` });
    for (let i = 0; i < 100 && (await evaluate('document.readyState')) !== 'complete'; i++) await new Promise((r) => setTimeout(r, 50));
  };
  const sync = [], open = [], loaded = [], longest = [];
  for (let run = 0; run <= RUNS; run++) {
    await load();
    const name = `bench-${run}`;
    const synced = await evaluate(`(async () => {
      const { IndexedDbStore } = await import('/app/js/store.js');
      const { Ledger } = await import('/app/js/ledger.js');
      const { SyncSession } = await import('/app/js/sync.js');
      const { Api } = await import('/app/js/api.js');
      const newDevice = () => [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, '0')).join('');
      const ledger = await Ledger.open(await IndexedDbStore.open(indexedDB, ${JSON.stringify(name)}), { now: Date.now(), newDevice, deviceName: 'bench' });
      const started = performance.now();
      await new SyncSession({ ledger, api: new Api(fetch, location.origin), now: () => Date.now(), newDevice }).run('secret');
      await ledger.saveCompletions(); // as App.syncOnce does after every sync
      return { ms: performance.now() - started, events: ledger.eventCount() };
    })()`);
    if (synced.events < heldEvents) throw new Error(`the sync left ${synced.events} of ${heldEvents} events`);
    await load();
    const opened = await evaluate(`(async () => {
      const started = performance.now();
      const { IndexedDbStore } = await import('/app/js/store.js');
      const { Ledger } = await import('/app/js/ledger.js');
      const ledger = await Ledger.open(await IndexedDbStore.open(indexedDB, ${JSON.stringify(name)}), { now: Date.now(), newDevice: () => 'x', deviceName: 'bench' }, { early: true });
      const usable = performance.now() - started;
      const tasks = [];
      const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.startTime >= started + usable) tasks.push(e.duration); });
      observer.observe({ type: 'longtask' });
      let stations = 0;
      for (let id = 1; id < 10000; id++) if (ledger.compDate(1_130_000 + id) > 0) stations++;
      const early = ledger.early !== null;
      await ledger.loaded;
      const loaded = performance.now() - started;
      await new Promise((r) => setTimeout(r, 50));
      observer.disconnect();
      return { ms: usable, loadedMs: loaded, early, longestTask: Math.max(0, ...tasks), events: ledger.eventCount(), stations };
    })()`);
    if (opened.events !== synced.events) throw new Error(`opened ${opened.events} events of ${synced.events}`);
    if (!opened.early) throw new Error('the completions snapshot was not used');
    if (run > 0) { sync.push(synced.ms); open.push(opened.ms); loaded.push(opened.loadedMs); longest.push(opened.longestTask); }
    await evaluate(`new Promise((resolve) => { const r = indexedDB.deleteDatabase(${JSON.stringify(name)}); r.onsuccess = r.onerror = r.onblocked = () => resolve(true); })`);
  }
  console.log(JSON.stringify({
    events: heldEvents, throttle: THROTTLE, runs: RUNS, load: os.loadavg().map(round),
    firstSyncMs: { median: round(median(sync)), samples: sync.map(round) },
    openMs: { median: round(median(open)), samples: open.map(round) },
    decodedMs: { median: round(median(loaded)), samples: loaded.map(round) },
    longestTaskWhileDecodingMs: { median: round(median(longest)), samples: longest.map(round) },
  }));
} catch (error) {
  console.error(`app-chunks-bench: ${error.message}`);
  exitCode = 70;
} finally {
  await closeBench(browser, httpServer);
}
process.exit(exitCode);
