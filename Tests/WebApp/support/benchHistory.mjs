// What the phone app's browser benches share (Tools/app-sync-bench.mjs, Tools/app-chunks-bench.mjs):
// the history a FakeServer is seeded with, and a headless Chromium driven over CDP.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appModule, repo } from './paths.mjs';

const { fromWire } = await appModule('records.js');

export { repo };

/**
 * A bench's command line, `--name value` pairs, as a Map from name to value.
 * @param {string[]} argv process.argv
 */
export function benchArgs(argv) {
  const args = new Map();
  for (let i = 2; i < argv.length; i += 2) args.set(argv[i].replace(/^--/, ''), argv[i + 1]);
  return args;
}

/** The conformance catalogue's text (served as /v1/catalog) and its enabled stations. */
export const catalogText = readFileSync(path.join(repo, 'Conformance/catalog.json'), 'utf8');
const stations = JSON.parse(catalogText).stations.filter((s) => s.enabled).map((s) => s.id);

/**
 * Seeds `server` with `events` station edits of two other devices (70 % dates, 20 % memos, 10 %
 * both, over the enabled stations), one knowledge mark per 3,125 edits, and the devices' names;
 * returns how many events it holds.
 * @param {import('./fakeServer.mjs').FakeServer} server @param {number} events @param {number} now
 */
export function seedBenchHistory(server, events, now) {
  const devices = ['00000000000000a1', '00000000000000b2'];
  server.seed(devices.map((device, i) => fromWire({ kind: 'device_name', device, hlc: String(BigInt(now - 400 * 86_400_000) << 16n), name: `device ${i + 1}` })));
  const seqs = [0, 0];
  const records = [];
  for (let i = 0; i < events; i++) {
    const d = i % 2, device = devices[d];
    const hlc = String(BigInt(now - 365 * 86_400_000 + i * 100) << 16n);
    if (i % 3125 === 0) {
      const other = seqs[1 - d];
      records.push({ kind: 'knowledge_mark', device, seq: ++seqs[d], hlc, knowledge: other > 0 ? { [devices[1 - d]]: other } : {} });
    }
    const roll = i % 10;
    records.push({
      kind: 'station_edit', device, seq: ++seqs[d], hlc, station: stations[(i * 7919) % stations.length], origin: 'user',
      ...(roll < 7 || roll === 9 ? { comp_date: (1990 + (i % 35)) * 10000 + ((i % 12) + 1) * 100 } : {}),
      ...(roll >= 7 ? { memo: `メモ ${i}` } : {}),
    });
  }
  server.seed(records.map(fromWire));
  return [...server.byDevice.values()].reduce((n, list) => n + list.length, 0);
}

/**
 * Debian's chromium, headless, with a profile of its own, and one CDP connection to it.
 * @param {string} prefix the profile directory's prefix
 * @param {(message: any) => void} [onEvent] every CDP message that is not an answer
 */
export async function openChromium(prefix, onEvent = () => {}) {
  const profile = mkdtempSync(path.join(os.tmpdir(), prefix));
  const chromium = spawn('chromium', ['--headless=new', '--no-sandbox', '--remote-debugging-port=0', `--user-data-dir=${profile}`,
    '--window-size=390,844', '--lang=ja', '--no-first-run', '--no-default-browser-check', 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const wsUrl = await new Promise((resolve, reject) => {
    let text = '';
    chromium.stderr.on('data', (d) => {
      text += d;
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (m) resolve(m[1]);
    });
    chromium.on('exit', (code) => reject(new Error(`chromium exited (${code}): ${text}`)));
  });
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
  let nextId = 1;
  const pending = new Map();
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    if (msg.id && pending.has(msg.id)) {
      const { resolve, reject } = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) reject(new Error(JSON.stringify(msg.error))); else resolve(msg.result);
    } else {
      onEvent(msg);
    }
  };
  /** @param {string} method @param {object} [params] @param {string} [sessionId] */
  const send = (method, params = {}, sessionId) => {
    const id = nextId++;
    ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  };
  return { ws, send, chromium, profile };
}

/**
 * A new tab of `send`'s Chromium, its Page and Runtime domains enabled and its CPU throttled
 * `throttle`×; returns the function that sends a CDP command to it.
 * @param {(method: string, params?: object, sessionId?: string) => Promise<any>} send @param {number} throttle
 */
export async function openTab(send, throttle) {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  /** @param {string} method @param {object} [params] */
  const tab = (method, params) => send(method, params, sessionId);
  await tab('Page.enable');
  await tab('Runtime.enable');
  await tab('Emulation.setCPUThrottlingRate', { rate: throttle });
  return tab;
}

/**
 * Ends a bench: closes the CDP socket and the loopback server, stops Chromium and removes its profile.
 * @param {{ws: WebSocket, chromium: import('node:child_process').ChildProcess, profile: string}} browser
 * @param {import('node:http').Server} httpServer
 */
export async function closeBench({ ws, chromium, profile }, httpServer) {
  ws.close();
  chromium.kill();
  httpServer.close();
  await new Promise((r) => setTimeout(r, 300));
  rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
