// Events into the columnar blocks of a format-2 data frame (Schemas/segment-format.md §2a), as
// the Swift ColumnarBlockEncoder lays them out: a new block when a 257th device would join. The
// app writes its own chunks with it (the edits of this device, a JSON page); the events were
// validated when they were made or received, so only their fields are read. An encrypted
// account's sealed records (§3.6) are laid out by the same rules (encodeSealedBlocks), and so is
// the canonical block a sealed run seals (Schemas/encryption.md §3.5: one block of one device).

import { utf8 } from './records.js';
import { SEALED_NAME, SEALED_RUN, storedLength } from './sealedLayout.js';

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./crypto/recordSealer.js').SealedRecord} SealedRecord */

const KINDS = { station_edit: 1, catalog_version: 2, device_name: 3, knowledge_mark: 4 };
const ORIGINS = { user: 0, import: 1, catalog: 2 };
const TWO_53 = 2 ** 53;
const MASK_64 = (1n << 64n) - 1n;

/** A growable byte buffer. */
class Bytes {
  constructor(size = 256) {
    this.b = new Uint8Array(size);
    this.n = 0;
  }

  /** @param {number} extra */
  room(extra) {
    if (this.n + extra <= this.b.length) return;
    const next = new Uint8Array(Math.max(this.b.length * 2, this.n + extra));
    next.set(this.b.subarray(0, this.n));
    this.b = next;
  }

  /** @param {number} v */
  byte(v) { this.room(1); this.b[this.n++] = v; }

  /** @param {Uint8Array} bytes */
  bytes(bytes) { this.room(bytes.length); this.b.set(bytes, this.n); this.n += bytes.length; }

  /**
   * An unsigned varint of a Number below 2^53 or a BigInt below 2^64.
   * @param {number | bigint} v
   */
  varint(v) {
    this.room(10);
    if (typeof v === 'number' && v < TWO_53) {
      while (v >= 128) { this.b[this.n++] = (v % 128) | 128; v = Math.floor(v / 128); }
      this.b[this.n++] = v;
      return;
    }
    let x = BigInt(v);
    while (x >= 128n) { this.b[this.n++] = Number(x & 127n) | 128; x >>= 7n; }
    this.b[this.n++] = Number(x);
  }

  /**
   * zz(current − previous) modulo 2^64.
   * @param {number | bigint} current @param {number | bigint} previous
   */
  zigzag(current, previous) {
    if (typeof current === 'number' && typeof previous === 'number') {
      const d = current - previous;
      this.varint(d >= 0 ? 2 * d : -2 * d - 1);
      return;
    }
    let d = (BigInt(current) - BigInt(previous)) & MASK_64;
    if (d >= 1n << 63n) d -= 1n << 64n;
    this.varint(d >= 0n ? 2n * d : -2n * d - 1n);
  }

  /** @param {string} hex 16 hex digits, written as a little-endian u64 */
  u64hex(hex) {
    this.room(8);
    for (let i = 0; i < 8; i++) this.b[this.n++] = parseInt(hex.slice(14 - 2 * i, 16 - 2 * i), 16);
  }

  /** @param {bigint} v */
  u64(v) { this.u64hex(v.toString(16).padStart(16, '0')); }

  view() { return this.b.subarray(0, this.n); }
}

/** @param {bigint} v */
function small(v) {
  return v < TWO_53 ? Number(v) : v;
}

/**
 * The length of an event's record in the raw record stream (§3), and its variable bytes.
 * @param {LedgerEvent} e
 * @returns {[number, Uint8Array | null]}
 */
export function recordLength(e) {
  switch (e.kind) {
    case 'station_edit': {
      const memo = e.memo !== null && e.memo !== undefined ? utf8(e.memo) : null;
      return [38 + (memo ? memo.length : 0), memo];
    }
    case 'catalog_version': return [34, null];
    case 'device_name': { const name = utf8(e.name ?? ''); return [20 + name.length, name]; }
    default: return [32 + 16 * (e.knowledge ?? []).length, null];
  }
}

/**
 * One block's columns being written: the device table in order of first appearance, the three
 * one-byte columns and columns 3 to 9 (§2a).
 */
class BlockColumns {
  /** @param {{device: string}[]} records */
  constructor(records) {
    /** @type {Map<string, number>} */
    this.codes = new Map();
    for (const r of records) if (!this.codes.has(r.device)) this.codes.set(r.device, this.codes.size);
    this.cols = Array.from({ length: 7 }, () => new Bytes());
    this.kinds = new Uint8Array(records.length);
    this.flags = new Uint8Array(records.length);
    this.devs = new Uint8Array(records.length);
    /** @type {(number | bigint)[]} */
    this.lastSeqs = new Array(this.codes.size).fill(0);
    /** Bytes of the raw record stream the block decodes to. */
    this.raw = 0;
  }

  /**
   * Record `i`'s kind, flags and device code, and its seq when it has one; returns its device code.
   * @param {number} i @param {number} kind @param {number} flags @param {string} device @param {bigint | null} seq
   */
  head(i, kind, flags, device, seq) {
    const code = /** @type {number} */ (this.codes.get(device));
    this.kinds[i] = kind;
    this.flags[i] = flags;
    this.devs[i] = code;
    if (seq !== null) { const s = small(seq); this.cols[0].zigzag(s, this.lastSeqs[code]); this.lastSeqs[code] = s; }
    return code;
  }

  /** @param {Bytes} out */
  finish(out) {
    const header = new DataView(new ArrayBuffer(44));
    [0x4f, 0x52, 0x42, 0x32].forEach((b, i) => header.setUint8(i, b));
    header.setUint32(4, this.kinds.length, true);
    header.setUint32(8, this.raw, true);
    header.setUint16(12, this.codes.size, true);
    this.cols.forEach((col, i) => header.setUint32(16 + 4 * i, col.n, true));
    out.bytes(new Uint8Array(header.buffer));
    for (const device of this.codes.keys()) out.u64hex(device);
    out.bytes(this.kinds);
    out.bytes(this.flags);
    out.bytes(this.devs);
    for (const col of this.cols) out.bytes(col.view());
  }
}

/**
 * One block of at most 256 devices' events, appended to `out`.
 * @param {LedgerEvent[]} events @param {Bytes} out
 */
function encodeBlock(events, out) {
  const block = new BlockColumns(events);
  const [, times, counters, stations, dates, origins, tails] = block.cols;
  let lastTime = 0, lastStation = 0, lastDate = 0;
  events.forEach((e, i) => {
    const [length, variable] = recordLength(e);
    block.raw += length;
    const hasDate = e.kind === 'station_edit' && e.compDate !== null && e.compDate !== undefined;
    const flags = e.kind === 'station_edit' ? (hasDate ? 1 : 0) | (variable ? 2 : 0) : 0;
    block.head(i, KINDS[e.kind], flags, e.device, e.kind === 'device_name' ? null : e.seq);
    const time = Number(e.hlc >> 16n);
    times.zigzag(time, lastTime);
    lastTime = time;
    counters.varint(Number(e.hlc & 0xffffn));
    if (e.kind === 'station_edit') {
      stations.zigzag(/** @type {number} */ (e.station), lastStation);
      lastStation = /** @type {number} */ (e.station);
      if (hasDate) { dates.zigzag(/** @type {number} */ (e.compDate), lastDate); lastDate = /** @type {number} */ (e.compDate); }
      origins.byte(ORIGINS[e.origin ?? 'user']);
      if (variable) { tails.varint(variable.length); tails.bytes(variable); }
    } else if (e.kind === 'catalog_version') {
      tails.varint(e.catalogVersion ?? 0);
    } else if (e.kind === 'device_name') {
      tails.varint(/** @type {Uint8Array} */ (variable).length);
      tails.bytes(/** @type {Uint8Array} */ (variable));
    } else {
      const entries = e.knowledge ?? [];
      tails.varint(entries.length);
      for (const [d, s] of entries) { tails.u64hex(d); tails.u64(s); }
    }
  });
  block.finish(out);
}

/**
 * One block of at most 256 devices' sealed records (§3.6: an event's seq, or a run's last, in the
 * seq column, no hlc; in the tail a run's last − first, then the epoch, nonce and ciphertext),
 * appended to `out`.
 * @param {SealedRecord[]} records @param {Bytes} out
 */
function encodeSealedBlock(records, out) {
  const block = new BlockColumns(records);
  const tails = block.cols[6];
  records.forEach((r, i) => {
    block.raw += storedLength(r);
    block.head(i, r.kind, 0, r.device, r.kind === SEALED_NAME ? null : r.seq);
    if (r.kind === SEALED_RUN) tails.varint(small(r.seq - (r.first ?? 0n)));
    tails.varint(r.epoch);
    tails.bytes(r.nonce);
    tails.varint(r.ciphertext.length);
    tails.bytes(r.ciphertext);
  });
  block.finish(out);
}

/**
 * The blocks holding `events` in order (a new block when a 257th device would join).
 * @param {LedgerEvent[]} events
 */
export function encodeBlocks(events) {
  return blocksOf(events, encodeBlock);
}

/**
 * The blocks holding an encrypted account's sealed records in order, as the Swift writer lays
 * them out (segment-format.md §3.6).
 * @param {SealedRecord[]} records
 */
export function encodeSealedBlocks(records) {
  return blocksOf(records, encodeSealedBlock);
}

/**
 * `records` cut into blocks of at most 256 devices, each written by `encode`.
 * @template {{device: string}} R
 * @param {R[]} records @param {(records: R[], out: Bytes) => void} encode
 */
function blocksOf(records, encode) {
  const out = new Bytes(64 + 16 * records.length);
  let start = 0;
  /** @type {Set<string>} */
  let devices = new Set();
  for (let i = 0; i <= records.length; i++) {
    if (i === records.length || (!devices.has(records[i].device) && devices.size === 256)) {
      if (i > start) encode(records.slice(start, i), out);
      start = i;
      devices = new Set();
    }
    if (i < records.length) devices.add(records[i].device);
  }
  return out.view().slice();
}
