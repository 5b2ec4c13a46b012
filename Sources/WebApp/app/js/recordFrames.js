// Records as the data frames of a format-2 segment (Schemas/segment-format.md §2, §2a): what the
// sync server sends for `Accept: application/x-oritsubushi-frames` (Schemas/sync-frames.md) and
// what the app keeps in its chunks (Schemas/phone-app.md "The stored form"). Read as Swift's
// RecordFrames.Reader reads them: every LZ4 checksum, every block's structure, every record.

import { BlockError, blockSteps } from './blockDecoder.js';
import { encodeBlocks, encodeSealedBlocks, recordLength } from './blockEncoder.js';
import { LZ4Error, readFrame, writeFrame } from './lz4.js';
import { storedLength } from './sealedLayout.js';
import { runSteps, runStepsInSlices } from './timeSlice.js';

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./crypto/recordSealer.js').SealedRecord} SealedRecord */
/** @typedef {import('./timeSlice.js').TimeSlice} TimeSlice */

/** A frame's records stop short of this (bytes of the raw record stream), as the Swift writer's. */
export const WRITER_CONTENT_LIMIT = 2 << 20;

/**
 * Frames refused: `offset` is the byte where the faulty frame starts; `record` the index (in all
 * the frames) of the record §3 refuses, when the frame and its blocks are sound.
 */
export class FramesError extends Error {
  /** @param {number} offset @param {string} reason @param {number | null} [record] */
  constructor(offset, reason, record = null) {
    super(`the record frames are malformed at byte ${offset}: ${reason}`);
    this.name = 'FramesError';
    this.offset = offset;
    this.reason = reason;
    this.record = record;
  }
}

/**
 * Every record of `bytes` (zero or more whole data frames) in order, and how many each frame holds.
 * @param {Uint8Array} bytes
 * @returns {{events: LedgerEvent[], counts: number[]}}
 */
export function readFrames(bytes) {
  return runSteps(frameSteps(bytes));
}

/**
 * Every sealed record of an encrypted account's frames (segment-format.md §3.6), in order, and how
 * many each frame holds: refused as readFrames refuses, and for a plaintext record in them.
 * @param {Uint8Array} bytes
 * @returns {{sealed: SealedRecord[], counts: number[]}}
 */
export function readSealedFrames(bytes) {
  /** @type {SealedRecord[]} */
  const sealed = [];
  const { counts } = runSteps(frameSteps(bytes, [], sealed));
  return { sealed, counts };
}

/**
 * readFrames in slices of the page's time (timeSlice.js): the same refusals, with the page given
 * back between two (a chunk of 100,000 records takes hundreds of ms to decode at 4×). The records
 * are appended to `events` (a replica's, chunk after chunk, with no copy); on a refusal, some of
 * them may have been.
 * @param {Uint8Array} bytes @param {TimeSlice} slice @param {LedgerEvent[]} events
 */
export function readFramesInSlices(bytes, slice, events) {
  return runStepsInSlices(frameSteps(bytes, events), slice);
}

/**
 * readFrames as steps, appending to `events`: pauses after each frame is read and after every few
 * records decoded.
 * @param {Uint8Array} bytes @param {LedgerEvent[]} [events]
 * @param {SealedRecord[] | null} [sealed] an encrypted account's frames: their records go here
 * @returns {Generator<void, {events: LedgerEvent[], counts: number[]}, void>}
 */
function* frameSteps(bytes, events = [], sealed = null) {
  const taken = sealed ?? events;
  const first = taken.length;
  /** @type {number[]} */
  const counts = [];
  let offset = 0;
  while (offset < bytes.length) {
    let frame;
    try {
      frame = readFrame(bytes, offset);
    } catch (error) {
      if (error instanceof LZ4Error) throw new FramesError(offset, error.message);
      throw error;
    }
    yield;
    try {
      counts.push(yield* blockSteps(frame.content, events, sealed));
    } catch (error) {
      if (!(error instanceof BlockError)) throw error;
      if (error.record !== null) throw new FramesError(offset, error.message, taken.length - first + error.record);
      throw new FramesError(offset, `a block is malformed at byte ${error.offset} of its frame: ${error.message}`);
    }
    offset += frame.length;
  }
  return { events, counts };
}

/**
 * Frames holding `events` (valid records) in order, a new frame before one's records would pass
 * WRITER_CONTENT_LIMIT bytes, as the Swift writer splits them.
 * @param {LedgerEvent[]} events
 */
export function writeFrames(events) {
  return framesOf(events, (e) => recordLength(e)[0], encodeBlocks);
}

/**
 * Frames holding an encrypted account's sealed records in order (segment-format.md §3.6), cut
 * as writeFrames cuts them.
 * @param {SealedRecord[]} records
 */
export function writeSealedFrames(records) {
  return framesOf(records, storedLength, encodeSealedBlocks);
}

/**
 * `records` as frames, a new one before a frame's records would pass WRITER_CONTENT_LIMIT bytes
 * (`length` of each in the raw record stream), each frame's blocks made by `blocks`.
 * @template R
 * @param {R[]} records @param {(record: R) => number} length @param {(records: R[]) => Uint8Array} blocks
 */
function framesOf(records, length, blocks) {
  /** @type {Uint8Array[]} */
  const frames = [];
  let start = 0, bytes = 0;
  for (let i = 0; i <= records.length; i++) {
    const size = i < records.length ? length(records[i]) : 0;
    if (i === records.length || (i > start && bytes + size > WRITER_CONTENT_LIMIT)) {
      if (i > start) frames.push(writeFrame(blocks(records.slice(start, i))));
      start = i;
      bytes = 0;
    }
    bytes += size;
  }
  const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) { out.set(f, at); at += f.length; }
  return out;
}
