import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appModule, conformanceDir, repo } from './support/paths.mjs';

const { readFrame, writeFrame, decodeBlock, LZ4Error } = await appModule('lz4.js');
const { readFrames, writeFrames, FramesError } = await appModule('recordFrames.js');
const { xxhash32 } = await appModule('xxhash32.js');
const { toWire, encode } = await appModule('records.js');
const { parse, stringify } = await appModule('bigjson.js');
const { decodeRawStream } = await import('./support/rawRecords.mjs');

const corpus = readFileSync(path.join(conformanceDir, 'app-chunks.jsonl'), 'utf8').trim().split('\n').map((line) => parse(line));
const bytesOf = (value) => new Uint8Array(Buffer.from(value.frames, 'base64'));

/** Sorted keys, as the corpus holds its records. */
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])]));
  return value;
}

test('xxHash32 matches the reference vectors', () => {
  const enc = new TextEncoder();
  assert.equal(xxhash32(new Uint8Array(0)), 0x02cc5d05);
  assert.equal(xxhash32(enc.encode('abc')), 0x32d153ff);
  assert.equal(xxhash32(enc.encode('Nobody inspects the spammish repetition')), 0xe2293b2f);
});

test('app-chunks.jsonl: every accepted case decodes to its records, every refused one is refused where it says', () => {
  assert.ok(corpus.length >= 20);
  for (const c of corpus) {
    if (c.refused) {
      assert.throws(() => readFrames(bytesOf(c)), (error) => {
        assert.ok(error instanceof FramesError, `${c.case}: ${error}`);
        assert.equal(error.offset, c.refused.offset, c.case);
        assert.equal(error.record, c.refused.record, c.case);
        return true;
      });
    } else {
      const { events } = readFrames(bytesOf(c));
      assert.equal(stringify(events.map((e) => sorted(toWire(e)))), stringify(c.records), c.case);
    }
  }
});

test('the golden-v2 frames decode to the golden raw record stream byte for byte', () => {
  const golden = readFileSync(path.join(repo, 'Tests/LedgerCoreTests/Fixtures/golden-v1.records'));
  const c = corpus.find((x) => x.case.startsWith('the golden-v2 segment'));
  const raw = Buffer.concat(readFrames(bytesOf(c)).events.map((e) => Buffer.from(encode(e))));
  assert.deepEqual(raw.subarray(0, golden.length), golden);
  assert.equal(decodeRawStream(raw).length, 10);
});

test('frames the app writes read back as the same records, and liblz4 frames written again likewise', () => {
  for (const c of corpus.filter((x) => !x.refused)) {
    const { events } = readFrames(bytesOf(c));
    const again = readFrames(writeFrames(events)).events;
    assert.equal(stringify(again.map(toWire)), stringify(events.map(toWire)), c.case);
  }
  const frame = writeFrame(new Uint8Array([1, 2, 3]));
  assert.deepEqual([...readFrame(frame).content], [1, 2, 3]);
  assert.equal(readFrame(writeFrame(new Uint8Array(0))).content.length, 0);
});

test('a frame cut anywhere, or with any byte changed, is refused with a FramesError and never read past its end', () => {
  const c = corpus.find((x) => x.case.startsWith('a generated ledger'));
  const whole = bytesOf(c).subarray(0, 4000);
  const first = readFrame(bytesOf(c)).length;
  const frame = bytesOf(c).subarray(0, Math.min(first, 4000));
  for (let n = 1; n < frame.length; n += n < 64 ? 1 : 37) {
    assert.throws(() => readFrames(frame.slice(0, n)), FramesError, `cut at ${n}`);
  }
  for (let i = 0; i < whole.length; i += 7) {
    const b = bytesOf(c);
    b[i] ^= 1 << (i % 8);
    try { readFrames(b); } catch (error) { assert.ok(error instanceof FramesError, `byte ${i}: ${error}`); }
  }
});

test('LZ4 blocks: a zero or too distant match, literals past the block and output past its bound throw LZ4Error', () => {
  const out = new Uint8Array(64);
  // 1 literal 'a', then a match of 4 at distance 1: 'aaaaa'.
  assert.equal(decodeBlock(new Uint8Array([0x10, 0x61, 0x01, 0x00, 0x00]), 0, 5, out, 0, 64, 0), 5);
  assert.equal(String.fromCharCode(...out.subarray(0, 5)), 'aaaaa');
  const cases = [
    [[0x10, 0x61, 0x00, 0x00], 'a zero distance'],
    [[0x10, 0x61, 0x02, 0x00], 'a distance before the output'],
    [[0x50, 0x61, 0x62], 'literals past the block'],
    [[0xf0, 0xff], 'a literal length cut short'],
    [[0x10, 0x61, 0x01], 'a distance cut short'],
    [[0x1f, 0x61, 0x01, 0x00, 0xff, 0xff, 0x10], 'a match past the output bound'],
    [[], 'an empty block'],
  ];
  for (const [bytes, what] of cases) {
    const src = new Uint8Array(bytes);
    assert.throws(() => decodeBlock(src, 0, src.length, new Uint8Array(64), 0, 64, 0), LZ4Error, what);
  }
  assert.throws(() => decodeBlock(new Uint8Array([0x50, 1, 2, 3, 4, 5]), 0, 6, new Uint8Array(4), 0, 4, 0), LZ4Error, 'literals past the output bound');
});
