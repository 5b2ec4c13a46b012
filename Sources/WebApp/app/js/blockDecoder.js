// The columnar blocks of a format-2 data frame (Schemas/segment-format.md §2a) decoded straight
// into the app's events, refusing exactly what the Swift reader refuses: the block's structure
// (ColumnarBlockDecoder) and then each record as the raw record stream's reader checks it (§3,
// RecordStream). No raw record stream is built: each record's fields come from its columns.

import { isValidCode } from './dates.js';
import { NONCE_BYTES, SEALED_EVENT, SEALED_NAME, SEALED_RUN, fixedBody, sealedFault } from './sealedLayout.js';

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./crypto/recordSealer.js').SealedRecord} SealedRecord */

const MAX_DECODED = 4 << 20;
const TWO_53 = 2 ** 53;
const MASK_64 = (1n << 64n) - 1n;
const ORIGINS = /** @type {const} */ (['user', 'import', 'catalog']);
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A malformed block or record; `offset` is the block's offset in its frame's content. */
export class BlockError extends Error {
  /** @param {string} message @param {number} offset @param {number | null} [record] index in the frame */
  constructor(message, offset, record = null) {
    super(message);
    this.name = 'BlockError';
    this.offset = offset;
    this.record = record;
  }
}

/** Why a column or record is refused, before the block's offset is known. */
class Refusal extends Error {
  /** @param {string} message @param {boolean} [record] the record (§3), not the block, is at fault */
  constructor(message, record = false) {
    super(message);
    this.isRecord = record;
  }
}

/** One column: a cursor over c[p ..< end]. */
class Column {
  /** @param {Uint8Array} c @param {number} p @param {number} end @param {string} name */
  constructor(c, p, end, name) {
    this.c = c;
    this.p = p;
    this.end = end;
    this.name = name;
  }

  byte() {
    if (this.p >= this.end) throw new Refusal(`the ${this.name} column is cut short`);
    return this.c[this.p++];
  }

  /** An unsigned LEB128 varint: a Number below 2^53, else a BigInt. */
  varint() {
    const c = this.c;
    let p = this.p;
    if (p < this.end && c[p] < 0x80) { this.p = p + 1; return c[p]; }
    let value = 0, scale = 1, shift = 0;
    for (;;) {
      if (p >= this.end) throw new Refusal(`a varint in the ${this.name} column is cut short`);
      const b = c[p++];
      if (shift >= 63 && b > 1) throw new Refusal(`a varint in the ${this.name} column overflows 64 bits`);
      if (shift >= 49) { this.p = p - 1; return this.bigVarint(value, shift); }
      value += (b & 0x7f) * scale;
      if (b < 0x80) { this.p = p; return value; }
      scale *= 128;
      shift += 7;
    }
  }

  /** The rest of a varint whose low `shift` bits are `low`, as a BigInt (or a Number if it fits). */
  bigVarint(/** @type {number} */ low, /** @type {number} */ shift) {
    let value = BigInt(low), s = BigInt(shift);
    for (;;) {
      if (this.p >= this.end) throw new Refusal(`a varint in the ${this.name} column is cut short`);
      const b = this.c[this.p++];
      if (shift >= 63 && b > 1) throw new Refusal(`a varint in the ${this.name} column overflows 64 bits`);
      value |= BigInt(b & 0x7f) << s;
      if (b < 0x80) return value < TWO_53 ? Number(value) : value;
      s += 7n;
      shift += 7;
    }
  }

  /** @param {number} count */
  bytes(count) {
    if (this.end - this.p < count) throw new Refusal(`the ${this.name} column is cut short`);
    this.p += count;
    return this.p - count;
  }
}

/**
 * previous + unzigzag(zz) modulo 2^64, as a Number when both are small, else a BigInt.
 * @param {number | bigint} previous @param {number | bigint} zz
 * @returns {number | bigint}
 */
function addZigzag(previous, zz) {
  if (typeof zz === 'number' && typeof previous === 'number') {
    const d = zz % 2 === 1 ? -(zz + 1) / 2 : zz / 2;
    const v = previous + d;
    if (v >= 0 && v < TWO_53) return v;
  }
  const z = BigInt(zz);
  const d = (z >> 1n) ^ -(z & 1n);
  const v = (BigInt(previous) + d) & MASK_64;
  return v < TWO_53 ? Number(v) : v;
}

/** @param {number | bigint} v */
function u32(v) {
  if (typeof v !== 'number' || v > 0xffffffff) throw new Refusal('a block holds a 32-bit field out of range');
  return v;
}

/** @param {Uint8Array} c @param {number} i little-endian u64 at c[i] as 16 lowercase hex digits */
function hex64(c, i) {
  const lo = (c[i] | (c[i + 1] << 8) | (c[i + 2] << 16) | (c[i + 3] << 24)) >>> 0;
  const hi = (c[i + 4] | (c[i + 5] << 8) | (c[i + 6] << 16) | (c[i + 7] << 24)) >>> 0;
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** @param {Uint8Array} c @param {number} i */
function le32(c, i) {
  return (c[i] | (c[i + 1] << 8) | (c[i + 2] << 16) | (c[i + 3] << 24)) >>> 0;
}

/** @param {Uint8Array} c @param {number} start @param {number} end */
function text(c, start, end) {
  try {
    return utf8.decode(c.subarray(start, end));
  } catch {
    return null;
  }
}

/** How many records a block decodes between two pauses of blockSteps. */
const RECORDS_PER_STEP = 256;

/**
 * Appends the events of every block of one frame's content to `out`; returns how many. Throws
 * BlockError (the block's offset; `record` set when a record fails §3's checks). It pauses
 * (yields) after every RECORDS_PER_STEP records, so that a caller may give the page back between
 * two (recordFrames.js).
 * With `sealed`, the blocks are an encrypted account's (segment-format.md §3.6): their sealed
 * records go to `sealed`, and a plaintext record is refused; without it, a sealed record is.
 * @param {Uint8Array} content @param {LedgerEvent[]} out @param {SealedRecord[] | null} [sealed]
 * @returns {Generator<void, number, void>}
 */
export function* blockSteps(content, out, sealed = null) {
  let at = 0, decoded = 0, records = 0;
  const taken = sealed ?? out;
  const first = taken.length;
  /** @type {BlockError | null} */
  let recordFault = null;
  while (at < content.length) {
    try {
      const [length, bytes, count, fault] = yield* decodeBlock(content, at, MAX_DECODED - decoded, out, sealed);
      // As the Swift reader: every block's structure first, then the records (§3).
      if (fault && !recordFault) recordFault = new BlockError(fault.message, at, records + fault.index);
      at += length;
      decoded += bytes;
      records += count;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      throw new BlockError(error.message, at);
    }
  }
  if (recordFault) { taken.length = first; throw recordFault; }
  return taken.length - first;
}

/**
 * One block at c[at]: its length, the bytes of the records it decodes to, their number, and the
 * first record that §3 refuses (its index in the block), if any.
 * Pauses after every RECORDS_PER_STEP records (blockSteps).
 * @param {Uint8Array} c @param {number} at @param {number} capacity @param {LedgerEvent[]} out
 * @param {SealedRecord[] | null} sealed
 * @returns {Generator<void, [number, number, number, {message: string, index: number} | null], void>}
 */
function* decodeBlock(c, at, capacity, out, sealed) {
  const size = c.length - at;
  if (size < 44) throw new Refusal('a block header is cut off');
  if (c[at] !== 0x4f || c[at + 1] !== 0x52 || c[at + 2] !== 0x42 || c[at + 3] !== 0x32) throw new Refusal('a block does not start with ORB2');
  const count = le32(c, at + 4), declared = le32(c, at + 8);
  const devices = c[at + 12] | (c[at + 13] << 8);
  if ((c[at + 14] | c[at + 15]) !== 0) throw new Refusal("a block's reserved field is not 0");
  if (count === 0 || devices < 1 || devices > 256 || devices > count) throw new Refusal(`a block declares ${count} records of ${devices} devices`);
  if (declared > capacity) throw new Refusal("a frame's blocks decode to more than 4 MiB");
  let total = 44 + 8 * devices + 3 * count;
  const lengths = [];
  for (let i = 0; i < 7; i++) { const n = le32(c, at + 16 + 4 * i); lengths.push(n); total += n; }
  if (total > size) throw new Refusal('a block runs past its frame');
  /** @type {string[]} */
  const table = [];
  for (let i = 0; i < devices; i++) table.push(hex64(c, at + 44 + 8 * i));
  let start = at + 44 + 8 * devices;
  const kinds = start, flagsAt = start + count, codes = start + 2 * count;
  start += 3 * count;
  /** @param {number} n @param {string} name */
  const column = (n, name) => { const col = new Column(c, start, start + n, name); start += n; return col; };
  const seqs = column(lengths[0], 'seq'), times = column(lengths[1], 'hlc time'), counters = column(lengths[2], 'hlc counter');
  const stations = column(lengths[3], 'station'), dates = column(lengths[4], 'date'), origins = column(lengths[5], 'origin');
  const tails = column(lengths[6], 'tail');
  /** @type {(number | bigint)[]} */
  const lastSeqs = new Array(devices).fill(0);
  /** @type {number | bigint} */
  let lastTime = 0;
  /** @type {number | bigint} */
  let lastStation = 0, lastDate = 0;
  let written = 0;
  /** @param {number} body */
  const begin = (body) => {
    if (body > 0xffff) throw new Refusal('a block holds a record longer than 65,535 bytes');
    if (written + 4 + body > declared) throw new Refusal("a block's records are longer than it declares");
    written += 4 + body;
  };
  const hlc = () => {
    const time = addZigzag(lastTime, times.varint());
    const counter = counters.varint();
    if (typeof time !== 'number' || time >= 2 ** 48 || typeof counter !== 'number' || counter > 0xffff) throw new Refusal('a block holds an hlc out of range');
    lastTime = time;
    return (BigInt(time) << 16n) | BigInt(counter);
  };
  /** @param {number} code */
  const seq = (code) => {
    const s = addZigzag(lastSeqs[code], seqs.varint());
    lastSeqs[code] = s;
    return BigInt(s);
  };
  /** @type {LedgerEvent[]} */
  const events = [];
  /** @type {SealedRecord[]} */
  const sealedFound = [];
  /** @type {{message: string, index: number} | null} */
  let fault = null;
  for (let i = 0; i < count; i++) {
    try {
      decodeRecord(i);
    } catch (error) {
      if (!(error instanceof Refusal) || !error.isRecord) throw error;
      fault ??= { message: error.message, index: i };
    }
    if (i % RECORDS_PER_STEP === RECORDS_PER_STEP - 1) yield;
  }
  if (written !== declared) throw new Refusal("a block's records are shorter than it declares");
  for (const col of [seqs, times, counters, stations, dates, origins, tails]) {
    if (col.p !== col.end) throw new Refusal(`the ${col.name} column has bytes no record uses`);
  }
  for (const e of events) out.push(e);
  for (const r of sealedFound) sealed?.push(r);
  return [total, written, count, fault];

  /** @param {number} i */
  function decodeRecord(i) {
    const kind = c[kinds + i], flag = c[flagsAt + i], code = c[codes + i];
    if (code >= devices) throw new Refusal(`a block's device code ${code} is not in its table of ${devices}`);
    const device = table[code];
    switch (kind) {
      case 1: {
        const s = seq(code), h = hlc();
        lastStation = u32(addZigzag(lastStation, stations.varint()));
        let date = 0;
        if (flag & 1) { lastDate = u32(addZigzag(lastDate, dates.varint())); date = lastDate; }
        const origin = origins.byte();
        let memoLength = 0;
        if (flag & 2) { const m = tails.varint(); memoLength = typeof m === 'number' ? m : Infinity; }
        begin(34 + memoLength);
        const memoAt = memoLength > 0 ? tails.bytes(memoLength) : 0;
        plaintextAllowed();
        if (memoLength > 4096) throw new Refusal(`a station edit has a bad length ${34 + memoLength}`, true);
        if ((flag & ~3) !== 0 || flag === 0) throw new Refusal(`a station edit has bad flags ${flag}`, true);
        if (s === 0n || lastStation === 0 || device === '0000000000000000') throw new Refusal('a station edit has a zero device, seq or station', true);
        if ((flag & 1) && !isValidCode(date)) throw new Refusal(`a station edit has an invalid date code ${date}`, true);
        if (origin > 2) throw new Refusal('a station edit has an unknown origin', true);
        let memo = null;
        if (flag & 2) {
          memo = memoLength === 0 ? '' : text(c, memoAt, memoAt + memoLength);
          if (memo === null) throw new Refusal('a memo is not UTF-8', true);
        }
        events.push({ kind: 'station_edit', device, seq: s, hlc: h, station: lastStation, compDate: flag & 1 ? date : null, memo, origin: ORIGINS[origin] });
        break;
      }
      case 2: {
        const s = seq(code), h = hlc();
        const version = u32(tails.varint());
        begin(30);
        plaintextAllowed();
        if (flag !== 0 || s === 0n || device === '0000000000000000') throw new Refusal('a catalogue version record is malformed', true);
        events.push({ kind: 'catalog_version', device, seq: s, hlc: h, catalogVersion: version });
        break;
      }
      case 3: {
        const h = hlc();
        const n = tails.varint();
        const length = typeof n === 'number' ? n : Infinity;
        begin(16 + length);
        const nameAt = tails.bytes(length);
        plaintextAllowed();
        if (length > 255 || flag !== 0 || device === '0000000000000000') throw new Refusal('a device name record is malformed', true);
        const name = text(c, nameAt, nameAt + length);
        if (name === null) throw new Refusal('a device name is not UTF-8', true);
        events.push({ kind: 'device_name', device, seq: 0n, hlc: h, name });
        break;
      }
      case 4: {
        const s = seq(code), h = hlc();
        const n = tails.varint();
        if (typeof n !== 'number' || n > Math.floor(0xffff / 16)) throw new Refusal('a block holds a record longer than 65,535 bytes');
        begin(28 + 16 * n);
        const entriesAt = tails.bytes(16 * n);
        plaintextAllowed();
        if (flag !== 0 || s === 0n || device === '0000000000000000') throw new Refusal('a knowledge mark is malformed', true);
        /** @type {Array<[string, bigint]>} */
        const knowledge = [];
        let previous = '0000000000000000';
        for (let e = 0; e < n; e++) {
          const d = hex64(c, entriesAt + 16 * e), q = BigInt('0x' + hex64(c, entriesAt + 16 * e + 8));
          if (d <= previous || q === 0n) throw new Refusal("a knowledge mark's entries are not ascending devices with non-zero seqs", true);
          knowledge.push([d, q]);
          previous = d;
        }
        events.push({ kind: 'knowledge_mark', device, seq: s, hlc: h, knowledge });
        break;
      }
      case SEALED_EVENT: case SEALED_NAME: case SEALED_RUN: {
        // As ColumnarBlockDecoder: an event's seq (a run's last), then from the tail a run's
        // last − first, the epoch, the nonce, the ciphertext's length and bytes; then the record
        // as SealedRecordStream checks it. A run's first is last − (last − first) modulo 2^64, as
        // Swift writes the record: one that ends before it starts is the sealed reader's refusal.
        const s = kind === SEALED_NAME ? 0n : seq(code);
        const first = kind === SEALED_RUN ? (s - BigInt(tails.varint())) & MASK_64 : undefined;
        const epoch = u32(tails.varint());
        const nonceAt = tails.bytes(NONCE_BYTES);
        const n = tails.varint();
        const fixed = fixedBody(kind);
        if (typeof n !== 'number' || n > 0xffff - fixed) throw new Refusal('a block holds a record longer than 65,535 bytes');
        const sealedAt = tails.bytes(n);
        begin(fixed + n);
        if (!sealed) throw new Refusal(`a sealed record (kind ${kind}) where only plaintext records may be`, true);
        const fault = sealedFault({ kind, flags: flag, body: fixed + n, device, seq: s, first, epoch });
        if (fault !== null) throw new Refusal(fault, true);
        const nonce = c.slice(nonceAt, nonceAt + NONCE_BYTES), ciphertext = c.slice(sealedAt, sealedAt + n);
        sealedFound.push(first === undefined ? { kind, device, seq: s, epoch, nonce, ciphertext } : { kind, device, seq: s, first, epoch, nonce, ciphertext });
        break;
      }
      default:
        throw new Refusal(`a block holds unknown record kind ${kind}`);
    }

    /** A plaintext record, its columns read: refused in an encrypted account's blocks. */
    function plaintextAllowed() {
      if (sealed) throw new Refusal(`a plaintext record (kind ${kind}) where only sealed records may be`, true);
    }
  }
}
