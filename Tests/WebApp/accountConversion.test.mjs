// Turning a plaintext account end-to-end encrypted from the app (Schemas/encryption.md §9,
// accountConversion.js): pages cut by size, what an upload carries beyond `sealed_has`, the key
// kept before anything is sent and hidden until the server swapped, an interrupted conversion
// resumed with the same key and nothing lost, another key's conversion (409), other devices
// pushing through every round, and the sentences said for each.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { FakeServer } from './support/fakeServer.mjs';

const { Ledger } = await appModule('ledger.js');
const { MemoryStore } = await appModule('store.js');
const { Api, FRAMES_TYPE, framesBody, NetworkError } = await appModule('api.js');
const { SyncSession } = await appModule('sync.js');
const { stringify } = await appModule('bigjson.js');
const { fromWire } = await appModule('records.js');
const { readSealedFrames } = await appModule('recordFrames.js');
const { openRecords } = await appModule('sealedSync.js');
const { pushPages } = await appModule('pushPages.js');
const { AccountConversion, conversionRecords } = await appModule('accountConversion.js');
const { ConversionProblem } = await appModule('conversionProblem.js');
const { KEYS_META, conversionKey, loadKeys } = await appModule('keyStore.js');
const { prepareKeys } = await appModule('accountKeys.js');
const { kitDue } = await appModule('kitRehearsal.js');
const { conversionFailureText } = await appModule('refusals.js');
const { setLanguage, t } = await appModule('i18n.js');

const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
const OTHER = '00000000000000aa';
let counter = 0x7000;
const nextDevice = () => (counter++).toString(16).padStart(16, '0');
setLanguage('en');

/**
 * A plaintext account's server that also takes a conversion (sync-api.yaml
 * /v1/account/encryption): sealed records staged per device in seq order under one key (a run,
 * kind 7, in the slot of each of its seqs); the swap once the staged copy holds every event of
 * the readable log.
 */
class ConvertingServer extends FakeServer {
  constructor() {
    super({ now: () => NOW });
    this.encrypted = null; // the fingerprint, once swapped
    this.converting = null;
    this.staged = new Map(); // device → sealed events
    this.stagedNames = [];
    this.uploads = [];
    /** Called before each conversion request; may answer instead. */
    this.beforeUpload = null;
    const plain = this.fetch;
    this.fetch = async (url, init = {}) => {
      const path = new URL(url, 'http://server.test').pathname;
      if (path === '/v1/account') {
        return this.json(200, this.encrypted ? { encrypted: true, epoch: 1, fingerprint: this.encrypted, key_chain: {} } : { encrypted: false });
      }
      if (path !== '/v1/account/encryption') return plain(url, init);
      if (init.headers['Content-Type'] !== FRAMES_TYPE) return this.error(415, 'unsupported_media_type', 'frames only');
      const early = this.beforeUpload?.();
      if (early) return early;
      return this.convert(framesBody(init.body));
    };
  }

  convert(body) {
    const { sealed } = readSealedFrames(body.frames);
    this.uploads.push(sealed.length);
    const fingerprint = body.fingerprint;
    if (this.encrypted) return this.encrypted === fingerprint ? this.answer(true) : this.error(409, 'conflict', 'another key');
    if (this.converting && this.converting !== fingerprint) return this.error(409, 'conflict', 'another key');
    this.converting = fingerprint;
    for (const r of sealed) {
      if (r.epoch !== 1) return this.error(409, 'stale-epoch', 'epoch 1 only');
      if (r.kind === 6) { this.stagedNames.push(r); continue; }
      const list = this.staged.get(r.device) ?? [];
      if (r.seq <= BigInt(list.length)) continue;
      if ((r.first ?? r.seq) !== BigInt(list.length) + 1n) return this.error(409, 'conflict', 'a gap');
      for (let seq = r.first ?? r.seq; seq <= r.seq; seq++) list.push(r);
      this.staged.set(r.device, list);
    }
    const covered = [...this.byDevice].every(([d, l]) => (this.staged.get(d)?.length ?? 0) >= l.length);
    if (covered) this.encrypted = fingerprint;
    return this.answer(covered);
  }

  answer(encrypted) {
    const sealedHas = Object.fromEntries([...this.staged].map(([d, l]) => [d, BigInt(l.length)]));
    return new Response(stringify({ encrypted, sealed_has: sealedHas, server_has: this.serverHas() }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }
}

async function replica() {
  return Ledger.open(new MemoryStore(), { now: NOW, newDevice: nextDevice, deviceName: 'phone' });
}

function otherEvent(seq, memo = '') {
  return fromWire({ kind: 'station_edit', device: OTHER, seq, hlc: String(BigInt(NOW - 100000 + seq) << 16n), station: 120000 + seq, comp_date: 1, ...(memo ? { memo } : {}) });
}

/** A conversion of `ledger` against `server`, syncing as the app does. */
function conversion(ledger, server, options = {}) {
  const api = new Api(server.fetch, 'http://server.test');
  const sync = async () => { await new SyncSession({ ledger, api, now: () => NOW, newDevice: nextDevice }).run('secret'); };
  return new AccountConversion({ ledger, api, token: 'secret', sync, ...options });
}

async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('it did not fail');
}

test('pages are cut by records and by size, an oversized item alone, in order', () => {
  const items = [5, 5, 5, 50, 5, 5, 5, 5];
  const pages = [...pushPages(items, (n) => n, { records: 3, bytes: 12 })];
  assert.deepEqual(pages, [[5, 5, 5], [50], [5, 5, 5], [5]]);
  assert.deepEqual([...pushPages(items, (n) => n, { records: 100, bytes: 1 })].map((p) => p.length), [1, 1, 1, 1, 1, 1, 1, 1]);
  assert.deepEqual([...pushPages([], (n) => n, { records: 3, bytes: 12 })], []);
});

test('an upload carries every name, then each device\'s events beyond sealed_has in seq order', async () => {
  const ledger = await replica();
  await ledger.receive([otherEvent(1), otherEvent(2), otherEvent(3)], NOW);
  await ledger.edit(202919, { compDate: 20240503 }, NOW);
  await ledger.edit(300260, { memo: 'memo' }, NOW + 1);
  const all = conversionRecords(ledger, new Map());
  assert.equal(all[0].kind, 'device_name');
  assert.deepEqual(all.filter((r) => r.kind !== 'device_name').map((r) => `${r.device}:${r.seq}`).sort(),
    [`${OTHER}:1`, `${OTHER}:2`, `${OTHER}:3`, `${ledger.device}:1`, `${ledger.device}:2`].sort());
  const rest = conversionRecords(ledger, new Map([[OTHER, 2n], [ledger.device, 2n]]));
  assert.deepEqual(rest.filter((r) => r.kind !== 'device_name').map((r) => `${r.device}:${r.seq}`), [`${OTHER}:3`]);
});

test('the app turns its account encrypted: every event staged sealed, the key kept, then its kit due', async () => {
  const server = new ConvertingServer();
  server.seed([otherEvent(1, '他の端末のメモ'), otherEvent(2)]);
  const ledger = await replica();
  await ledger.edit(202919, { compDate: 20240503 }, NOW);
  await ledger.edit(202919, { memo: '暗号化するメモ' }, NOW + 1);
  const seen = [];
  const result = await conversion(ledger, server, { onProgress: (p) => seen.push(p) }).run();
  assert.equal(result.already, false);
  assert.equal(server.encrypted, result.fingerprint);
  assert.equal(conversionKey(ledger), null, 'the conversion is over');
  const ring = await loadKeys(ledger);
  assert.equal(ring.current.fingerprint, result.fingerprint);
  assert.ok(kitDue(ring), 'the kit of the key made here is due');
  assert.deepEqual(seen.at(-1), { round: 1, sent: seen.at(-1).total, total: seen.at(-1).total });
  // The staged copy opens under the key to the very events the device holds, memo included.
  const opened = await openRecords([...new Set([...server.staged.values()].flat())], ring);
  assert.ok([...server.staged.values()].flat().some((r) => r.kind === 7), 'events sealed in runs');
  assert.ok(opened.some((e) => e.memo === '暗号化するメモ') && opened.some((e) => e.memo === '他の端末のメモ'));
  assert.equal(opened.length, ledger.eventCount());
  // The next sync sees an encrypted account and keeps the key it made (made: false, nothing to register).
  const prepared = await prepareKeys(ledger, new Api(server.fetch, 'http://server.test'), 'secret');
  assert.equal(prepared.ring.current.fingerprint, result.fingerprint);
  assert.equal((await conversion(ledger, server).run()).already, true);
});

test('an interrupted conversion hides its key, then resumes with it and uploads only what is not staged', async () => {
  const server = new ConvertingServer();
  server.seed([1, 2, 3, 4, 5].map((s) => otherEvent(s)));
  const ledger = await replica();
  await ledger.edit(202919, { compDate: 20240503 }, NOW);
  // The first page is staged, another device pushes meanwhile, and the answer is lost.
  const plain = server.convert.bind(server);
  server.convert = (body) => {
    if (readSealedFrames(body.frames).sealed.length === 0) return plain(body);
    server.convert = plain;
    server.seed([otherEvent(6)]);
    plain(body);
    throw new TypeError('Failed to fetch');
  };
  const error = await rejection(conversion(ledger, server).run());
  assert.ok(error instanceof NetworkError, String(error));
  assert.match(conversionFailureText(error), /press again to resume/);
  const fingerprint = conversionKey(ledger);
  assert.ok(fingerprint, 'the key was kept before anything was sent');
  assert.equal(await loadKeys(ledger), null, 'no kit, no fingerprint, no link while the account is plaintext');
  assert.equal(server.converting, fingerprint);
  assert.equal(server.encrypted, null, 'the readable log still serves');
  // Resumed: the same key, and only the name and the event the staged copy lacks.
  const first = server.uploads.at(-1);
  server.uploads.length = 0;
  const result = await conversion(ledger, server).run();
  assert.equal(result.fingerprint, fingerprint, 'the same key');
  assert.equal(server.encrypted, fingerprint);
  // The name, the other device's 6th event and this device's knowledge mark of it: not the 5 staged.
  assert.deepEqual(server.uploads, [0, 3], `the first upload carried ${first}`);
  assert.deepEqual(new Map([...server.staged].map(([d, l]) => [d, BigInt(l.length)])), ledger.versionVector());
  assert.ok(kitDue(await loadKeys(ledger)));
});

test('a conversion whose last answer was lost is finished by the next sync: the key is the account\'s', async () => {
  const server = new ConvertingServer();
  server.seed([otherEvent(1)]);
  const ledger = await replica();
  let lose = false;
  const plain = server.convert.bind(server);
  server.convert = (body) => { const answer = plain(body); if (lose || server.encrypted) { lose = true; throw new TypeError('Failed to fetch'); } return answer; };
  await rejection(conversion(ledger, server).run());
  assert.ok(server.encrypted, 'the server swapped');
  assert.equal(await loadKeys(ledger), null);
  const prepared = await prepareKeys(ledger, new Api(server.fetch, 'http://server.test'), 'secret');
  assert.equal(prepared.ring.current.fingerprint, server.encrypted);
  assert.ok(kitDue(await loadKeys(ledger)), 'its kit is due now');
});

test('another device converting with another key: 409, one sentence, this device\'s unused key forgotten', async () => {
  const server = new ConvertingServer();
  server.converting = 'AAAA-BBBB';
  const ledger = await replica();
  const error = await rejection(conversion(ledger, server).run());
  assert.ok(error instanceof ConversionProblem && error.reason === 'other-key', String(error));
  assert.equal(conversionFailureText(error), t('encrypt.otherKey'));
  assert.equal(ledger.getMeta(KEYS_META), undefined);
  assert.equal(conversionKey(ledger), null);
});

test('other devices pushing through every round: it stops after the last round, nothing lost, and says so', async () => {
  const server = new ConvertingServer();
  let seq = 0;
  server.seed([otherEvent(++seq)]);
  const plain = server.convert.bind(server);
  server.convert = (body) => { const answer = plain(body); server.seed([otherEvent(++seq)]); return answer; };
  const ledger = await replica();
  const error = await rejection(conversion(ledger, server, { maxRounds: 3 }).run());
  assert.ok(error instanceof ConversionProblem && error.reason === 'busy', String(error));
  assert.equal(conversionFailureText(error), t('encrypt.busy'));
  assert.ok(conversionKey(ledger), 'the key stays for the next press');
  assert.equal(server.encrypted, null);
});

test('a failed sync stops the conversion before anything is uploaded', async () => {
  const server = new ConvertingServer();
  const ledger = await replica();
  const sync = async () => { throw new ConversionProblem('sync', 'the sync stopped'); };
  const error = await rejection(new AccountConversion({ ledger, api: new Api(server.fetch, 'http://server.test'), token: 'secret', sync }).run());
  assert.equal(conversionFailureText(error), t('encrypt.sync'));
  assert.deepEqual(server.uploads, []);
});
