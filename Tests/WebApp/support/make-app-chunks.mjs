// Writes Conformance/app-chunks.jsonl (Schemas/conformance.md): record frames as the app stores
// them in its chunks (Schemas/phone-app.md "The stored form"), each with the records they hold or
// the refusal (the byte where the faulty frame starts, and the index of the record §3 refuses,
// when the frame is sound). Both the node tests and Tests/ConformanceTests/AppChunksConformanceTests
// decode the same bytes. Frames written by liblz4 (the golden-v2 segment's, and those of a ledger
// `oritsubushi generate --events 500 --devices 3 --seed 7` made) and frames written by the app.
//
//   node Tests/WebApp/support/make-app-chunks.mjs LEDGER_DIR
//
// LEDGER_DIR: the generated ledger; without it the line of those frames is kept as committed.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appModule, repo } from './paths.mjs';

const { readFrame, writeFrame } = await appModule('lz4.js');
const { readFrames, writeFrames } = await appModule('recordFrames.js');
const { encodeBlocks } = await appModule('blockEncoder.js');
const { toWire } = await appModule('records.js');
const { stringify, parse } = await appModule('bigjson.js');

const output = path.join(repo, 'Conformance/app-chunks.jsonl');

/** The data frames of a segment file: from its 52-byte header to its footer (or end). */
function segmentFrames(file) {
  const seg = new Uint8Array(readFileSync(file));
  const view = new DataView(seg.buffer, seg.byteOffset, seg.length);
  let at = 52;
  while (at + 4 <= seg.length && view.getUint32(at, true) === 0x184d2204) at += readFrame(seg, at).length;
  return seg.slice(52, at);
}

/** Sorted keys, as the Swift corpus writes its lines. */
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])]));
  return value;
}

const b64 = (bytes) => Buffer.from(bytes).toString('base64');
const lines = [];
/** A case the reader takes: its records, as the app's reader finds them. */
function accepted(name, frames) {
  const { events } = readFrames(frames);
  lines.push(stringify(sorted({ case: name, frames: b64(frames), records: events.map(toWire) })));
}
/** A case the reader refuses, with the refusal written by hand (the app's reader must agree). */
function refused(name, frames, offset, record = null) {
  lines.push(stringify(sorted({ case: name, frames: b64(frames), refused: { offset, record } })));
}

// MARK: - Frames of liblz4

accepted('the golden-v2 segment (liblz4)', segmentFrames(path.join(repo, 'Tests/LedgerCoreTests/Fixtures/golden-v2/segments/00000001.seg')));
const ledger = process.argv[2];
if (ledger) {
  accepted('a generated ledger, 500 events (liblz4)', segmentFrames(path.join(ledger, 'segments/00000001.seg')));
} else if (existsSync(output)) {
  const kept = readFileSync(output, 'utf8').split('\n').find((l) => l.includes('"a generated ledger, 500 events (liblz4)"'));
  if (kept) lines.push(kept);
}

// MARK: - Frames of the app

const D = ['00000000000000a1', '0020000000000001', '8000000000000000', 'fffffffffffffffe'];
const T = 1_700_000_000_000;
const hlc = (i, counter = 0) => (BigInt(T + i * 61_000) << 16n) | BigInt(counter);
const memos = ['', '始発で', '乗り換え\n改札外', 'ＪＲ ｶﾀｶﾅ 🚃', 'あ'.repeat(1365), 'a"quoted" \\ back\tslash'];
const events = [];
D.forEach((device, d) => {
  events.push({ kind: 'device_name', device, seq: 0n, hlc: hlc(d), name: ['iPhone Safari', 'ノートPC', 'x', 'Pixel Chrome'][d] });
  for (let s = 1; s <= 6; s++) {
    events.push({ kind: 'station_edit', device, seq: BigInt(s), hlc: hlc(10 * d + s, s % 3 === 0 ? 65_535 : 0), station: [1_130_105, 4_294_967_289, 1, 2_100_402][d] + s,
      compDate: s % 2 ? [0, 1, 19_900_000, 20_130_900, 20_130_901, 20_131_231][s - 1] : null, memo: s % 2 ? null : memos[(s + d) % memos.length], origin: ['user', 'import', 'catalog'][s % 3] });
  }
  events.push({ kind: 'catalog_version', device, seq: 7n, hlc: hlc(50 + d), catalogVersion: 4_294_967_295 });
  events.push({ kind: 'knowledge_mark', device, seq: 8n, hlc: hlc(60 + d), knowledge: D.filter((x) => x !== device).map((x, i) => [x, BigInt(i * 1000 + 1)]) });
});
events.push({ kind: 'station_edit', device: D[0], seq: 9_007_199_254_740_993n, hlc: 17_999_999_999_999_999_999n, station: 1, compDate: 0, memo: 'x'.repeat(4096), origin: 'user' });
events.push({ kind: 'knowledge_mark', device: D[1], seq: 77n, hlc: hlc(99), knowledge: [] });
accepted('every kind of record, 64-bit ids and seqs, the longest memo (the app)', writeFrames(events));
const many = Array.from({ length: 300 }, (_, i) => ({ kind: 'station_edit', device: (0x1000 + i).toString(16).padStart(16, '0'), seq: 1n, hlc: hlc(i), station: 1_130_105 + i, compDate: 1, memo: null, origin: 'user' }));
accepted('300 devices: two blocks in one frame (the app)', writeFrames(many));
const two = writeFrames(events.slice(0, 10));
const twoFrames = new Uint8Array([...two, ...writeFrames(events.slice(10, 20))]);
accepted('two frames (the app)', twoFrames);
accepted('no frames at all', new Uint8Array(0));

// MARK: - Refused

const good = writeFrames(events.slice(0, 5));
refused('a frame cut off in its last checksum', good.slice(0, good.length - 1), 0);
refused('a frame cut off in its header', good.slice(0, 10), 0);
refused('the second frame cut off', twoFrames.slice(0, twoFrames.length - 3), two.length);
const flip = (bytes, at) => { const b = bytes.slice(); b[at] ^= 0x40; return b; };
refused('a flipped header checksum', flip(good, 14), 0);
refused('a flipped byte inside the block', flip(good, 40), 0);
refused('a flipped content checksum', flip(good, good.length - 2), 0);
refused('a second frame with a flipped byte', flip(twoFrames, two.length + 30), two.length);
refused('a skippable frame', new Uint8Array([0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4]), 0);
refused('bytes after the last frame', new Uint8Array([...good, 0, 0, 0, 0]), good.length);
{
  const noSum = good.slice();
  noSum[4] &= ~0x04;
  refused('a frame without its content checksum flag', noSum, 0);
}
/** A frame (checksums right) holding blocks altered by `change`. */
const altered = (list, change) => { const blocks = encodeBlocks(list); change(blocks, new DataView(blocks.buffer)); return writeFrame(blocks); };
refused('a block that is not ORB2', altered(events.slice(0, 3), (b) => { b[3] = 0x31; }), 0);
refused('a block whose records are longer than it declares', altered(events.slice(0, 3), (b, v) => v.setUint32(8, v.getUint32(8, true) - 1, true)), 0);
refused('a block whose records are shorter than it declares', altered(events.slice(0, 3), (b, v) => v.setUint32(8, v.getUint32(8, true) + 1, true)), 0);
refused('a device code outside the table', altered(events.slice(0, 3), (b) => { b[44 + 8 + 6] = 1; }), 0);
refused('an unknown record kind', altered(events.slice(0, 3), (b) => { b[44 + 8 + 1] = 9; }), 0);
refused('a reserved field that is not 0', altered(events.slice(0, 3), (b) => { b[14] = 1; }), 0);
refused('a seq column with a byte no record uses', altered(events.slice(0, 3), (b, v) => v.setUint32(16, v.getUint32(16, true) + 1, true)), 0);
const edits = events.filter((e) => e.kind === 'station_edit' && e.device === D[0]).slice(0, 3);
refused('a station edit with an unknown flag (§3 refuses the record)', altered(edits, (b) => { b[44 + 8 + 3 + 1] |= 4; }), 0, 1);
const dated = [{ ...edits[0], compDate: 20_130_901 }, { ...edits[1], compDate: 20_130_901, memo: null }];
{
  // The second record's date difference is the date column's last byte, 0 (zig-zag 0); 62 (+31) makes it 20130932.
  const blocks = encodeBlocks(dated), v = new DataView(blocks.buffer);
  const dateAt = 44 + 8 + 3 * 2 + v.getUint32(16, true) + v.getUint32(20, true) + v.getUint32(24, true) + v.getUint32(28, true);
  blocks[dateAt + v.getUint32(32, true) - 1] = 62;
  refused('an invalid comp_date code (§3 refuses the second record)', writeFrame(blocks), 0, 1);
}
{
  const memo = [{ ...edits[0], compDate: null, memo: 'ab' }];
  const blocks = encodeBlocks(memo);
  blocks[blocks.length - 1] = 0xff;
  refused('a memo that is not UTF-8', writeFrame(blocks), 0, 0);
}
{
  const mark = [{ kind: 'knowledge_mark', device: D[0], seq: 1n, hlc: hlc(1), knowledge: [[D[2], 1n], [D[1], 1n]] }];
  refused('knowledge entries out of order', writeFrame(encodeBlocks(mark)), 0, 0);
}

for (const line of lines) {
  const value = parse(line);
  if (value.refused) {
    try { readFrames(new Uint8Array(Buffer.from(value.frames, 'base64'))); } catch (error) {
      if (error.offset !== value.refused.offset || error.record !== value.refused.record) throw new Error(`${value.case}: the app refuses at ${error.offset}/${error.record}: ${error.message}`);
      continue;
    }
    throw new Error(`${value.case}: the app takes it`);
  }
}
writeFileSync(output, lines.join('\n') + '\n');
console.log(`wrote ${lines.length} cases to ${path.relative(repo, output)}`);
