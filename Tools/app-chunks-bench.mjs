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
// until the replica holds every event, timed from the session's start to its end; (open) a
// reload of the page, then `IndexedDbStore.open` and `Ledger.open` of that database, timed from
// the call to the fold being ready (what the map draws from), in a fresh page as an opening
// phone has. Prints one JSON summary with the medians.

import { readFileSync, rmSync, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = new Map();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const EVENTS = Number(args.get('events') ?? 100_000);
const RUNS = Number(args.get('runs') ?? 5);
const THROTTLE = Number(args.get('throttle') ?? 1);
const APP_DIR = path.join(repo, 'Sources/WebApp/app');

const { FakeServer } = await import(path.join(repo, 'Tests/WebApp/support/fakeServer.mjs'));
const { openChromium, seedBenchHistory } = await import(path.join(repo, 'Tests/WebApp/support/benchHistory.mjs'));

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

const { ws, send, chromium, profile } = await openChromium('app-chunks-bench-');

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const round = (x) => Math.round(x * 10) / 10;
let exitCode = 0;
try {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const s = (method, params) => send(method, params, sessionId);
  await s('Page.enable');
  await s('Runtime.enable');
  await s('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  const evaluate = async (expression) => {
    const r = await s('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(JSON.stringify(r.exceptionDetails).slice(0, 800));
    return r.result.value;
  };
  const load = async () => {
    await s('Page.navigate', { url: `${origin}/bench.html` });
    for (let i = 0; i < 100 && (await evaluate('document.readyState')) !== 'complete'; i++) await new Promise((r) => setTimeout(r, 50));
  };
  const sync = [], open = [];
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
      return { ms: performance.now() - started, events: ledger.eventCount() };
    })()`);
    if (synced.events < heldEvents) throw new Error(`the sync left ${synced.events} of ${heldEvents} events`);
    await load();
    const opened = await evaluate(`(async () => {
      const started = performance.now();
      const { IndexedDbStore } = await import('/app/js/store.js');
      const { Ledger } = await import('/app/js/ledger.js');
      const ledger = await Ledger.open(await IndexedDbStore.open(indexedDB, ${JSON.stringify(name)}), { now: Date.now(), newDevice: () => 'x', deviceName: 'bench' });
      return { ms: performance.now() - started, events: ledger.eventCount(), stations: ledger.fold.stations.size };
    })()`);
    if (opened.events !== synced.events) throw new Error(`opened ${opened.events} events of ${synced.events}`);
    if (run > 0) { sync.push(synced.ms); open.push(opened.ms); }
    await evaluate(`new Promise((resolve) => { const r = indexedDB.deleteDatabase(${JSON.stringify(name)}); r.onsuccess = r.onerror = r.onblocked = () => resolve(true); })`);
  }
  console.log(JSON.stringify({
    events: heldEvents, throttle: THROTTLE, runs: RUNS, load: os.loadavg().map(round),
    firstSyncMs: { median: round(median(sync)), samples: sync.map(round) },
    openMs: { median: round(median(open)), samples: open.map(round) },
  }));
} catch (error) {
  console.error(`app-chunks-bench: ${error.message}`);
  exitCode = 70;
} finally {
  ws.close();
  chromium.kill();
  httpServer.close();
  await new Promise((r) => setTimeout(r, 300));
  rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
process.exit(exitCode);
