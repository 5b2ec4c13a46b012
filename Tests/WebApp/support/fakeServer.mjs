// An in-memory sync server speaking Schemas/sync-api.yaml closely enough for the app's sync
// tests: pull pages in log order with cursors, have_digests fork checks, server_digests, push
// with duplicate, gap, differing-content and clock checks, tokens, the user's devices (/v1/devices:
// list, link, rename, revoke, sign-out; a revoked token answers 401 `revoked`), and fault
// injection.
import { appModule } from './paths.mjs';

const { parse, stringify } = await appModule('bigjson.js');
const { fromWire, toWire, digest, sameContent } = await appModule('records.js');
const { writeFrames } = await appModule('recordFrames.js');

export class FakeServer {
  constructor({ token = 'secret', now = () => Date.now() } = {}) {
    this.token = token;
    this.now = now;
    this.log = [];            // records in log order (app events)
    this.byDevice = new Map(); // device → events
    this.names = new Map();
    this.requests = [];
    /** Set to a function (path, body) => Response | undefined to intercept a request. */
    this.intercept = null;
    this.offline = false;
    /** Answers pulls that ask for them with record frames (Schemas/sync-frames.md), as `serve` does. */
    this.frames = false;
    /** The user's devices: {id, name, created, last_sync, token, revoked}; the first is this app's. */
    this.devices = [
      { id: 'a1b2c3d4e5f6', name: 'iPhone Safari', created: 1_700_000_000_000, last_sync: null, token, revoked: false },
      { id: '0f0e0d0c0b0a', name: 'Pixel Chrome', created: 1_700_000_100_000, last_sync: 1_714_000_000_000, token: 'pixel', revoked: false },
    ];
    /** The name /v1/pair gives, from the name asked for (a server may add " (2)"). */
    this.pairName = (asked) => asked;
  }

  /** The active device whose token this is. */
  deviceOf(token) {
    return this.devices.find((d) => d.token === token && !d.revoked);
  }

  wireDevice(d, token) {
    return { id: d.id, name: d.name, created: d.created, last_sync: d.last_sync, this_device: d.token === token };
  }

  held(device) { return BigInt(this.byDevice.get(device)?.length ?? 0); }

  /** Appends records as if another client pushed them. */
  seed(events) {
    for (const e of events) this.append(e);
  }

  append(e) {
    if (e.kind === 'device_name') {
      const held = this.names.get(e.device);
      if (held && held.hlc >= e.hlc) return false;
      this.names.set(e.device, e);
    } else {
      const list = this.byDevice.get(e.device) ?? [];
      list.push(e);
      this.byDevice.set(e.device, list);
    }
    this.log.push(e);
    return true;
  }

  serverHas() {
    return Object.fromEntries([...this.byDevice].map(([d, l]) => [d, BigInt(l.length)]));
  }

  serverDigests() {
    return Object.fromEntries([...this.byDevice].map(([d, l]) => [d, digest(l[l.length - 1])]));
  }

  json(status, body, headers = {}) {
    // Date, as every HTTP server sends it: the app tells a fast clock from it.
    const date = new Date(this.now()).toUTCString();
    return new Response(stringify(body), { status, headers: { 'Content-Type': 'application/json', Date: date, ...headers } });
  }

  error(status, error, message, extra = {}) {
    return this.json(status, { error, message, ...extra });
  }

  /** The fetch the app is given. */
  fetch = async (url, init = {}) => {
    if (this.offline) throw new TypeError('Failed to fetch');
    const path = new URL(url, 'http://server.test').pathname;
    const body = init.body ? parse(init.body) : null;
    this.requests.push({ path, body });
    const intercepted = this.intercept?.(path, body);
    if (intercepted) return intercepted;
    if (path === '/v1/pair') {
      if (body.code !== 'ABCD-EFGH') return this.error(401, 'unauthorized', 'unknown pairing code');
      const own = this.devices[0];
      Object.assign(own, { token: this.token, revoked: false, name: this.pairName(body.device_name) });
      return this.json(200, { user: 'alice', token: this.token, device_name: own.name, device_id: own.id });
    }
    const token = String(init.headers?.Authorization ?? '').replace(/^Bearer /, '');
    if (this.devices.some((d) => d.token === token && d.revoked)) return this.error(401, 'revoked', 'this token was revoked');
    if (token !== this.token) return this.error(401, 'unauthorized', 'the token is not valid');
    if (path.startsWith('/v1/devices')) return this.device(path, body, token);
    if (path === '/v1/pull') return this.pull(body, String(init.headers?.Accept ?? ''));
    if (path === '/v1/push') return this.push(body);
    if (path === '/v1/status') return this.json(200, { user: 'alice', server_has: this.serverHas(), records: this.log.length });
    return this.error(404, 'not_found', 'no such path');
  };

  device(path, body, token) {
    const own = this.deviceOf(token);
    if (path === '/v1/devices') return this.json(200, { devices: this.devices.filter((d) => !d.revoked).map((d) => this.wireDevice(d, token)) });
    if (path === '/v1/devices/link') {
      const ttl = body.ttl_seconds ?? 600;
      if (!Number.isInteger(ttl) || ttl < 60 || ttl > 604_800) return this.error(422, 'invalid', 'ttl_seconds must be 60...604800');
      return this.json(200, { code: 'WXYZ-2345', expires: this.now() + ttl * 1000 });
    }
    if (path === '/v1/devices/rename') {
      const name = typeof body.name === 'string' ? body.name.trim() : '';
      if (name === '' || new TextEncoder().encode(name).length > 255) return this.error(422, 'invalid', 'the name must have 1 to 255 bytes');
      if (this.devices.some((d) => d !== own && !d.revoked && d.name === name)) return this.error(409, 'conflict', 'another device has this name');
      own.name = name;
      return this.json(200, { device: this.wireDevice(own, token) });
    }
    if (path === '/v1/devices/revoke') {
      const target = this.devices.find((d) => d.id === body.id && !d.revoked);
      if (!target) return this.error(404, 'not_found', 'no such device');
      target.revoked = true;
      return this.json(200, { revoked: this.wireDevice(target, token) });
    }
    if (path === '/v1/devices/sign-out') {
      own.revoked = true;
      return this.json(200, { revoked: this.wireDevice(own, token) });
    }
    return this.error(404, 'not_found', 'no such path');
  }

  /** @param {any} body @param {string} [accept] */
  pull(body, accept = '') {
    if (!body || typeof body.have !== 'object' || typeof body.have_digests !== 'object') return this.error(400, 'malformed', 'pull needs have and have_digests');
    for (const device of Object.keys(body.have).sort()) {
      const seq = BigInt(body.have[device]);
      const theirs = body.have_digests[device];
      const mine = seq > 0n ? this.byDevice.get(device)?.[Number(seq) - 1] : undefined;
      if (theirs !== undefined && mine && digest(mine) !== theirs) {
        return this.error(409, 'fork', `device ${device}'s event #${seq} differs`, { device, seq });
      }
    }
    const frames = this.frames && accept.includes('application/x-oritsubushi-frames');
    const limit = Math.min(Number(body.limit ?? 2000), frames ? 100_000 : 2000);
    let position = Number(body.cursor ?? 0);
    if (position > this.log.length) position = 0;
    const records = [];
    while (position < this.log.length && records.length < limit) {
      const r = this.log[position++];
      if (r.kind === 'device_name' || r.seq > BigInt(body.have[r.device] ?? 0)) records.push(frames ? r : toWire(r));
    }
    if (frames) {
      const header = new TextEncoder().encode(stringify({
        count: records.length, records: [], more: position < this.log.length, cursor: position,
        server_has: this.serverHas(), server_digests: this.serverDigests(),
      }));
      const data = writeFrames(records);
      const body = new Uint8Array(8 + header.length + data.length);
      body.set(new TextEncoder().encode('OSF1'));
      new DataView(body.buffer).setUint32(4, header.length, true);
      body.set(header, 8);
      body.set(data, 8 + header.length);
      return new Response(body, { status: 200, headers: { 'Content-Type': 'application/x-oritsubushi-frames', Date: new Date(this.now()).toUTCString() } });
    }
    return this.json(200, {
      records, more: position < this.log.length, cursor: position,
      server_has: this.serverHas(), server_digests: this.serverDigests(),
    });
  }

  push(body) {
    if (!Array.isArray(body?.records)) return this.error(400, 'malformed', 'push needs records');
    if (body.records.length > 5000) return this.error(413, 'payload_too_large', 'more than 5000 records');
    let events;
    try { events = body.records.map(fromWire); } catch (e) { return this.error(422, 'invalid', e.message); }
    const fresh = [];
    let duplicates = 0;
    const next = new Map();
    for (const e of [...events].sort((a, b) => (a.device < b.device ? -1 : a.device > b.device ? 1 : Number(a.seq - b.seq)))) {
      if (Number(e.hlc >> 16n) > this.now() + 86_400_000) {
        return this.error(409, 'conflict', `device ${e.device} sent events dated ahead; fix the clock of device ${e.device}, then run 'oritsubushi reissue' on it`);
      }
      if (e.kind === 'device_name') { fresh.push(e); continue; }
      const held = this.byDevice.get(e.device)?.[Number(e.seq) - 1];
      if (held) {
        if (!sameContent(held, e)) return this.error(409, 'conflict', `event ${e.device}#${e.seq} exists with different content`);
        duplicates++;
        continue;
      }
      const expected = (next.get(e.device) ?? this.held(e.device)) + 1n;
      if (e.seq !== expected) return this.error(409, 'conflict', `device ${e.device}'s events jump`);
      next.set(e.device, e.seq);
      fresh.push(e);
    }
    let appended = 0;
    for (const e of fresh) if (this.append(e)) appended++;
    return this.json(200, { appended, duplicates, server_has: this.serverHas() });
  }
}
