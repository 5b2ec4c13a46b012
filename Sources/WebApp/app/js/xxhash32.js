// xxHash32 (seed 0 unless given), the checksum of LZ4 frames: their header, block and content
// checksums (Schemas/segment-format.md §2, the LZ4 frame format 1.6). Over a Uint8Array range,
// with 32-bit integer arithmetic (Math.imul) and no allocation.

const P1 = 0x9e3779b1 | 0;
const P2 = 0x85ebca77 | 0;
const P3 = 0xc2b2ae3d | 0;
const P4 = 0x27d4eb2f | 0;
const P5 = 0x165667b1 | 0;

/** @param {number} x @param {number} r */
function rotl(x, r) {
  return (x << r) | (x >>> (32 - r));
}

/** @param {Uint8Array} b @param {number} i */
function u32(b, i) {
  return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
}

/**
 * The xxHash32 of bytes[start ..< end], as an unsigned 32-bit number.
 * @param {Uint8Array} bytes @param {number} [start] @param {number} [end] @param {number} [seed]
 */
export function xxhash32(bytes, start = 0, end = bytes.length, seed = 0) {
  let i = start;
  let h;
  if (end - start >= 16) {
    let v1 = (seed + P1 + P2) | 0, v2 = (seed + P2) | 0, v3 = seed | 0, v4 = (seed - P1) | 0;
    const limit = end - 16;
    while (i <= limit) {
      v1 = Math.imul(rotl((v1 + Math.imul(u32(bytes, i), P2)) | 0, 13), P1);
      v2 = Math.imul(rotl((v2 + Math.imul(u32(bytes, i + 4), P2)) | 0, 13), P1);
      v3 = Math.imul(rotl((v3 + Math.imul(u32(bytes, i + 8), P2)) | 0, 13), P1);
      v4 = Math.imul(rotl((v4 + Math.imul(u32(bytes, i + 12), P2)) | 0, 13), P1);
      i += 16;
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else {
    h = (seed + P5) | 0;
  }
  h = (h + (end - start)) | 0;
  while (i + 4 <= end) {
    h = Math.imul(rotl((h + Math.imul(u32(bytes, i), P3)) | 0, 17), P4);
    i += 4;
  }
  while (i < end) {
    h = Math.imul(rotl((h + Math.imul(bytes[i], P5)) | 0, 11), P1);
    i++;
  }
  h = Math.imul(h ^ (h >>> 15), P2);
  h = Math.imul(h ^ (h >>> 13), P3);
  return (h ^ (h >>> 16)) >>> 0;
}
