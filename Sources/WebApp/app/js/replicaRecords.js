// The records a replica holds, as its store keeps them (Schemas/phone-app.md "The stored form"):
// the chunks (record frames, decoded here) and the per-record values of this device's own
// records. Also the one-time move of other devices' per-record values into a chunk, the form a
// replica written before chunks existed is brought to when it opens.

import { fromStored, sameContent } from './records.js';
import { readFrames, readFramesInSlices, writeFrames } from './recordFrames.js';
import { StoreError } from './store.js';
import { runSteps, runStepsInSlices, TimeSlice } from './timeSlice.js';

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./store.js').Snapshot} Snapshot */
/** @typedef {import('./store.js').Change} Change */

/**
 * Every record of a snapshot: its chunks' in key order, then the per-record values. The chunks
 * are decoded in slices of the page's time (recordFrames.js readFramesInSlices).
 * @param {Snapshot} snapshot @param {TimeSlice} [slice]
 * @returns {Promise<LedgerEvent[]>}
 */
export async function snapshotRecords(snapshot, slice = new TimeSlice()) {
  /** @type {LedgerEvent[]} */
  const records = [];
  for (const chunk of await snapshot.chunks()) {
    try {
      await readFramesInSlices(chunk.bytes, slice, records);
    } catch (error) {
      throw damagedChunk(chunk.key, error);
    }
  }
  for (const s of snapshot.records) records.push(fromStored(s));
  return records;
}

/**
 * Gives `add` every record orderRecords keeps (each device's events in seq order, then the
 * names), a slice of the page's time at a time.
 * @param {LedgerEvent[]} records @param {(record: LedgerEvent) => void} add @param {TimeSlice} slice
 */
export async function addInSlices(records, add, slice) {
  const { events, names } = await runStepsInSlices(orderSteps(records), slice);
  let added = 0;
  for (const list of events.values()) {
    for (const r of list) {
      add(r);
      if (++added % STEP === 0) await slice.pass();
    }
  }
  for (const r of names.values()) add(r);
}

/** How many records orderSteps and addInSlices go through between two pauses. */
const STEP = 512;

/**
 * Each device's events in seq order, once each, up to the first gap (a record after a gap could
 * only come from a removal that missed a chunk; the next pull brings it again), and the newest
 * name of each device.
 * @param {LedgerEvent[]} records
 */
export function orderRecords(records) {
  return runSteps(orderSteps(records));
}

/**
 * orderRecords as steps: pauses after every STEP records.
 * @param {LedgerEvent[]} records
 * @returns {Generator<void, {events: Map<string, LedgerEvent[]>, names: Map<string, LedgerEvent>}, void>}
 */
function* orderSteps(records) {
  /** @type {Map<string, LedgerEvent[]>} */
  const groups = new Map();
  /** @type {Map<string, LedgerEvent>} */
  const names = new Map();
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (i % STEP === STEP - 1) yield;
    if (r.kind === 'device_name') {
      const held = names.get(r.device);
      if (!held || held.hlc < r.hlc) names.set(r.device, r);
      continue;
    }
    const list = groups.get(r.device);
    if (list) list.push(r); else groups.set(r.device, [r]);
  }
  /** @type {Map<string, LedgerEvent[]>} */
  const events = new Map();
  for (const device of [...groups.keys()].sort()) {
    const list = /** @type {LedgerEvent[]} */ (groups.get(device));
    let ordered = true;
    for (let i = 1; i < list.length && ordered; i++) {
      ordered = list[i - 1].seq + 1n === list[i].seq;
      if (i % STEP === 0) yield;
    }
    if (!ordered || list[0].seq !== 1n) {
      list.sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
      const kept = [];
      for (const e of list) {
        const expected = BigInt(kept.length + 1);
        if (e.seq === expected - 1n && expected > 1n) continue;
        if (e.seq !== expected) break;
        kept.push(e);
      }
      events.set(device, kept);
    } else {
      events.set(device, list);
    }
  }
  return { events, names };
}

/**
 * The change that moves other devices' per-record values into one chunk, or null when there are
 * none: a replica written before chunks (Schemas/phone-app.md "The stored form"). The chunk is
 * read back in memory before it is proposed, so that nothing is lost by the move.
 * @param {Snapshot} snapshot @param {string} device this device
 * @returns {Change | null}
 */
export function chunkMigration(snapshot, device) {
  const foreign = snapshot.records.filter((s) => s.device !== device);
  if (foreign.length === 0) return null;
  return { chunks: [storedChunk(foreign)], remove: foreign.map((s) => s.key) };
}

/**
 * One chunk of stored values' records, read back in memory record for record before it is
 * proposed: a chunk that would not read as them is refused (StoreError), so that a move of
 * values into a chunk never loses one (chunkMigration, ownCompaction.js).
 * @param {import('./records.js').StoredEvent[]} values
 * @returns {{bytes: Uint8Array, count: number}}
 */
export function storedChunk(values) {
  return chunkOf(values.map(fromStored));
}

/**
 * One chunk of `events`, read back in memory record for record (storedChunk).
 * @param {LedgerEvent[]} events
 * @returns {{bytes: Uint8Array, count: number}}
 */
function chunkOf(events) {
  const bytes = writeFrames(events);
  const back = readFrames(bytes).events;
  if (back.length !== events.length || !back.every((e, i) => sameContent(e, events[i]) && e.kind === events[i].kind)) {
    throw new StoreError('the app could not move its saved records into a chunk intact, so it left them as they were', null, 'refused');
  }
  return { bytes, count: events.length };
}

/**
 * The chunks that hold any event of `device` from seq `first` on, and each one's other records
 * as a chunk of its own (none when it held nothing else): what a re-identification removes from
 * the chunks (reidentification.js).
 * @param {import('./store.js').StoredChunk[]} chunks @param {string} device @param {bigint} first
 * @returns {{drop: number[], add: {bytes: Uint8Array, count: number}[]}}
 */
export function chunksWithout(chunks, device, first) {
  /** @type {number[]} */
  const drop = [];
  /** @type {{bytes: Uint8Array, count: number}[]} */
  const add = [];
  const leaving = (/** @type {LedgerEvent} */ e) => e.kind !== 'device_name' && e.device === device && e.seq >= first;
  for (const chunk of chunks) {
    let events;
    try {
      events = readFrames(chunk.bytes).events;
    } catch (error) {
      throw damagedChunk(chunk.key, error);
    }
    if (!events.some(leaving)) continue;
    drop.push(chunk.key);
    const kept = events.filter((e) => !leaving(e));
    if (kept.length > 0) add.push(chunkOf(kept));
  }
  return { drop, add };
}

/**
 * The refusal of a chunk that does not read: a damaged replica, never skipped.
 * @param {number} key @param {unknown} error
 */
function damagedChunk(key, error) {
  return new StoreError(`the app's saved chunk ${key} is damaged (${error instanceof Error ? error.message : String(error)})`, error, 'unreadable');
}
