// Log records: the sync API's wire Record (Schemas/sync-api.yaml) ↔ the app's event objects,
// their canonical byte encoding (Schemas/segment-format.md §3, exactly the Swift RecordEncoder)
// and the event digest (Schemas/merge.md §10: the first 16 bytes of SHA-256 of that encoding).

import { toUnsigned } from './bigjson.js';
import { isValidCode } from './dates.js';
import { sha256, toHex } from './sha256.js';

/** @typedef {'station_edit' | 'catalog_version' | 'knowledge_mark' | 'device_name'} RecordKind */
/** @typedef {'user' | 'import' | 'catalog'} Origin */

/**
 * One record as the app holds it. Device names have seq 0n. Station edits set `compDate`,
 * `memo` or both (null: the event leaves the field alone; memo "" clears it).
 * @typedef {object} LedgerEvent
 * @property {RecordKind} kind
 * @property {string} device 16 lowercase hex digits, not all zero
 * @property {bigint} seq
 * @property {bigint} hlc
 * @property {number} [station]
 * @property {number | null} [compDate]
 * @property {string | null} [memo]
 * @property {Origin} [origin]
 * @property {number} [catalogVersion]
 * @property {Array<[string, bigint]>} [knowledge] ascending by device, every seq > 0
 * @property {string} [name]
 */

/** A record that fails the wire schema or the rules no schema states; `message` is one sentence. */
export class RecordError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'RecordError';
  }
}

export const MAX_MEMO_BYTES = 4096;
export const MAX_NAME_BYTES = 255;
export const MAX_KNOWLEDGE_ENTRIES = 4094;
const MAX_U64 = (1n << 64n) - 1n;
const MAX_U32 = 0xffffffff;
const DEVICE_RE = /^(?!0{16}$)[0-9a-f]{16}$/;
const HLC_RE = /^(0|[1-9][0-9]{0,18}|1[0-7][0-9]{18})$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const KIND_CODES = { station_edit: 1, catalog_version: 2, device_name: 3, knowledge_mark: 4 };
const ORIGIN_CODES = { user: 0, import: 1, catalog: 2 };

const encoder = new TextEncoder();

/**
 * UTF-8 bytes of a string.
 * @param {string} text
 */
export function utf8(text) {
  return encoder.encode(text);
}

/**
 * The UTF-8 length of a string without allocating.
 * @param {string} text
 */
export function utf8Length(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

/**
 * Whether text is a device id (16 lowercase hex digits, not all zero).
 * @param {unknown} text
 */
export function isDeviceHex(text) {
  return typeof text === 'string' && DEVICE_RE.test(text);
}

/**
 * Whether text is an event digest (32 lowercase hex digits).
 * @param {unknown} text
 */
export function isDigestHex(text) {
  return typeof text === 'string' && /^[0-9a-f]{32}$/.test(text);
}

/**
 * The store key of an event: device, then seq zero-padded so keys sort by (device, seq).
 * @param {string} device @param {bigint} seq
 */
export function eventKey(device, seq) {
  return `${device}:${seq.toString().padStart(20, '0')}`;
}

// MARK: - Wire → event

/**
 * Validates one wire record and returns the event; throws RecordError naming the problem.
 * Mirrors WireRecord.record() and the schema's types (fields of other kinds are ignored, but
 * must have their types; null is the same as absent).
 * @param {unknown} wire
 * @returns {LedgerEvent}
 */
export function fromWire(wire) {
  if (typeof wire !== 'object' || wire === null || Array.isArray(wire)) throw new RecordError('a record is not a JSON object');
  const r = /** @type {Record<string, unknown>} */ (wire);
  const kind = r.kind;
  if (kind !== 'station_edit' && kind !== 'catalog_version' && kind !== 'knowledge_mark' && kind !== 'device_name') {
    throw new RecordError(`a record has an unknown kind ${JSON.stringify(kind)}`);
  }
  if (!isDeviceHex(r.device)) throw new RecordError(`a ${kind} record has a device that is not 16 lowercase hex digits`);
  const device = /** @type {string} */ (r.device);
  if (typeof r.hlc !== 'string' || !HLC_RE.test(r.hlc)) throw new RecordError(`a ${kind} record of device ${device} has a malformed hlc`);
  const hlc = BigInt(r.hlc);
  const seq = optionalUnsigned(r.seq, MAX_U64, 'seq', device);
  const station = optionalUnsigned(r.station, BigInt(MAX_U32), 'station', device);
  const compDate = optionalUnsigned(r.comp_date, BigInt(MAX_U32), 'comp_date', device);
  const catalogVersion = optionalUnsigned(r.catalog_version, BigInt(MAX_U32), 'catalog_version', device);
  const memo = optionalString(r.memo, 'memo', device);
  const origin = optionalString(r.origin, 'origin', device);
  const name = optionalString(r.name, 'name', device);
  if (r.knowledge !== undefined && r.knowledge !== null && (typeof r.knowledge !== 'object' || Array.isArray(r.knowledge))) {
    throw new RecordError(`a record of device ${device} has a knowledge field that is not an object`);
  }

  if (kind === 'device_name') {
    if (name === null || name.length === 0 || utf8Length(name) > MAX_NAME_BYTES) {
      throw new RecordError(`a device_name record of device ${device} needs a name of 1 to ${MAX_NAME_BYTES} bytes`);
    }
    return { kind, device, seq: 0n, hlc, name };
  }
  if (seq === null || seq === 0n) throw new RecordError(`a ${kind} record of device ${device} needs a positive seq`);
  const id = `${device}#${seq}`;
  if (kind === 'station_edit') {
    if (station === null || station === 0n) throw new RecordError(`event ${id} needs a positive station`);
    if (compDate !== null && !isValidCode(Number(compDate))) throw new RecordError(`event ${id} has an invalid comp_date ${compDate}`);
    if (compDate === null && memo === null) throw new RecordError(`event ${id} sets neither comp_date nor memo`);
    if (memo !== null && utf8Length(memo) > MAX_MEMO_BYTES) throw new RecordError(`event ${id} has a memo over ${MAX_MEMO_BYTES} bytes`);
    if (origin !== null && !(origin in ORIGIN_CODES)) throw new RecordError(`event ${id} has an unknown origin ${JSON.stringify(origin)}`);
    return {
      kind, device, seq, hlc, station: Number(station),
      compDate: compDate === null ? null : Number(compDate), memo,
      origin: /** @type {Origin} */ (origin ?? 'user'),
    };
  }
  if (kind === 'catalog_version') {
    if (catalogVersion === null) throw new RecordError(`event ${id} needs catalog_version`);
    return { kind, device, seq, hlc, catalogVersion: Number(catalogVersion) };
  }
  /** @type {Array<[string, bigint]>} */
  const knowledge = [];
  for (const [key, value] of Object.entries(/** @type {object} */ (r.knowledge ?? {}))) {
    const v = toUnsigned(value);
    if (!isDeviceHex(key) || v === null || v === 0n || v > MAX_U64) throw new RecordError(`event ${id} has a bad knowledge entry`);
    knowledge.push([key, v]);
  }
  if (knowledge.length > MAX_KNOWLEDGE_ENTRIES) throw new RecordError(`event ${id} has too many knowledge entries`);
  knowledge.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { kind, device, seq, hlc, knowledge };
}

/**
 * @param {unknown} v @param {bigint} max @param {string} field @param {string} device
 * @returns {bigint | null}
 */
function optionalUnsigned(v, max, field, device) {
  if (v === undefined || v === null) return null;
  const n = toUnsigned(v);
  if (n === null || n > max) throw new RecordError(`a record of device ${device} has a ${field} that is not an integer in range`);
  return n;
}

/** @param {unknown} v @param {string} field @param {string} device @returns {string | null} */
function optionalString(v, field, device) {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || LONE_SURROGATE.test(v)) throw new RecordError(`a record of device ${device} has a ${field} that is not text`);
  return v;
}

// MARK: - Event → wire

/**
 * The wire form (keys as WireRecord encodes them; seq as BigInt for bigjson.stringify).
 * @param {LedgerEvent} e
 * @returns {Record<string, unknown>}
 */
export function toWire(e) {
  /** @type {Record<string, unknown>} */
  const out = { kind: e.kind, device: e.device, hlc: e.hlc.toString() };
  switch (e.kind) {
    case 'station_edit':
      out.seq = e.seq;
      out.station = e.station;
      if (e.compDate !== null && e.compDate !== undefined) out.comp_date = e.compDate;
      if (e.memo !== null && e.memo !== undefined) out.memo = e.memo;
      out.origin = e.origin ?? 'user';
      break;
    case 'catalog_version':
      out.seq = e.seq;
      out.catalog_version = e.catalogVersion;
      break;
    case 'knowledge_mark':
      out.seq = e.seq;
      out.knowledge = Object.fromEntries(e.knowledge ?? []);
      break;
    case 'device_name':
      out.name = e.name;
      break;
  }
  return out;
}

// MARK: - Canonical encoding and digest

/** @param {string} hex */
function u64OfHex(hex) {
  return BigInt('0x' + hex);
}

/**
 * The record's bytes in the raw record stream (Schemas/segment-format.md §3), little-endian,
 * exactly as RecordEncoder writes them.
 * @param {LedgerEvent} e
 * @returns {Uint8Array}
 */
export function encode(e) {
  const device = u64OfHex(e.device);
  switch (e.kind) {
    case 'station_edit': {
      const memo = e.memo !== null && e.memo !== undefined ? utf8(e.memo) : null;
      const hasDate = e.compDate !== null && e.compDate !== undefined;
      const memoLength = memo ? memo.length : 0;
      const out = new Uint8Array(4 + 34 + memoLength);
      const v = new DataView(out.buffer);
      v.setUint8(0, KIND_CODES.station_edit);
      v.setUint8(1, (hasDate ? 1 : 0) | (memo ? 2 : 0));
      v.setUint16(2, 34 + memoLength, true);
      v.setBigUint64(4, device, true);
      v.setBigUint64(12, e.seq, true);
      v.setBigUint64(20, e.hlc, true);
      v.setUint32(28, e.station ?? 0, true);
      v.setUint32(32, hasDate ? /** @type {number} */ (e.compDate) : 0, true);
      v.setUint8(36, ORIGIN_CODES[e.origin ?? 'user']);
      v.setUint8(37, 0);
      if (memo) out.set(memo, 38);
      return out;
    }
    case 'catalog_version': {
      const out = new Uint8Array(4 + 30);
      const v = new DataView(out.buffer);
      v.setUint8(0, KIND_CODES.catalog_version);
      v.setUint16(2, 30, true);
      v.setBigUint64(4, device, true);
      v.setBigUint64(12, e.seq, true);
      v.setBigUint64(20, e.hlc, true);
      v.setUint32(28, e.catalogVersion ?? 0, true);
      return out;
    }
    case 'device_name': {
      const name = utf8(e.name ?? '').subarray(0, MAX_NAME_BYTES);
      const out = new Uint8Array(4 + 16 + name.length);
      const v = new DataView(out.buffer);
      v.setUint8(0, KIND_CODES.device_name);
      v.setUint16(2, 16 + name.length, true);
      v.setBigUint64(4, device, true);
      v.setBigUint64(12, e.hlc, true);
      out.set(name, 20);
      return out;
    }
    case 'knowledge_mark': {
      const entries = (e.knowledge ?? []).filter(([, s]) => s > 0n).slice(0, MAX_KNOWLEDGE_ENTRIES);
      const out = new Uint8Array(4 + 28 + 16 * entries.length);
      const v = new DataView(out.buffer);
      v.setUint8(0, KIND_CODES.knowledge_mark);
      v.setUint16(2, 28 + 16 * entries.length, true);
      v.setBigUint64(4, device, true);
      v.setBigUint64(12, e.seq, true);
      v.setBigUint64(20, e.hlc, true);
      v.setUint32(28, entries.length, true);
      entries.forEach(([d, s], i) => {
        v.setBigUint64(32 + 16 * i, u64OfHex(d), true);
        v.setBigUint64(40 + 16 * i, s, true);
      });
      return out;
    }
  }
}

/**
 * The event digest: the first 16 bytes of SHA-256 of the canonical encoding, 32 lowercase hex.
 * @param {LedgerEvent} e
 */
export function digest(e) {
  return toHex(sha256(encode(e)).subarray(0, 16));
}

// MARK: - Stored form (IndexedDB)

/**
 * The form kept in IndexedDB: plain JSON-like values only (seq and hlc as decimal strings), so
 * that no browser's structured clone of BigInt matters.
 * @typedef {object} StoredEvent
 * @property {string} key eventKey(device, seq), or "name:" + device for a device name
 * @property {RecordKind} kind
 * @property {string} device
 * @property {string} seq
 * @property {string} hlc
 * @property {number} [station]
 * @property {number | null} [compDate]
 * @property {string | null} [memo]
 * @property {Origin} [origin]
 * @property {number} [catalogVersion]
 * @property {Array<[string, string]>} [knowledge]
 * @property {string} [name]
 */

/** @param {LedgerEvent} e @returns {StoredEvent} */
export function toStored(e) {
  return {
    key: e.kind === 'device_name' ? `name:${e.device}` : eventKey(e.device, e.seq),
    kind: e.kind, device: e.device, seq: e.seq.toString(), hlc: e.hlc.toString(),
    ...fieldsOfKind(e),
    ...(e.kind === 'knowledge_mark' ? { knowledge: (e.knowledge ?? []).map(([d, s]) => [d, s.toString()]) } : {}),
  };
}

/** @param {StoredEvent} s @returns {LedgerEvent} */
export function fromStored(s) {
  return {
    kind: s.kind, device: s.device, seq: BigInt(s.seq), hlc: BigInt(s.hlc),
    ...fieldsOfKind(s),
    ...(s.kind === 'knowledge_mark' ? { knowledge: (s.knowledge ?? []).map(([d, q]) => [d, BigInt(q)]) } : {}),
  };
}

/**
 * The fields of a record's kind that an event and its stored form hold alike, defaults filled
 * (a knowledge mark's seqs differ: bigint in an event, text when stored).
 * @param {LedgerEvent | StoredEvent} x
 */
function fieldsOfKind(x) {
  switch (x.kind) {
    case 'station_edit': return { station: x.station, compDate: x.compDate ?? null, memo: x.memo ?? null, origin: x.origin ?? 'user' };
    case 'catalog_version': return { catalogVersion: x.catalogVersion };
    case 'knowledge_mark': return {};
    default: return { name: x.name };
  }
}

/**
 * Whether two events have the same content (the same canonical bytes).
 * @param {LedgerEvent} a @param {LedgerEvent} b
 */
export function sameContent(a, b) {
  const x = encode(a), y = encode(b);
  return x.length === y.length && x.every((byte, i) => byte === y[i]);
}
