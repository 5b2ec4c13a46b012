// LZ4 frames as the segment format uses them (Schemas/segment-format.md §2: the LZ4 frame format
// 1.6 with block and content checksums and the content size, content ≤ 4 MiB): a reader that
// checks everything liblz4's does and never reads or writes out of bounds, and a writer of frames
// whose one block is stored uncompressed (the frame format allows it, and every LZ4 reader, the
// Swift segment reader among them, takes it), which is all the app needs to write its own chunks.

import { xxhash32 } from './xxhash32.js';

export const FRAME_MAGIC = 0x184d2204;
/** The largest content a data frame may carry (segment-format.md §2). */
export const MAX_CONTENT = 4 << 20;
const HEADER = 15;

/** Bytes that are not a sound LZ4 frame; `offset` is where in the bytes given the fault lies. */
export class LZ4Error extends Error {
  /** @param {string} message @param {number} offset */
  constructor(message, offset) {
    super(message);
    this.name = 'LZ4Error';
    this.offset = offset;
  }
}

/** @param {Uint8Array} b @param {number} i */
function u32(b, i) {
  return (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
}

/**
 * Decodes one LZ4 block src[start ..< end] into dst from `out`, where a match may reach back to
 * dst[floor]; returns the new end of the output. Never writes at or past `limit`.
 * @param {Uint8Array} src @param {number} start @param {number} end
 * @param {Uint8Array} dst @param {number} out @param {number} limit @param {number} floor
 */
export function decodeBlock(src, start, end, dst, out, limit, floor) {
  let i = start, o = out;
  for (;;) {
    if (i >= end) throw new LZ4Error('an LZ4 block is cut short', i);
    const token = src[i++];
    let literals = token >>> 4;
    if (literals === 15) {
      let b;
      do {
        if (i >= end) throw new LZ4Error('an LZ4 block is cut short', i);
        b = src[i++];
        literals += b;
      } while (b === 255);
    }
    if (literals > end - i) throw new LZ4Error('an LZ4 block\'s literals run past it', i);
    if (literals > limit - o) throw new LZ4Error('an LZ4 block decodes to more than its frame declares', i);
    if (literals > 0) {
      dst.set(src.subarray(i, i + literals), o);
      i += literals;
      o += literals;
    }
    if (i === end) return o;
    if (end - i < 2) throw new LZ4Error('an LZ4 block is cut short', i);
    const distance = src[i] | (src[i + 1] << 8);
    i += 2;
    if (distance === 0 || distance > o - floor) throw new LZ4Error('an LZ4 match reaches before its output', i - 2);
    let length = (token & 15) + 4;
    if ((token & 15) === 15) {
      let b;
      do {
        if (i >= end) throw new LZ4Error('an LZ4 block is cut short', i);
        b = src[i++];
        length += b;
      } while (b === 255);
    }
    if (length > limit - o) throw new LZ4Error('an LZ4 block decodes to more than its frame declares', i);
    let from = o - distance;
    if (distance >= length) {
      dst.copyWithin(o, from, from + length);
      o += length;
    } else {
      for (const stop = o + length; o < stop;) dst[o++] = dst[from++];
    }
  }
}

/**
 * The frame starting at bytes[offset]: its length and decoded content, every checksum checked.
 * Throws LZ4Error naming the byte of the fault (in `bytes`).
 * @param {Uint8Array} bytes @param {number} [offset]
 * @returns {{length: number, content: Uint8Array}}
 */
export function readFrame(bytes, offset = 0) {
  const n = bytes.length;
  if (n - offset < 7) throw new LZ4Error('the frame is cut off', offset);
  if (u32(bytes, offset) !== FRAME_MAGIC) throw new LZ4Error('not an LZ4 frame', offset);
  const flg = bytes[offset + 4], bd = bytes[offset + 5];
  if (flg >>> 6 !== 1) throw new LZ4Error('unsupported LZ4 frame version', offset + 4);
  if ((flg & 0x02) !== 0 || (bd & 0x8f) !== 0 || (bd >>> 4) < 4) throw new LZ4Error('bad LZ4 frame descriptor', offset + 4);
  if ((flg & 0x1d) !== 0x1c) throw new LZ4Error('an LZ4 frame lacks its content size or checksums', offset + 4);
  if (n - offset < HEADER) throw new LZ4Error('the frame is cut off', offset);
  const high = u32(bytes, offset + 10), size = u32(bytes, offset + 6);
  if (high !== 0 || size > MAX_CONTENT) throw new LZ4Error('an LZ4 frame declares more than 4 MiB of content', offset + 6);
  if (((xxhash32(bytes, offset + 4, offset + 14) >>> 8) & 0xff) !== bytes[offset + 14]) {
    throw new LZ4Error('an LZ4 frame fails its header checksum', offset + 14);
  }
  const maxBlock = 1 << (8 + 2 * (bd >>> 4));
  const content = new Uint8Array(size);
  let at = offset + HEADER, written = 0;
  for (;;) {
    if (n - at < 4) throw new LZ4Error('the frame is cut off', offset);
    const word = u32(bytes, at);
    at += 4;
    if (word === 0) break;
    const length = word & 0x7fffffff;
    if (length > maxBlock) throw new LZ4Error('an LZ4 block is larger than its frame allows', at - 4);
    if (n - at < length + 4) throw new LZ4Error('the frame is cut off', offset);
    if (xxhash32(bytes, at, at + length) !== u32(bytes, at + length)) throw new LZ4Error('an LZ4 block fails its checksum', at);
    const limit = Math.min(size, written + maxBlock);
    if (word & 0x80000000) {
      if (length > limit - written) throw new LZ4Error('an LZ4 frame holds more content than it declares', at);
      content.set(bytes.subarray(at, at + length), written);
      written += length;
    } else {
      written = decodeBlock(bytes, at, at + length, content, written, limit, 0);
    }
    at += length + 4;
  }
  if (n - at < 4) throw new LZ4Error('the frame is cut off', offset);
  if (written !== size) throw new LZ4Error('the frame\'s content does not match its declared size', offset);
  if (xxhash32(content) !== u32(bytes, at)) throw new LZ4Error('an LZ4 frame fails its content checksum', at);
  return { length: at + 4 - offset, content };
}

/**
 * One frame holding `content` (≤ 4 MiB) in a single uncompressed block, with the flags the segment
 * format requires (independent blocks, block and content checksums, content size; 4 MB blocks).
 * @param {Uint8Array} content
 */
export function writeFrame(content) {
  if (content.length > MAX_CONTENT) throw new RangeError('a frame holds at most 4 MiB of content');
  const blocks = content.length > 0 ? 8 + content.length : 0;
  const out = new Uint8Array(HEADER + blocks + 8);
  const view = new DataView(out.buffer);
  view.setUint32(0, FRAME_MAGIC, true);
  out[4] = 0x7c;
  out[5] = 0x70;
  view.setUint32(6, content.length, true);
  out[14] = (xxhash32(out, 4, 14) >>> 8) & 0xff;
  let at = HEADER;
  if (content.length > 0) {
    view.setUint32(at, (content.length | 0x80000000) >>> 0, true);
    out.set(content, at + 4);
    view.setUint32(at + 4 + content.length, xxhash32(content), true);
    at += 8 + content.length;
  }
  view.setUint32(at, 0, true);
  view.setUint32(at + 4, xxhash32(content), true);
  return out;
}
