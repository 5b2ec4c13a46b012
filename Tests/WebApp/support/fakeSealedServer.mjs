// A scripted sync server of an end-to-end encrypted account (Schemas/encryption.md §10, §11,
// Schemas/sync-api.yaml), close enough for the app's tests: GET /v1/account, POST /v1/account/key,
// the sealed pull (frames only; `have_checks` and `server_digests` with epochs, and a run's
// bounds, no `have_digests` check) and push (sealed frames of kinds 5, 6 and 7: duplicates by
// bytes, a differing copy under the same epoch and bounds 409 `fork`, seq gaps, `stale-epoch`; a
// run counts its events), a link's wrapped key answered once by /v1/pair, and the
// devices' names kept only sealed (§8 "Device names": /v1/devices, /v1/devices/rename refusing a
// clear name with 409 `encrypted-account`, GET /v1/account's `device_named`).
import { appModule } from './paths.mjs';

const { parse, stringify } = await appModule('bigjson.js');
const { FRAMES_TYPE, framesBody } = await appModule('api.js');
const { readSealedFrames, writeSealedFrames } = await appModule('recordFrames.js');
const { writeFramesBody } = await appModule('accountApi.js');
const { readStoredForm, storedForm } = await appModule('crypto/recordSealer.js');
const { fromBase64url } = await appModule('linkKey.js');
const { sealedDigest } = await appModule('sealedSync.js');

const same = (a, b) => {
  const x = storedForm(a), y = storedForm(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** The first seq a sealed event or run stands for. */
const first = (r) => r.first ?? r.seq;

export class FakeSealedServer {
  constructor({ token = 'secret', epoch = 1, fingerprint = null } = {}) {
    this.token = token;
    this.account = { encrypted: true, epoch, fingerprint, key_chain: {} };
    /** Sealed records in log order. */
    this.log = [];
    /** Each device's sealed records by seq (index seq − 1): a run fills the slots of its seqs. */
    this.byDevice = new Map();
    this.requests = [];
    this.links = new Map();
    /** The wrapped key /v1/pair answers for `ABCD-EFGH` (null: a code of `server pair`). */
    this.pairKey = null;
    this.pushedBodies = [];
    /** The server's clock its answers carry in a Date header (Unix ms; null: no Date header). */
    this.date = null;
    /** The user's devices as /v1/devices lists them, the token's first; names as kept (sealed). */
    this.devices = [{ id: 'a1b2c3d4e5f6', name: null, created: 1_714_000_000_000, last_sync: null, this_device: true }];
  }

  /** POST /v1/devices/rename of an encrypted account: only a sealed name of a held epoch. */
  rename(name) {
    if (typeof name !== 'string' || !name.startsWith('sealed:')) return this.error(409, 'encrypted-account', 'this account is end-to-end encrypted: names are sealed');
    const bytes = fromBase64url(name.slice('sealed:'.length));
    let sealed;
    try {
      sealed = bytes && readStoredForm(bytes);
    } catch {
      sealed = null;
    }
    if (!sealed || sealed.kind !== 6 || name.length > 1024) return this.error(422, 'invalid', 'not a sealed device name');
    if (sealed.epoch > this.account.epoch) return this.error(409, 'unknown-epoch', 'an unknown epoch');
    this.devices[0].name = name;
    return this.json(200, { device: this.devices[0] });
  }

  /** The headers of an answer of `type`. */
  headers(type) {
    return this.date === null ? { 'Content-Type': type } : { 'Content-Type': type, Date: new Date(this.date).toUTCString() };
  }

  held(device) { return BigInt(this.byDevice.get(device)?.length ?? 0); }

  json(status, body) {
    return new Response(stringify(body), { status, headers: this.headers('application/json') });
  }

  error(status, error, message, extra = {}) { return this.json(status, { error, message, ...extra }); }

  /** Appends sealed records as if another device pushed them (no checks). */
  seed(records) {
    for (const r of records) this.append(r);
  }

  append(r) {
    if (r.kind === 6) {
      if (this.log.some((held) => held.kind === 6 && same(held, r))) return false;
    } else {
      const list = this.byDevice.get(r.device) ?? [];
      for (let seq = r.first ?? r.seq; seq <= r.seq; seq++) list.push(r);
      this.byDevice.set(r.device, list);
    }
    this.log.push(r);
    return true;
  }

  serverHas() {
    return Object.fromEntries([...this.byDevice].map(([d, l]) => [d, BigInt(l.length)]));
  }

  stored(device, seq) {
    const r = seq > 0n ? this.byDevice.get(device)?.[Number(seq) - 1] : undefined;
    if (!r) return undefined;
    return r.kind === 7 ? { digest: sealedDigest(r), epoch: r.epoch, first: r.first, last: r.seq } : { digest: sealedDigest(r), epoch: r.epoch };
  }

  fetch = async (url, init = {}) => {
    const path = new URL(url, 'http://server.test').pathname;
    const headers = init.headers ?? {};
    const framed = headers['Content-Type'] === FRAMES_TYPE;
    const body = init.body && !framed ? parse(init.body) : null;
    this.requests.push({ path, body, accept: headers.Accept ?? null, method: init.method ?? 'GET' });
    if (path === '/v1/pair') {
      if (body.code === 'ABCD-EFGH') {
        return this.json(200, { user: 'alice', token: this.token, device_name: body.device_name, encrypted: true, epoch: this.account.epoch, ...(this.pairKey ? { wrapped_key: this.pairKey } : {}) });
      }
      const wrapped = this.links.get(body.code);
      if (wrapped === undefined) return this.error(401, 'unauthorized', 'unknown pairing code');
      this.links.delete(body.code);
      return this.json(200, { user: 'alice', token: this.token, device_name: body.device_name, encrypted: true, epoch: this.account.epoch, ...(wrapped ? { wrapped_key: wrapped } : {}) });
    }
    if (String(headers.Authorization ?? '') !== `Bearer ${this.token}`) return this.error(401, 'unauthorized', 'the token is not valid');
    if (path === '/v1/account') return this.json(200, { ...this.account, device_named: this.devices[0].name !== null });
    if (path === '/v1/devices') return this.json(200, { devices: this.devices });
    if (path === '/v1/devices/rename') return this.rename(body.name);
    if (path === '/v1/devices/revoke') {
      const at = this.devices.findIndex((d) => d.id === body.id);
      if (at < 0) return this.error(404, 'not_found', 'no such device');
      const [revoked] = this.devices.splice(at, 1);
      return this.json(200, { revoked });
    }
    if (path === '/v1/account/key') {
      if (this.account.fingerprint !== null && this.account.fingerprint !== body.fingerprint) return this.error(409, 'conflict', 'another key is registered');
      this.account.fingerprint = body.fingerprint;
      return this.json(200, this.account);
    }
    if (path === '/v1/devices/link') {
      const code = `LINK${String(this.links.size + 1).padStart(4, '0')}`;
      this.links.set(code, body.wrapped_key ?? null);
      return this.json(200, { code, expires: Date.now() + 600_000 });
    }
    if (path === '/v1/pull') return this.pull(body, String(headers.Accept ?? ''));
    if (path === '/v1/push') return framed ? this.push(init.body) : this.error(415, 'unsupported', 'frames only');
    return this.error(404, 'not_found', 'no such path');
  };

  pull(body, accept) {
    if (accept !== FRAMES_TYPE) return this.error(415, 'unsupported', 'an encrypted account is pulled as frames');
    if (Object.keys(body.have_digests ?? {}).length !== 0) return this.error(400, 'malformed', 'no plaintext digests on an encrypted account');
    const start = body.cursor === undefined ? 0 : Number(body.cursor);
    const limit = Number(body.limit ?? 2000);
    const have = Object.fromEntries(Object.entries(body.have).map(([d, s]) => [d, BigInt(s)]));
    const page = [];
    let at = start;
    for (; at < this.log.length && page.length < limit; at++) {
      const r = this.log[at];
      // A run of which the device lacks any event is sent whole.
      if (r.kind !== 6 && r.seq <= (have[r.device] ?? 0n)) continue;
      page.push(r);
    }
    const haveChecks = {}, serverDigests = {};
    for (const [d, s] of Object.entries(have)) { const x = this.stored(d, s); if (x) haveChecks[d] = x; }
    for (const [d, s] of Object.entries(this.serverHas())) { const x = this.stored(d, s); if (x) serverDigests[d] = x; }
    const header = { count: page.length, records: [], more: at < this.log.length, cursor: at, server_has: this.serverHas(), have_checks: haveChecks, server_digests: serverDigests };
    return new Response(writeFramesBody(header, writeSealedFrames(page)), { status: 200, headers: this.headers(FRAMES_TYPE) });
  }

  push(bytes) {
    this.pushedBodies.push(bytes);
    const { sealed } = readSealedFrames(framesBody(bytes).frames);
    let appended = 0, duplicates = 0;
    const events = sealed.filter((r) => r.kind !== 6).sort((a, b) => (a.device < b.device ? -1 : a.device > b.device ? 1 : Number(first(a) - first(b))));
    for (const r of [...events, ...sealed.filter((x) => x.kind === 6)]) {
      if (r.epoch > this.account.epoch) return this.error(409, 'unknown-epoch', 'an unknown epoch');
      const count = r.kind === 6 ? 1 : Number(r.seq - first(r) + 1n);
      if (r.kind !== 6 && r.seq <= this.held(r.device)) {
        // Compared only with a stored copy of the same bounds and epoch (encryption.md §10).
        const mine = this.byDevice.get(r.device)[Number(r.seq) - 1];
        if (mine.epoch === r.epoch && first(mine) === first(r) && mine.seq === r.seq && !same(mine, r)) return this.error(409, 'fork', 'differing copy', { device: r.device, seq: Number(r.seq) });
        duplicates += count;
        continue;
      }
      if (r.kind !== 6 && first(r) !== this.held(r.device) + 1n) return this.error(409, 'seq-gap', 'a gap');
      if (r.epoch !== this.account.epoch) return this.error(409, 'stale-epoch', 'the key was rotated');
      if (this.append(r)) appended += count; else duplicates++;
    }
    return this.json(200, { appended, duplicates, server_has: this.serverHas() });
  }
}
