// Conformance/encryption.jsonl (Schemas/encryption.md, Schemas/conformance.md): the app's
// encryption primitives (js/crypto/) give exactly the corpus's outputs, or refuse with its
// reason, for every case; the corpus must hold a case of every op. Then properties of their own,
// some against an independent implementation written here with node:crypto (HKDF, HMAC,
// AES-256-GCM), which also makes the sealed forms only a hand-made seal can give (a wrong nonce,
// padding, kind or identity).
import test from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createHash, createHmac, hkdfSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { appModule, conformanceDir } from './support/paths.mjs';

const { importDataKey, randomDataKey } = await appModule('crypto/dataKey.js');
const { sealRecord, openRecord, associatedData, readStoredForm, storedForm } = await appModule('crypto/recordSealer.js');
const { sealRun, openRun } = await appModule('crypto/runSealer.js');
const { BlockError, blockSteps } = await appModule('blockDecoder.js');
const { runSteps } = await appModule('timeSlice.js');
const { wrapKey, unwrapKey, linkWrappingKey, chainWrappingKey, newDeviceWrappingKey } = await appModule('crypto/keyWrap.js');
const { kitText, readKit, kitWords } = await appModule('crypto/recoveryKit.js');
const { encodeCrockford, crockfordValue, decodeCrockford } = await appModule('crypto/crockford.js');
const { SealError } = await appModule('crypto/sealError.js');
const { encode } = await appModule('records.js');
const { openDeviceName, sealDeviceName } = await appModule('sealedDeviceName.js');
const { decodeRecord } = await appModule('openedRecord.js');
const { KeyRing } = await appModule('crypto/keyRing.js');

const OPS = ['seal', 'open', 'wrap', 'unwrap', 'fingerprint', 'kit', 'read-kit', 'blocks', 'seal-name', 'open-name', 'seal-run', 'open-run'];

const hex = (/** @type {Uint8Array} */ bytes) => Buffer.from(bytes).toString('hex');
const bytes = (/** @type {string} */ text) => new Uint8Array(Buffer.from(text, 'hex'));

/** Asserts that `promise` rejects with a SealError of `reason`. */
async function refuses(promise, reason, message) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof SealError, `${message}: ${error}`);
    assert.equal(error.reason, reason, message);
    return true;
  });
}

// MARK: - The corpus

function corpus() {
  const file = path.join(conformanceDir, 'encryption.jsonl');
  assert.ok(existsSync(file), 'conformance file missing: Conformance/encryption.jsonl');
  return readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line));
}

/** The case's key, imported with its bytes (wrap and kit need them). */
const caseKey = (c) => importDataKey(bytes(c.key), c.epoch, { extractable: true });

/** The wrapping key a wrap or unwrap case names. */
async function wrappingKeyOf(c) {
  if (c.link_secret !== undefined) return linkWrappingKey(bytes(c.link_secret));
  if (c.next_key !== undefined) return chainWrappingKey(await importDataKey(bytes(c.next_key), c.next_epoch));
  if (c.wrapping_key !== undefined) {
    return crypto.subtle.importKey('raw', bytes(c.wrapping_key), 'AES-GCM', false, ['encrypt', 'decrypt']);
  }
  throw new Error(`${c.case}: no wrapping key (link_secret, next_key or wrapping_key)`);
}

const keyOutput = (key) => ({ key: hex(key.bytes()), epoch: key.epoch });

/** What the app's block decoder gives for a blocks case (a refusal throws BlockError). */
function runBlocks(c) {
  const events = [], sealed = c.stream === 'sealed' ? [] : null;
  runSteps(blockSteps(bytes(c.blocks), events, sealed));
  return { records: sealed ? sealed.map((r) => hex(storedForm(r))) : events.map((e) => hex(encode(e))) };
}

/** What the app gives for one case, in the corpus's terms (without `refused` for a refusal). */
async function run(c) {
  switch (c.op) {
    case 'seal': {
      const s = await sealRecord(bytes(c.record), await caseKey(c));
      return {
        sealed: { kind: s.kind, device: s.device, seq: String(s.seq), epoch: s.epoch, nonce: hex(s.nonce), ciphertext: hex(s.ciphertext) },
        stored: hex(storedForm(s)),
      };
    }
    case 'blocks':
      return runBlocks(c);
    case 'seal-run': {
      // The run's records (each in the raw form of segment-format.md §3), read strictly into the
      // app's events (decodeRecord).
      const events = c.records.map((record) => decodeRecord(bytes(record)));
      return { stored: hex(storedForm(await sealRun(events, await caseKey(c)))) };
    }
    case 'open-run': {
      const events = await openRun(readStoredForm(bytes(c.stored)), await caseKey(c));
      return { records: events.map((e) => hex(encode(e))) };
    }
    case 'open': {
      const s = c.sealed;
      const sealed = { kind: s.kind, device: s.device, seq: BigInt(s.seq), epoch: s.epoch, nonce: bytes(s.nonce), ciphertext: bytes(s.ciphertext) };
      return { record: hex(await openRecord(sealed, await caseKey(c))) };
    }
    case 'wrap':
      return { wrapped: hex(await wrapKey(await caseKey(c), await wrappingKeyOf(c), c.purpose, bytes(c.nonce))) };
    case 'unwrap':
      return keyOutput(await unwrapKey(bytes(c.wrapped), await wrappingKeyOf(c), c.purpose, { extractable: true }));
    case 'fingerprint':
      return { fingerprint: (await caseKey(c)).fingerprint };
    case 'kit':
      return { kit: kitText(await caseKey(c)) };
    case 'read-kit':
      return keyOutput(await readKit(c.text, { extractable: true }));
    case 'seal-name': {
      const key = await caseKey(c);
      const sealedName = await sealDeviceName(decodeRecord(bytes(c.record)), key);
      return { sealed_name: sealedName, name: await openDeviceName(sealedName, new KeyRing([key])) };
    }
    case 'open-name':
      return { name: await openDeviceName(c.sealed_name, new KeyRing([await caseKey(c)])) };
    default:
      throw new Error(`${c.case}: unknown op ${c.op}`);
  }
}

/** The outputs a case records for its op. */
const OUTPUTS = { seal: ['sealed', 'stored'], 'seal-run': ['stored'], 'open-run': ['records'], blocks: ['records'], open: ['record'], wrap: ['wrapped'], unwrap: ['key', 'epoch'], fingerprint: ['fingerprint'], kit: ['kit'], 'read-kit': ['key', 'epoch'], 'seal-name': ['sealed_name', 'name'], 'open-name': ['name'] };

test('Conformance/encryption.jsonl: every case gives its outputs or its refusal', async () => {
  const cases = corpus();
  for (const op of OPS) assert.ok(cases.some((c) => c.op === op), `the corpus has no case of op ${op}`);
  let checked = 0;
  for (const c of cases) {
    assert.ok(OUTPUTS[c.op], `${c.case}: unknown op ${c.op}`);
    if (c.op === 'blocks' && c.refused !== undefined) {
      // A refused record: Swift's reason, and the record's index in the blocks.
      assert.throws(() => runBlocks(c), (error) => {
        assert.ok(error instanceof BlockError, `${c.case}: ${error}`);
        assert.equal(error.message, c.refused, c.case);
        assert.equal(error.record, c.refused_at, c.case);
        return true;
      });
    } else if (c.op === 'open-name' && c.refused !== undefined) {
      // A text that is not one sealed name of a held epoch opens to nothing (no refusal).
      assert.deepEqual(await run(c), { name: null }, c.case);
    } else if (c.refused !== undefined) {
      await refuses(run(c), c.refused, `${c.case} (${c.op})`);
    } else {
      const expected = {};
      for (const field of OUTPUTS[c.op]) {
        assert.ok(c[field] !== undefined, `${c.case}: no ${field} and no refused`);
        expected[field] = c[field];
      }
      let got;
      try {
        got = await run(c);
      } catch (error) {
        assert.fail(`${c.case} (${c.op}): refused (${error instanceof SealError ? error.reason : error}), expected ${JSON.stringify(expected)}`);
      }
      assert.deepEqual(got, expected, `${c.case} (${c.op})`);
    }
    checked++;
  }
  assert.equal(checked, cases.length);
});

// MARK: - An independent implementation (node:crypto)

const KEY = bytes('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
const DEVICE = '0123456789abcdef';

const subkey = (ikm, label, length = 32) => Buffer.from(hkdfSync('sha256', ikm, Buffer.alloc(0), Buffer.from(label), length));

/**
 * A seal made by hand: AD from `clear`, `plaintext` as given (padded or not), the nonce the
 * content gives unless `nonce` is given.
 */
function handSeal(keyBytes, clear, plaintext, nonce) {
  const ad = associatedData(clear);
  const n = nonce ?? createHmac('sha256', subkey(keyBytes, 'oritsubushi/v1 nonce')).update(ad).update(plaintext).digest().subarray(0, 12);
  const cipher = createCipheriv('aes-256-gcm', subkey(keyBytes, 'oritsubushi/v1 seal'), n);
  cipher.setAAD(ad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { ...clear, nonce: new Uint8Array(n), ciphertext: new Uint8Array(ciphertext) };
}

const padded = (record, length = Math.ceil(record.length / 32) * 32) => {
  const out = new Uint8Array(length);
  out.set(record);
  return out;
};

/** One record of each kind (segment-format.md §3), as the app encodes them. */
const RECORDS = {
  'a station edit without a memo (38 bytes: seals as 64)': encode({ kind: 'station_edit', device: DEVICE, seq: 7n, hlc: 0x0190000000000001n, station: 1130101, compDate: 20240501, memo: null, origin: 'user' }),
  'a station edit with a memo': encode({ kind: 'station_edit', device: DEVICE, seq: 8n, hlc: 0x0190000000000002n, station: 1130102, compDate: null, memo: '乗り換えで通過', origin: 'import' }),
  'a catalogue version': encode({ kind: 'catalog_version', device: DEVICE, seq: 9n, hlc: 0x0190000000000003n, catalogVersion: 20240401 }),
  'a device name': encode({ kind: 'device_name', device: DEVICE, seq: 0n, hlc: 0x0190000000000004n, name: 'iPhone' }),
  'a knowledge mark': encode({ kind: 'knowledge_mark', device: DEVICE, seq: 10n, hlc: 0x0190000000000005n, knowledge: [['00000000000000aa', 3n], ['00000000000000bb', 12n]] }),
};

test('sealing then opening gives the record back, for each record kind, as the hand-made seal', async () => {
  const key = await importDataKey(KEY, 3);
  for (const [name, record] of Object.entries(RECORDS)) {
    const sealed = await sealRecord(record, key);
    const isName = record[0] === 3;
    assert.equal(sealed.kind, isName ? 6 : 5, name);
    assert.equal(sealed.device, DEVICE, name);
    assert.equal(sealed.seq, isName ? 0n : Buffer.from(record).readBigUInt64LE(12), name);
    assert.equal(sealed.epoch, 3, name);
    assert.equal(sealed.ciphertext.length, Math.ceil(record.length / 32) * 32 + 16, name);
    assert.deepEqual(sealed, handSeal(KEY, sealed, padded(record)), `${name}: the bytes of an independent AES-GCM and HMAC`);
    assert.deepEqual(await openRecord(sealed, key), record, name);
  }
  assert.equal((await sealRecord(RECORDS['a station edit without a memo (38 bytes: seals as 64)'], key)).ciphertext.length, 64 + 16);
});

test('sealing is deterministic: the same record and key give the same bytes, another epoch others', async () => {
  const record = RECORDS['a station edit with a memo'];
  const a = await sealRecord(record, await importDataKey(KEY, 1));
  const b = await sealRecord(record, await importDataKey(KEY, 1));
  assert.deepEqual(a, b);
  const c = await sealRecord(record, await importDataKey(KEY, 2));
  assert.notDeepEqual(c.nonce, a.nonce);
});

test('a flipped bit, another key, epoch, device or seq is unauthentic; a wrong length is length', async () => {
  const key = await importDataKey(KEY, 1);
  const sealed = await sealRecord(RECORDS['a catalogue version'], key);
  for (let bit = 0; bit < sealed.ciphertext.length * 8; bit += 37) {
    const ciphertext = sealed.ciphertext.slice();
    ciphertext[bit >> 3] ^= 1 << (bit & 7);
    await refuses(openRecord({ ...sealed, ciphertext }, key), 'unauthentic', `bit ${bit}`);
  }
  const nonce = sealed.nonce.slice();
  nonce[0] ^= 0x80;
  await refuses(openRecord({ ...sealed, nonce }, key), 'unauthentic', 'a flipped nonce bit');
  await refuses(openRecord(sealed, await randomDataKey(1)), 'unauthentic', 'another key');
  await refuses(openRecord({ ...sealed, epoch: 2 }, key), 'unauthentic', 'another epoch');
  await refuses(openRecord({ ...sealed, device: '0123456789abcdee' }, key), 'unauthentic', 'another device');
  await refuses(openRecord({ ...sealed, seq: 10n }, key), 'unauthentic', 'another seq');
  await refuses(openRecord({ ...sealed, kind: 6 }, key), 'unauthentic', 'another kind');
  await refuses(openRecord({ ...sealed, nonce: sealed.nonce.subarray(0, 11) }, key), 'length', 'a short nonce');
  await refuses(openRecord({ ...sealed, ciphertext: sealed.ciphertext.subarray(0, 47) }, key), 'length', 'a cut ciphertext');
  await refuses(openRecord({ ...sealed, ciphertext: sealed.ciphertext.subarray(0, 16) }, key), 'length', 'a tag alone');
});

test('only the one sealed form opens: a hand-made seal with another nonce, padding, kind or identity is refused', async () => {
  const key = await importDataKey(KEY, 1);
  const edit = RECORDS['a station edit without a memo (38 bytes: seals as 64)'];
  const clear = { kind: 5, device: DEVICE, seq: 7n, epoch: 1 };
  assert.deepEqual(await openRecord(handSeal(KEY, clear, padded(edit)), key), edit, 'the hand-made seal itself opens');
  await refuses(openRecord(handSeal(KEY, clear, padded(edit), new Uint8Array(12)), key), 'noncanonical', 'another nonce');
  const dirty = padded(edit);
  dirty[63] = 1;
  await refuses(openRecord(handSeal(KEY, clear, dirty), key), 'padding', 'a non-zero padding byte');
  const name = RECORDS['a device name'];
  await refuses(openRecord(handSeal(KEY, { ...clear, seq: 0n }, padded(name)), key), 'kind', 'a sealed event holding a name');
  await refuses(openRecord(handSeal(KEY, { ...clear, kind: 6 }, padded(edit)), key), 'kind', 'a sealed name holding an event');
  await refuses(openRecord(handSeal(KEY, { ...clear, seq: 8n }, padded(edit)), key), 'identity', 'another seq');
  await refuses(openRecord(handSeal(KEY, { ...clear, device: '0123456789abcdee' }, padded(edit)), key), 'identity', 'another device');
  await refuses(openRecord(handSeal(KEY, { ...clear, kind: 6, seq: 1n }, padded(name)), key), 'identity', 'a name with a seq');
  const runsPast = padded(edit);
  runsPast[2] = 61; // 4 + 61: the record runs one byte past the 64 of the plaintext
  await refuses(openRecord(handSeal(KEY, clear, runsPast), key), 'padding', 'a record running past the plaintext');
  const unknown = padded(edit);
  unknown[0] = 7;
  await refuses(openRecord(handSeal(KEY, clear, unknown), key), 'record', 'an unknown record kind');
  await refuses(sealRecord(edit.subarray(0, 37), key), 'record', 'sealing a cut record');
  await refuses(sealRecord(padded(edit), key), 'record', 'sealing a record followed by bytes');
});

/** Crockford base32 written another way: a string of bits, 5 at a time. */
function bitsBase32(data) {
  const bits = [...data].map((b) => b.toString(2).padStart(8, '0')).join('');
  const groups = bits.padEnd(Math.ceil(bits.length / 5) * 5, '0').match(/.{5}/g) ?? [];
  return groups.map((g) => '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[parseInt(g, 2)]).join('');
}

test("Crockford base32: encoding by bits, the reader's lenient characters, decoding back", () => {
  assert.equal(encodeCrockford(new Uint8Array(0)), '');
  assert.equal(encodeCrockford(Uint8Array.of(0xff)), 'ZW');
  for (let n = 1; n <= 41; n++) {
    const data = new Uint8Array(n).map((_, i) => (i * 151 + n * 29) & 0xff);
    const text = encodeCrockford(data);
    assert.equal(text, bitsBase32(data), `${n} bytes`);
    assert.deepEqual(decodeCrockford([...text].map(crockfordValue), n), data, `${n} bytes back`);
  }
  assert.deepEqual(['o', 'O', 'i', 'I', 'l', 'L', 'z', 'a', '0', 'V'].map(crockfordValue), [0, 0, 1, 1, 1, 1, 31, 10, 0, 27]);
  assert.deepEqual(['U', 'u', '*', ' ', 'é', '０'].map(crockfordValue), [null, null, null, null, null, null]);
});

test('the fingerprint is the 5-byte HKDF subkey in Crockford base32, two groups of 4; the subkeys are not extractable', async () => {
  const key = await importDataKey(KEY, 1);
  const digits = bitsBase32(subkey(KEY, 'oritsubushi/v1 fingerprint', 5));
  assert.equal(key.fingerprint, `${digits.slice(0, 4)}-${digits.slice(4)}`);
  assert.match(key.fingerprint, /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  assert.equal((await importDataKey(KEY, 2)).fingerprint, key.fingerprint, 'the fingerprint is of the bytes alone');
  assert.notEqual((await randomDataKey(1)).fingerprint, key.fingerprint);
  for (const k of [key.sealKey, key.nonceKey, key.chainKey]) assert.equal(k.extractable, false);
  assert.equal(key.extractable, false);
  assert.throws(() => key.bytes(), TypeError);
  const kept = await importDataKey(KEY, 1, { extractable: true });
  assert.deepEqual(kept.bytes(), KEY);
  await assert.rejects(importDataKey(KEY.subarray(1), 1), RangeError);
  await assert.rejects(importDataKey(KEY, 2 ** 32), RangeError);
});

test('a wrapped key is 64 bytes, opens under its key and purpose only, as an independent AES-GCM reads it', async () => {
  const key = await importDataKey(KEY, 4, { extractable: true });
  const secret = new Uint8Array(32).fill(7);
  const next = await importDataKey(bytes('ff'.repeat(32)), 5);
  const sources = { link: await linkWrappingKey(secret), chain: chainWrappingKey(next), device: await newDeviceWrappingKey() };
  const nonce = bytes('0102030405060708090a0b0c');
  for (const [purpose, wrappingKey] of Object.entries(sources)) {
    const wrapped = await wrapKey(key, wrappingKey, purpose);
    assert.equal(wrapped.length, 64, purpose);
    const back = await unwrapKey(wrapped, wrappingKey, purpose, { extractable: true });
    assert.deepEqual([back.bytes(), back.epoch], [KEY, 4], purpose);
    assert.equal((await unwrapKey(wrapped, wrappingKey, purpose)).extractable, false, purpose);
    assert.notDeepEqual(await wrapKey(key, wrappingKey, purpose), wrapped, `${purpose}: a random nonce each time`);
    assert.deepEqual(await wrapKey(key, wrappingKey, purpose, nonce), await wrapKey(key, wrappingKey, purpose, nonce), `${purpose}: a given nonce`);
    for (const other of Object.keys(sources).filter((p) => p !== purpose)) {
      await refuses(unwrapKey(wrapped, wrappingKey, other), 'unauthentic', `${purpose} read as ${other}`);
      await refuses(unwrapKey(wrapped, sources[other], purpose), 'unauthentic', `${purpose} under ${other}'s key`);
    }
    const flipped = wrapped.slice();
    flipped[20] ^= 4;
    await refuses(unwrapKey(flipped, wrappingKey, purpose), 'unauthentic', `${purpose}: a flipped bit`);
    await refuses(unwrapKey(wrapped.subarray(0, 63), wrappingKey, purpose), 'length', `${purpose}: 63 bytes`);
    await refuses(unwrapKey(new Uint8Array(65), wrappingKey, purpose), 'length', `${purpose}: 65 bytes`);
  }
  // The link's and the chain's wrapping keys, derived and sealed independently.
  for (const [purpose, w, code] of [['link', subkey(secret, 'oritsubushi/v1 link'), 1], ['chain', subkey(bytes('ff'.repeat(32)), 'oritsubushi/v1 chain'), 2]]) {
    const cipher = createCipheriv('aes-256-gcm', w, nonce);
    cipher.setAAD(Buffer.concat([Buffer.from('ORTSBWRAP1'), Buffer.of(code)]));
    const body = Buffer.concat([Buffer.of(4, 0, 0, 0), KEY]);
    const expected = Buffer.concat([nonce, cipher.update(body), cipher.final(), cipher.getAuthTag()]);
    assert.equal(hex(await wrapKey(key, sources[purpose], purpose, nonce)), expected.toString('hex'), purpose);
  }
  await assert.rejects(wrapKey(await importDataKey(KEY, 4), sources.device, 'device'), TypeError, 'a key imported without its bytes');
});

test('the recovery kit: 16 words of the key, epoch and checksum; read leniently; a changed character is a checksum', async () => {
  const key = await importDataKey(KEY, 0x01020304, { extractable: true });
  const text = kitText(key);
  const body = Buffer.concat([KEY, Buffer.of(4, 3, 2, 1)]);
  const expected = bitsBase32(Buffer.concat([body, createHash('sha256').update(body).digest().subarray(0, 4)]));
  assert.equal(text, expected.match(/.{4}/g).join(' '));
  assert.equal(kitWords(text).length, 16);
  const read = async (t) => { const k = await readKit(t, { extractable: true }); return [hex(k.bytes()), k.epoch]; };
  assert.deepEqual(await read(text), [hex(KEY), 0x01020304]);
  const characters = text.replaceAll(' ', '');
  const lenient = characters.toLowerCase().replaceAll('0', 'o').replaceAll('1', 'l').match(/.{4}/g).join('-').replace(/-/g, (m, at) => (at % 3 ? '\n' : m));
  assert.deepEqual(await read(lenient + '\t'), [hex(KEY), 0x01020304], 'lower case, O, L, hyphens, newlines and tabs');
  assert.deepEqual(await read(characters.replaceAll('1', 'I')), [hex(KEY), 0x01020304], 'I for 1');
  for (let at = 0; at < characters.length; at++) {
    const changed = characters[at] === 'Z' ? 'Y' : 'Z';
    await refuses(readKit(characters.slice(0, at) + changed + characters.slice(at + 1)), 'checksum', `character ${at} changed`);
  }
  await refuses(readKit(characters.slice(0, 63)), 'length', '63 characters');
  await refuses(readKit(characters + '0'), 'length', '65 characters');
  await refuses(readKit(characters.slice(0, 10) + 'U' + characters.slice(11)), 'character', 'a U');
  await refuses(readKit(characters.slice(0, 10) + '.' + characters.slice(20)), 'character', 'a character outside the alphabet before a wrong length');
  assert.deepEqual(await read(text.replaceAll(' ', '\r\n')), [hex(KEY), 0x01020304], 'CRLF line ends, as a kit pasted from a Windows file');
  await refuses(readKit('Z'.repeat(64)), 'checksum', 'well formed, no checksum');
});

test('readSealedFrames: the corpus\'s sealed blocks in two frames read back as their records, a plaintext one is refused with its index', async () => {
  const { readSealedFrames, FramesError } = await appModule('recordFrames.js');
  const { writeFrame } = await appModule('lz4.js');
  const cases = corpus().filter((c) => c.op === 'blocks');
  const all = cases.find((c) => c.records !== undefined && c.stream === 'sealed');
  const mixed = cases.find((c) => c.refused?.startsWith('a plaintext record'));
  assert.ok(all && mixed, 'the corpus has sealed blocks and a plaintext record among sealed ones');
  const first = writeFrame(bytes(all.blocks));
  const frames = new Uint8Array([...first, ...writeFrame(bytes(all.blocks))]);
  const { sealed, counts } = readSealedFrames(frames);
  assert.deepEqual(counts, [all.records.length, all.records.length]);
  assert.deepEqual(sealed.map((r) => hex(storedForm(r))), [...all.records, ...all.records]);
  const refused = new Uint8Array([...first, ...writeFrame(bytes(mixed.blocks))]);
  assert.throws(() => readSealedFrames(refused), (error) => {
    assert.ok(error instanceof FramesError, String(error));
    assert.equal(error.offset, first.length);
    assert.equal(error.record, all.records.length + mixed.refused_at);
    assert.equal(error.reason, mixed.refused);
    return true;
  });
});

test('encodeSealedBlocks lays out the corpus\'s sealed records byte for byte as the Swift writer did; writeSealedFrames reads back', async () => {
  const { encodeSealedBlocks } = await appModule('blockEncoder.js');
  const { readSealedFrames, writeSealedFrames } = await appModule('recordFrames.js');
  const cases = corpus().filter((c) => c.op === 'blocks' && c.records !== undefined && c.stream === 'sealed');
  assert.ok(cases.some((c) => c.records.some((r) => r.startsWith('07'))), 'the corpus has sealed blocks with a run');
  for (const c of cases) {
    const records = [];
    runSteps(blockSteps(bytes(c.blocks), [], records));
    assert.equal(records.length, c.records.length, c.case);
    assert.equal(hex(encodeSealedBlocks(records)), c.blocks, c.case);
  }
  const sealed = [];
  runSteps(blockSteps(bytes(cases[0].blocks), [], sealed));
  // 300 devices (two blocks), repeated past one frame's content limit (several frames).
  const many = [];
  for (let i = 0; many.length < 20_000; i++) {
    const r = sealed[i % sealed.length];
    many.push({ ...r, device: (BigInt(i % 300) + 1n).toString(16).padStart(16, '0'), seq: BigInt(i + 1) * (r.kind === 5 ? 1n : 0n) });
  }
  const frames = writeSealedFrames(many);
  const read = readSealedFrames(frames);
  assert.ok(read.counts.length > 1, `${read.counts.length} frame(s)`);
  assert.deepEqual(read.sealed.map((r) => hex(storedForm(r))), many.map((r) => hex(storedForm(r))));
});
