import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appModule, repo } from './support/paths.mjs';
import { decodeRawStream } from './support/rawRecords.mjs';
import { createHash } from 'node:crypto';

const records = await appModule('records.js');
const { sha256, toHex } = await appModule('sha256.js');
const { parse, stringify } = await appModule('bigjson.js');
const { encode, digest, fromWire, toWire, toStored, fromStored, RecordError } = records;

test('SHA-256 matches the standard test vectors (EventDigestTests)', () => {
  const cases = [
    ['', 'e3b0c44298fc1c149afbf4c8996fb924'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039'],
  ];
  for (const [input, expected] of cases) assert.equal(toHex(sha256(new TextEncoder().encode(input))).slice(0, 32), expected);
  // Lengths around the 55/56/64-byte padding boundaries, against node's own SHA-256.
  for (const n of [55, 56, 57, 63, 64, 65, 119, 120, 1000]) {
    const bytes = new Uint8Array(n).map((_, i) => (i * 7 + 3) & 0xff);
    assert.equal(toHex(sha256(bytes)), createHash('sha256').update(bytes).digest('hex'), `length ${n}`);
  }
});

test('the canonical encoding is byte for byte the Swift golden record stream', () => {
  const buf = readFileSync(path.join(repo, 'Tests/LedgerCoreTests/Fixtures/golden-v1.records'));
  const decoded = decodeRawStream(buf);
  assert.ok(decoded.length >= 9);
  for (const { event, bytes } of decoded) {
    assert.deepEqual(Buffer.from(encode(event)), bytes, `${event.kind} ${event.device}#${event.seq}`);
    // Through the wire form and back gives the same bytes.
    const again = fromWire(parse(stringify(toWire(event))));
    assert.deepEqual(Buffer.from(encode(again)), bytes);
    assert.deepEqual(Buffer.from(encode(fromStored(toStored(event)))), bytes);
  }
});

test('a knowledge mark encodes its entries ascending', () => {
  const mark = fromWire({ kind: 'knowledge_mark', device: '00000000000000b2', seq: 3, hlc: '100',
    knowledge: { '00000000000000c3': 2, '00000000000000a1': 5 } });
  const bytes = Buffer.from(encode(mark));
  assert.equal(bytes.length, 4 + 28 + 32);
  assert.equal(bytes.readUInt32LE(28), 2);
  assert.equal(bytes.readBigUInt64LE(32), 0xa1n);
  assert.equal(bytes.readBigUInt64LE(40), 5n);
  assert.equal(bytes.readBigUInt64LE(48), 0xc3n);
  assert.equal(decodeRawStream(bytes)[0].event.knowledge.length, 2);
});

test('hlcs and seqs above 2^53 survive the wire, the store and the encoding', () => {
  const wire = { kind: 'station_edit', device: 'ffffffffffffffff', seq: 9007199254740993n, hlc: '17999999999999999999',
    station: 4294967295, comp_date: 20130901, memo: '', origin: 'import' };
  const e = fromWire(parse(stringify(wire)));
  assert.equal(e.hlc, 17999999999999999999n);
  assert.equal(e.seq, 9007199254740993n);
  const bytes = Buffer.from(encode(e));
  assert.equal(bytes.readBigUInt64LE(12), 9007199254740993n);
  assert.equal(bytes.readBigUInt64LE(20), 17999999999999999999n);
  assert.equal(bytes[1], 3, 'an empty memo still sets the memo flag');
  assert.equal(stringify(toWire(e)), '{"kind":"station_edit","device":"ffffffffffffffff","hlc":"17999999999999999999","seq":9007199254740993,"station":4294967295,"comp_date":20130901,"memo":"","origin":"import"}');
  assert.equal(fromStored(toStored(e)).seq, 9007199254740993n);
  assert.match(digest(e), /^[0-9a-f]{32}$/);
});

test('wire records are validated as the server validates them', () => {
  const good = { kind: 'station_edit', device: '0123456789abcdef', seq: 1, hlc: '1', station: 1, comp_date: 1 };
  assert.equal(fromWire(good).origin, 'user');
  assert.equal(fromWire({ ...good, comp_date: null, memo: 'x' }).compDate, null);
  const bad = [
    null, [], 'x', { ...good, kind: 'other' },
    { ...good, device: '0000000000000000' }, { ...good, device: '0123456789ABCDEF' }, { ...good, device: 'abc' },
    { ...good, hlc: 1 }, { ...good, hlc: '01' }, { ...good, hlc: '18000000000000000000' },
    { ...good, seq: 0 }, { ...good, seq: -1 }, { ...good, seq: 1.5 }, { ...good, seq: '1' }, { ...good, seq: 18446744073709551616n },
    { ...good, station: 0 }, { ...good, station: 4294967296 }, { ...good, station: undefined },
    { ...good, comp_date: 20130230 }, { ...good, comp_date: 2 }, { ...good, comp_date: 18991231 }, { ...good, comp_date: 20131300 },
    { ...good, comp_date: null }, { ...good, comp_date: null, memo: null },
    { ...good, memo: 'あ'.repeat(1366) }, { ...good, memo: 5 }, { ...good, memo: '\ud800' },
    { ...good, origin: 'other' }, { ...good, name: 5 }, { ...good, knowledge: [] },
    { kind: 'device_name', device: '0123456789abcdef', hlc: '1', name: '' },
    { kind: 'device_name', device: '0123456789abcdef', hlc: '1', name: 'x'.repeat(256) },
    { kind: 'catalog_version', device: '0123456789abcdef', hlc: '1', seq: 1 },
    { kind: 'knowledge_mark', device: '0123456789abcdef', hlc: '1', seq: 1, knowledge: { '0123456789abcdef': 0 } },
    { kind: 'knowledge_mark', device: '0123456789abcdef', hlc: '1', seq: 1, knowledge: { nothex: 1 } },
  ];
  for (const b of bad) assert.throws(() => fromWire(b), RecordError, JSON.stringify(b, (k, v) => (typeof v === 'bigint' ? `${v}n` : v)));
  // 4096 bytes of memo is the limit, counted in UTF-8.
  assert.equal(fromWire({ ...good, memo: 'あ'.repeat(1365) + 'x' }).memo.length, 1366);
  // A device name needs no seq; fields of other kinds are ignored but typed.
  assert.equal(fromWire({ kind: 'device_name', device: '0123456789abcdef', hlc: '5', name: 'phone', station: 3 }).name, 'phone');
});
