// A pull answer (Schemas/sync-api.yaml, POST /v1/pull), decoded and checked once, where it
// arrives: every record valid, the version vector and the digests well formed, or MalformedAnswer
// and nothing of the answer is used.

import { MalformedAnswer } from './api.js';
import { toUnsigned } from './bigjson.js';
import { FramesError, readFrames } from './recordFrames.js';
import { fromWire, isDeviceHex, isDigestHex, RecordError } from './records.js';
import { TimeSlice } from './timeSlice.js';

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */

const MAX_U64 = (1n << 64n) - 1n;

/**
 * A checked pull answer.
 * @typedef {object} PullPage
 * @property {LedgerEvent[]} records
 * @property {Uint8Array | null} frames the record frames the records came in, null for JSON
 * @property {boolean} more
 * @property {bigint} cursor
 * @property {Map<string, bigint>} serverHas
 * @property {Map<string, string>} serverDigests
 */

/**
 * A version vector from the wire; throws MalformedAnswer.
 * @param {unknown} value @param {string} what
 * @returns {Map<string, bigint>}
 */
export function parseVersionVector(value, what) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new MalformedAnswer(`the sync server's ${what} is not an object`);
  const out = new Map();
  for (const [device, seq] of Object.entries(value)) {
    const n = toUnsigned(seq);
    if (!isDeviceHex(device) || n === null || n > MAX_U64) throw new MalformedAnswer(`the sync server's ${what} has a bad entry`);
    out.set(device, n);
  }
  return out;
}

const MAX_HLC = 17_999_999_999_999_999_999n;

/**
 * What the wire's JSON checks refuse beyond §3 (sync-frames.md "Checks" 4, fromWire): an hlc past
 * the bound, a device name that is empty.
 * @param {LedgerEvent} r
 */
function validFramed(r) {
  return r.hlc <= MAX_HLC && (r.kind !== 'device_name' || (r.name ?? '') !== '');
}

/** @param {unknown} value @returns {Map<string, string>} */
function parseDigests(value) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new MalformedAnswer("the sync server's server_digests is not an object");
  const out = new Map();
  for (const [device, d] of Object.entries(value)) {
    if (!isDeviceHex(device) || !isDigestHex(d)) throw new MalformedAnswer("the sync server's server_digests has a bad entry");
    out.set(device, /** @type {string} */ (d));
  }
  return out;
}

/**
 * A pull answer, checked completely: every record valid (kind, device, seq, hlc, station,
 * comp_date, memo…), or MalformedAnswer and nothing of it is used. JSON records are checked in
 * slices (timeSlice.js): a page of 2,000 took 20 ms at 4× CPU throttling. Record frames
 * (`frames`, Schemas/sync-frames.md) are read as the Swift reader reads them, and their records
 * then checked as JSON ones are (sync-frames.md "Checks" 4).
 * @param {Record<string, unknown>} body
 * @param {TimeSlice} [slice]
 * @returns {Promise<PullPage>}
 */
export async function parsePullPage(body, slice = new TimeSlice()) {
  if (!Array.isArray(body.records)) throw new MalformedAnswer('the sync server sent a pull page without records');
  if (typeof body.more !== 'boolean') throw new MalformedAnswer('the sync server sent a pull page without `more`');
  const cursor = toUnsigned(body.cursor);
  if (cursor === null || cursor > MAX_U64) throw new MalformedAnswer('the sync server sent a pull page without a valid cursor');
  /** @type {LedgerEvent[]} */
  let records = [];
  const frames = body.frames instanceof Uint8Array ? body.frames : null;
  if (frames) {
    if (body.records.length !== 0) throw new MalformedAnswer('the sync server sent record frames with JSON records beside them');
    try {
      records = readFrames(frames).events;
    } catch (error) {
      if (error instanceof FramesError) throw new MalformedAnswer(`the sync server sent malformed record frames: ${error.message}`);
      throw error;
    }
    if (toUnsigned(body.count) !== BigInt(records.length)) throw new MalformedAnswer("the sync server's record frames do not hold the count its header says");
    for (const r of records) if (!validFramed(r)) throw new MalformedAnswer(`the sync server sent a record of device ${r.device} that the sync API refuses`);
  }
  for (const wire of frames ? [] : body.records) {
    await slice.pass();
    try {
      records.push(fromWire(wire));
    } catch (error) {
      if (error instanceof RecordError) throw new MalformedAnswer(`the sync server sent a malformed record: ${error.message}`);
      throw error;
    }
  }
  return {
    records, frames, more: body.more, cursor,
    serverHas: parseVersionVector(body.server_has, 'server_has'),
    serverDigests: parseDigests(body.server_digests),
  };
}
