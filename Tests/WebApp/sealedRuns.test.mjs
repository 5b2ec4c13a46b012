// Sealed runs (kind 7, Schemas/encryption.md §3.5): the app's sealRun against a seal made here
// with node:crypto over an AD written byte by byte, openRun's every refusal in §3.5's order
// (hand-made seals give the plaintexts only a forger could), the canonical block pinned to the
// Swift writer's layout, and kind 7 in the stored form and in blocks (segment-format.md §2a, §3.6).
import test from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createHmac, hkdfSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appModule, conformanceDir } from './support/paths.mjs';

const { importDataKey, randomDataKey } = await appModule('crypto/dataKey.js');
const { sealRun, openRun, runBlock } = await appModule('crypto/runSealer.js');
const { readStoredForm, sealRecord, storedForm } = await appModule('crypto/recordSealer.js');
const { SealError } = await appModule('crypto/sealError.js');
const { encodeBlocks, encodeSealedBlocks } = await appModule('blockEncoder.js');
const { BlockError, blockSteps } = await appModule('blockDecoder.js');
const { readFrame } = await appModule('lz4.js');
const { runSteps } = await appModule('timeSlice.js');
const { encode } = await appModule('records.js');
const { parse } = await appModule('bigjson.js');

const KEY = new Uint8Array(32).map((_, i) => i);
const DEVICE = '0123456789abcdef';
const OTHER = '00000000000000aa';
const hex = (bytes) => Buffer.from(bytes).toString('hex');

const edit = (seq, extra = {}) => ({ kind: 'station_edit', device: DEVICE, seq: BigInt(seq), hlc: (1_714_700_000_000n + BigInt(seq)) << 16n, station: 1130100 + seq, compDate: 20240501, memo: null, origin: 'user', ...extra });
/** One of each event kind, seqs first … first + 3. */
const mixed = (first = 5) => [
  edit(first),
  edit(first + 1, { compDate: null, memo: '乗り換えで通過', origin: 'import' }),
  { kind: 'catalog_version', device: DEVICE, seq: BigInt(first + 2), hlc: 0x0190000000000003n, catalogVersion: 20240401 },
  { kind: 'knowledge_mark', device: DEVICE, seq: BigInt(first + 3), hlc: 0x0190000000000005n, knowledge: [[OTHER, 3n], ['00000000000000bb', 12n]] },
];

async function refuses(promise, reason, message) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof SealError, `${message}: ${error}`);
    assert.equal(error.reason, reason, `${message}: ${error.message}`);
    return true;
  });
}

// MARK: - An independent seal of a run (node:crypto)

const subkey = (label) => Buffer.from(hkdfSync('sha256', KEY, Buffer.alloc(0), Buffer.from(label), 32));

/** "ORTSBSEAL1" ‖ u8 7 ‖ u64 device ‖ u64 first ‖ u64 last ‖ u32 epoch, written here (39 bytes). */
function runAd({ device, first, seq, epoch }) {
  const ad = Buffer.alloc(39);
  ad.write('ORTSBSEAL1', 0, 'ascii');
  ad[10] = 7;
  ad.writeBigUInt64LE(BigInt('0x' + device), 11);
  ad.writeBigUInt64LE(first, 19);
  ad.writeBigUInt64LE(seq, 27);
  ad.writeUInt32LE(epoch, 35);
  return ad;
}

/** A run sealed by hand: `plaintext` as given, the nonce the content gives unless `nonce` is given. */
function handSeal(clear, plaintext, nonce) {
  const ad = runAd(clear);
  const n = nonce ?? createHmac('sha256', subkey('oritsubushi/v1 nonce')).update(ad).update(plaintext).digest().subarray(0, 12);
  const cipher = createCipheriv('aes-256-gcm', subkey('oritsubushi/v1 seal'), n);
  cipher.setAAD(ad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { kind: 7, ...clear, nonce: new Uint8Array(n), ciphertext: new Uint8Array(ciphertext) };
}

const padded = (bytes, length = Math.ceil(bytes.length / 32) * 32) => {
  const out = new Uint8Array(length);
  out.set(bytes);
  return out;
};

/** A block with the u32 at `offset` of its header changed by `delta` (a column's length, N, R). */
function withHeader(block, offset, delta) {
  const out = Buffer.from(block);
  out.writeUInt32LE(out.readUInt32LE(offset) + delta, offset);
  return new Uint8Array(out);
}

// MARK: - Sealing and opening

test('sealRun: the padded canonical block under the 39-byte AD, as an independent AES-GCM and HMAC seal it; openRun gives the events back', async () => {
  const key = await importDataKey(KEY, 3);
  for (const events of [mixed(), mixed(1).slice(0, 1), Array.from({ length: 4096 }, (_, i) => edit(i + 1))]) {
    const name = `${events.length} event(s) from #${events[0].seq}`;
    const sealed = await sealRun(events, key);
    const clear = { device: DEVICE, first: events[0].seq, seq: events.at(-1).seq, epoch: 3 };
    assert.deepEqual({ kind: sealed.kind, device: sealed.device, first: sealed.first, seq: sealed.seq, epoch: sealed.epoch }, { kind: 7, ...clear }, name);
    assert.deepEqual(sealed, handSeal(clear, padded(encodeBlocks(events))), `${name}: the bytes of an independent seal`);
    assert.equal((sealed.ciphertext.length - 16) % 32, 0, name);
    assert.deepEqual(await openRun(sealed, key), events, name);
    assert.deepEqual(await sealRun(events, key), sealed, `${name}: deterministic`);
  }
  assert.notDeepEqual((await sealRun(mixed(), await importDataKey(KEY, 4))).nonce, (await sealRun(mixed(), key)).nonce, 'another epoch, another nonce');
});

test("the canonical block is the Swift writer's: the app lays out Swift's liblz4 frames of app-chunks.jsonl again byte for byte", () => {
  const corpus = readFileSync(path.join(conformanceDir, 'app-chunks.jsonl'), 'utf8').trim().split('\n').map((line) => parse(line));
  let frames = 0;
  for (const c of corpus.filter((x) => !x.refused && x.case.includes('(liblz4)'))) {
    const bytes = new Uint8Array(Buffer.from(c.frames, 'base64'));
    for (let at = 0; at < bytes.length;) {
      const frame = readFrame(bytes, at);
      const events = [];
      runSteps(blockSteps(frame.content, events));
      assert.equal(hex(encodeBlocks(events)), hex(frame.content), `${c.case}, frame at ${at}`);
      at += frame.length;
      frames++;
    }
  }
  assert.ok(frames >= 2, `${frames} frames compared`);
});

test('a run is one device\'s events with consecutive seqs and a padded block of at most 65,472 bytes; anything else is not sealed', async () => {
  const key = await importDataKey(KEY, 1);
  await refuses(sealRun([], key), 'record', 'no event');
  await refuses(sealRun([edit(1), edit(3)], key), 'record', 'a gap');
  await refuses(sealRun([edit(2), edit(1)], key), 'record', 'falling seqs');
  await refuses(sealRun([edit(1), { ...edit(2), device: OTHER }], key), 'record', 'two devices');
  await refuses(sealRun([edit(1), { kind: 'device_name', device: DEVICE, seq: 0n, hlc: 1n << 16n, name: 'x' }], key), 'record', 'a device name');
  const long = Array.from({ length: 16 }, (_, i) => edit(i + 1, { memo: 'm'.repeat(4096) }));
  assert.ok(encodeBlocks(long).length > 65_472);
  await refuses(sealRun(long, key), 'record', 'a block past 65,472 bytes');
  assert.throws(() => runBlock(long), (error) => error instanceof SealError && /^the run of device 0123456789abcdef seqs 1–16 is too long to seal \(a block of \d+ bytes\)$/.test(error.detail));
});

test('openRun refuses a wrong length, and anything changed is unauthentic', async () => {
  const key = await importDataKey(KEY, 1);
  const sealed = await sealRun(mixed(), key);
  await refuses(openRun({ ...sealed, nonce: sealed.nonce.subarray(0, 11) }, key), 'length', 'a short nonce');
  await refuses(openRun({ ...sealed, ciphertext: sealed.ciphertext.subarray(0, sealed.ciphertext.length - 1) }, key), 'length', 'a cut ciphertext');
  await refuses(openRun({ ...sealed, ciphertext: sealed.ciphertext.subarray(0, 16) }, key), 'length', 'a tag alone');
  for (let bit = 0; bit < sealed.ciphertext.length * 8; bit += 61) {
    const ciphertext = sealed.ciphertext.slice();
    ciphertext[bit >> 3] ^= 1 << (bit & 7);
    await refuses(openRun({ ...sealed, ciphertext }, key), 'unauthentic', `bit ${bit}`);
  }
  await refuses(openRun(sealed, await randomDataKey(1)), 'unauthentic', 'another key');
  await refuses(openRun({ ...sealed, epoch: 2 }, key), 'unauthentic', 'another epoch');
  await refuses(openRun({ ...sealed, device: '0123456789abcdee' }, key), 'unauthentic', 'another device');
  await refuses(openRun({ ...sealed, first: 4n }, key), 'unauthentic', 'another first');
  await refuses(openRun({ ...sealed, seq: 9n }, key), 'unauthentic', 'another last');
  const nonce = sealed.nonce.slice();
  nonce[11] ^= 1;
  await refuses(openRun({ ...sealed, nonce }, key), 'unauthentic', 'a flipped nonce bit');
  await assert.rejects(openRun({ ...sealed, kind: 5 }, key), RangeError, 'not a run');
  await assert.rejects(openRun({ ...sealed, first: undefined }, key), RangeError, 'no first');
});

test('openRun: only the one sealed form of a run opens (noncanonical, padding, record, kind, identity, in that order)', async () => {
  const key = await importDataKey(KEY, 1);
  const events = mixed();
  const block = encodeBlocks(events);
  const clear = { device: DEVICE, first: 5n, seq: 8n, epoch: 1 };
  const open = (plaintext, c = clear, nonce) => openRun(handSeal(c, plaintext, nonce), key);
  assert.deepEqual(await open(padded(block)), events, 'the hand-made seal itself opens');
  await refuses(open(padded(block), clear, new Uint8Array(12)), 'noncanonical', 'another nonce');

  const dirty = padded(block);
  dirty[dirty.length - 1] = 1;
  assert.ok(dirty.length > block.length, 'the block leaves room for padding');
  await refuses(open(dirty), 'padding', 'a non-zero padding byte');
  await refuses(open(padded(block, Math.ceil(block.length / 32) * 32 + 32)), 'padding', '32 more zero bytes');
  await refuses(open(padded(withHeader(block, 40, 64))), 'padding', 'a block whose header runs past the plaintext');
  await refuses(open(new Uint8Array(32)), 'padding', 'a plaintext shorter than a block header');

  const magic = block.slice();
  magic[3] = 0x31;
  await refuses(open(padded(magic)), 'padding', 'a block without ORB2: its length cannot be read (Swift\'s RunBlockCodec.blockLength)');
  // A varint written one byte longer than it need be: the same records, another layout.
  const counters = 44 + 8 + 3 * 4 + Buffer.from(block).readUInt32LE(16) + Buffer.from(block).readUInt32LE(20);
  const loose = withHeader(new Uint8Array([...block.subarray(0, counters), block[counters] | 0x80, 0, ...block.subarray(counters + 1)]), 24, 1);
  assert.deepEqual(runSteps(blockSteps(loose, [])), 4, 'the loose block decodes');
  await refuses(open(padded(loose)), 'record', 'a block that is not the one its records make');
  // A device table with a device no record uses.
  const table = Buffer.from(block);
  const wide = Buffer.concat([table.subarray(0, 52), Buffer.from(OTHER, 'hex').reverse(), table.subarray(52)]);
  wide.writeUInt16LE(2, 12);
  await refuses(open(padded(new Uint8Array(wide))), 'record', 'a device table of two devices');
  await refuses(open(padded(encodeBlocks([edit(5), edit(6, { station: 0 })]))), 'record', 'a station edit of station 0 (§3)');
  const sealedInside = encodeSealedBlocks([await sealRecord(encode(edit(5)), key)]);
  await refuses(open(padded(sealedInside), { ...clear, seq: 5n }), 'record', 'a sealed record in the block');

  const name = { kind: 'device_name', device: DEVICE, seq: 0n, hlc: 1n << 16n, name: 'iPhone' };
  await refuses(open(padded(encodeBlocks([edit(5), name])), { ...clear, seq: 5n }), 'kind', 'a device name in the run');
  await refuses(open(padded(block), { ...clear, device: OTHER }), 'identity', 'another device');
  await refuses(open(padded(block), { ...clear, first: 6n, seq: 9n }), 'identity', 'other seqs');
  await refuses(open(padded(block), { ...clear, seq: 9n }), 'identity', 'one event short');
  await refuses(open(padded(encodeBlocks([edit(5), edit(7)])), { ...clear, seq: 6n }), 'identity', 'a gap');
  await refuses(open(padded(encodeBlocks([edit(6), edit(5)])), { ...clear, seq: 6n }), 'identity', 'falling seqs');
});

// MARK: - Kind 7 in the stored form and in blocks

// 128 bytes of padded block and a tag: room for its 5 events (at most (128 − 52) / 7 = 10).
const RUN = { kind: 7, device: DEVICE, first: 5n, seq: 9n, epoch: 2, nonce: new Uint8Array(12).fill(0xaa), ciphertext: new Uint8Array(144).fill(0xcc) };

test('the stored form of a run: device, first, last, epoch, nonce, then C ‖ T (segment-format.md §3.6)', () => {
  const bytes = storedForm(RUN);
  const b = Buffer.from(bytes);
  assert.deepEqual([b[0], b[1], b.readUInt16LE(2)], [7, 0, 40 + 144]);
  assert.deepEqual([b.readBigUInt64LE(4).toString(16), b.readBigUInt64LE(12), b.readBigUInt64LE(20), b.readUInt32LE(28)], [DEVICE.replace(/^0/, ''), 5n, 9n, 2]);
  assert.equal(hex(b.subarray(32, 44)), 'aa'.repeat(12));
  assert.equal(hex(b.subarray(44)), 'cc'.repeat(144));
  assert.deepEqual(readStoredForm(bytes), RUN);
  const refused = (change, message) => {
    const bad = Buffer.from(bytes);
    change(bad);
    assert.throws(() => readStoredForm(new Uint8Array(bad)), (error) => error instanceof SealError && error.reason === 'record' && error.detail === message);
  };
  refused((x) => { x.writeBigUInt64LE(3n, 20); }, 'a sealed run ends (seq 3) before it starts (seq 5)');
  refused((x) => { x.writeBigUInt64LE(0n, 12); }, 'a sealed record has a zero device, seq or epoch');
  refused((x) => { x.writeUInt32LE(0, 28); }, 'a sealed record has a zero device, seq or epoch');
  refused((x) => { x[1] = 1; }, 'a sealed record has bad flags or a bad length 184');
  refused((x) => { x.writeBigUInt64LE(15n, 20); }, 'a sealed run claims 11 events, more than its 128 bytes could hold');
  assert.throws(() => readStoredForm(bytes.subarray(0, 80)), SealError, 'cut short');
});

test("a block of sealed records with a run: the seq column holds the run's last, its tail last − first first (§2a)", () => {
  const block = encodeSealedBlocks([RUN]);
  const expected = Buffer.concat([
    Buffer.from('ORB2'), u32(1), u32(4 + 40 + 144), Buffer.from([1, 0, 0, 0]),
    u32(1), u32(0), u32(0), u32(0), u32(0), u32(0), u32(1 + 1 + 12 + 2 + 144),
    Buffer.from(DEVICE, 'hex').reverse(), Buffer.from([7, 0, 0]), Buffer.from([18]),
    Buffer.from([4, 2]), Buffer.alloc(12, 0xaa), Buffer.from([0x90, 0x01]), Buffer.alloc(144, 0xcc),
  ]);
  assert.equal(hex(block), expected.toString('hex'));
  // Mixed with events and a name of two devices, read back as they were.
  const event = { kind: 5, device: OTHER, seq: 3n, epoch: 1, nonce: new Uint8Array(12).fill(1), ciphertext: new Uint8Array(48).fill(2) };
  const name = { kind: 6, device: DEVICE, seq: 0n, epoch: 1, nonce: new Uint8Array(12).fill(3), ciphertext: new Uint8Array(80).fill(4) };
  const records = [event, RUN, name, { ...RUN, first: 10n, seq: 10n }, { ...event, seq: 4n }, { ...RUN, device: OTHER, first: 5n, seq: 14n }];
  const sealed = [];
  assert.equal(runSteps(blockSteps(encodeSealedBlocks(records), [], sealed)), records.length);
  assert.deepEqual(sealed.map((r) => hex(storedForm(r))), records.map((r) => hex(storedForm(r))));
  assert.deepEqual(sealed[1], RUN);
});

function u32(n) {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

test('a run that ends before it starts, one from seq 0, and a run among plaintext records are refused as records', () => {
  const block = Buffer.from(encodeSealedBlocks([RUN]));
  const seqAt = 44 + 8 + 3, tailAt = seqAt + 1;
  const decode = (bytes, sealed = []) => runSteps(blockSteps(new Uint8Array(bytes), [], sealed));
  const past = Buffer.from(block);
  past[tailAt] = 10; // last − first = 10 > last = 9: first wraps, as Swift's decoder reads it
  assert.throws(() => decode(past), (error) => error instanceof BlockError && error.message === 'a sealed run ends (seq 9) before it starts (seq 18446744073709551615)' && error.record === 0);
  const fromZero = Buffer.from(block);
  fromZero[tailAt] = 9; // first = 0
  assert.throws(() => decode(fromZero), (error) => error instanceof BlockError && error.message === 'a sealed record has a zero device, seq or epoch' && error.record === 0);
  assert.throws(() => decode(block, null), (error) => error instanceof BlockError && error.message === 'a sealed record (kind 7) where only plaintext records may be' && error.record === 0);
});
