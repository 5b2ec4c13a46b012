// A QR code encoder for the pairing link that 同期 shows (ISO/IEC 18004): byte mode, error
// correction level M, versions 1 to 10 (up to 213 bytes, a link is about 40), the mask with the
// lowest penalty, format and version information. It returns the module matrix; ui/qrSvg.js draws
// it. Tests/WebApp/qrCode.test.mjs checks it against the standard's tables and a matrix that
// zbarimg decoded.

/** @typedef {{version: number, size: number, mask: number, modules: boolean[][]}} QrCode */

/** The text is longer than version 10 holds at level M. */
export class QrTooLong extends Error {
  /** @param {number} bytes */
  constructor(bytes) {
    super(`${bytes} bytes do not fit in a QR code of version 10 at level M (${MAX_BYTES} bytes)`);
    this.name = 'QrTooLong';
  }
}

export const MAX_VERSION = 10;
/** Error correction codewords per block, level M, by version (index 0 unused). */
const EC_PER_BLOCK = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26];
/** Blocks, level M, by version. */
const BLOCKS = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5];
/** Level M's two bits in the format information (L 01, M 00, Q 11, H 10). */
const LEVEL_M = 0b00;

/**
 * Modules that carry data or error correction (everything but the function patterns).
 * @param {number} version
 */
export function rawDataModules(version) {
  let n = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    n -= (25 * align - 10) * align - 55;
    if (version >= 7) n -= 36;
  }
  return n;
}

/**
 * Data codewords of a version at level M.
 * @param {number} version
 */
export function dataCodewords(version) {
  return Math.floor(rawDataModules(version) / 8) - EC_PER_BLOCK[version] * BLOCKS[version];
}

/**
 * Bytes a version holds in byte mode (4 bits of mode, 8 or 16 of count).
 * @param {number} version
 */
export function byteCapacity(version) {
  return Math.floor((dataCodewords(version) * 8 - 4 - (version < 10 ? 8 : 16)) / 8);
}

export const MAX_BYTES = byteCapacity(MAX_VERSION);

// MARK: - Reed–Solomon over GF(256), polynomial x^8 + x^4 + x^3 + x^2 + 1

/** @param {number} a @param {number} b */
function gfMultiply(a, b) {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((b >>> i) & 1) * a;
  }
  return z;
}

/**
 * The generator polynomial of `degree` (roots α^0 … α^(degree−1)), highest term first, without
 * its leading 1.
 * @param {number} degree
 */
function generator(degree) {
  const out = new Array(degree).fill(0);
  out[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      out[j] = gfMultiply(out[j], root);
      if (j + 1 < degree) out[j] ^= out[j + 1];
    }
    root = gfMultiply(root, 0x02);
  }
  return out;
}

/**
 * The error correction codewords of one block.
 * @param {ArrayLike<number>} data
 * @param {number} degree
 * @returns {number[]}
 */
export function reedSolomon(data, degree) {
  const divisor = generator(degree);
  const out = new Array(degree).fill(0);
  for (let i = 0; i < data.length; i++) {
    const factor = data[i] ^ /** @type {number} */ (out.shift());
    out.push(0);
    for (let j = 0; j < degree; j++) out[j] ^= gfMultiply(divisor[j], factor);
  }
  return out;
}

// MARK: - BCH codes of the format and version information

/**
 * The 15 format bits of level M and a mask, masked with 101010000010010.
 * @param {number} mask 0…7
 */
export function formatBits(mask) {
  const data = (LEVEL_M << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  return ((data << 10) | rem) ^ 0x5412;
}

/**
 * The 18 version bits (versions 7 and up).
 * @param {number} version
 */
export function versionBits(version) {
  let rem = version;
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
  return (version << 12) | rem;
}

// MARK: - Codewords

/**
 * The smallest version that holds `length` bytes, or null.
 * @param {number} length
 */
export function versionFor(length) {
  for (let v = 1; v <= MAX_VERSION; v++) if (length <= byteCapacity(v)) return v;
  return null;
}

/**
 * Mode, count, bytes, terminator and padding: the data codewords.
 * @param {Uint8Array} bytes @param {number} version
 */
function dataCodewordsOf(bytes, version) {
  /** @type {number[]} */
  const bits = [];
  /** @param {number} value @param {number} count */
  const put = (value, count) => { for (let i = count - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  const capacity = dataCodewords(version) * 8;
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  const out = [];
  for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; out.length < dataCodewords(version); pad ^= 0xec ^ 0x11) out.push(pad);
  return out;
}

/**
 * Splits the data into blocks, adds each block's error correction, and interleaves them.
 * @param {number[]} data @param {number} version
 */
function interleave(data, version) {
  const blocks = BLOCKS[version], ec = EC_PER_BLOCK[version];
  const total = Math.floor(rawDataModules(version) / 8);
  const shortBlocks = blocks - (total % blocks);
  const shortData = Math.floor(total / blocks) - ec;
  /** @type {{data: number[], ec: number[]}[]} */
  const split = [];
  for (let i = 0, at = 0; i < blocks; i++) {
    const length = shortData + (i < shortBlocks ? 0 : 1);
    const part = data.slice(at, at + length);
    at += length;
    split.push({ data: part, ec: reedSolomon(part, ec) });
  }
  const out = [];
  for (let i = 0; i <= shortData; i++) for (const b of split) if (i < b.data.length) out.push(b.data[i]);
  for (let i = 0; i < ec; i++) for (const b of split) out.push(b.ec[i]);
  return out;
}

// MARK: - The matrix

/**
 * Centres of the alignment patterns on each axis.
 * @param {number} version
 */
export function alignmentPositions(version) {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = version * 4 + 17;
  const step = Math.ceil((size - 13) / (count * 2 - 2)) * 2;
  const out = [6];
  for (let pos = size - 7; out.length < count; pos -= step) out.splice(1, 0, pos);
  return out;
}

class Matrix {
  /** @param {number} version */
  constructor(version) {
    this.version = version;
    this.size = version * 4 + 17;
    /** @type {boolean[][]} */
    this.modules = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    /** @type {boolean[][]} */
    this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  /** @param {number} x column @param {number} y row @param {boolean} dark */
  setFunction(x, y, dark) {
    this.modules[y][x] = dark;
    this.fixed[y][x] = true;
  }

  drawFunctionPatterns() {
    const size = this.size;
    for (let i = 0; i < size; i++) {
      this.setFunction(6, i, i % 2 === 0);
      this.setFunction(i, 6, i % 2 === 0);
    }
    for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx, y = cy + dy;
          const ring = Math.max(Math.abs(dx), Math.abs(dy));
          if (x >= 0 && x < size && y >= 0 && y < size) this.setFunction(x, y, ring !== 2 && ring !== 4);
        }
      }
    }
    const centres = alignmentPositions(this.version);
    const last = centres.length - 1;
    for (let i = 0; i <= last; i++) {
      for (let j = 0; j <= last; j++) {
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue; // finders
        for (let dy = -2; dy <= 2; dy++) {
          for (let dx = -2; dx <= 2; dx++) this.setFunction(centres[i] + dx, centres[j] + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
        }
      }
    }
    this.drawFormat(0); // reserves the area; drawn again with the chosen mask
    if (this.version >= 7) {
      const bits = versionBits(this.version);
      for (let i = 0; i < 18; i++) {
        const dark = ((bits >>> i) & 1) === 1;
        const a = size - 11 + (i % 3), b = Math.floor(i / 3);
        this.setFunction(a, b, dark);
        this.setFunction(b, a, dark);
      }
    }
  }

  /** @param {number} mask */
  drawFormat(mask) {
    const bits = formatBits(mask), size = this.size;
    /** @param {number} i */
    const bit = (i) => ((bits >>> i) & 1) === 1;
    for (let i = 0; i <= 5; i++) this.setFunction(8, i, bit(i));
    this.setFunction(8, 7, bit(6));
    this.setFunction(8, 8, bit(7));
    this.setFunction(7, 8, bit(8));
    for (let i = 9; i < 15; i++) this.setFunction(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) this.setFunction(size - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) this.setFunction(8, size - 15 + i, bit(i));
    this.setFunction(8, size - 8, true); // the dark module
  }

  /**
   * Places the codewords in the two-column zigzag, right to left, skipping the timing column.
   * @param {number[]} codewords
   */
  drawCodewords(codewords) {
    const size = this.size;
    let i = 0;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      const upward = ((right + 1) & 2) === 0;
      for (let step = 0; step < size; step++) {
        const y = upward ? size - 1 - step : step;
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          if (this.fixed[y][x] || i >= codewords.length * 8) continue;
          this.modules[y][x] = ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
          i++;
        }
      }
    }
  }

  /**
   * Inverts the data modules where the mask's condition holds (applying it twice undoes it).
   * @param {number} mask
   */
  applyMask(mask) {
    for (let y = 0; y < this.size; y++) {
      for (let x = 0; x < this.size; x++) {
        if (!this.fixed[y][x] && maskHolds(mask, x, y)) this.modules[y][x] = !this.modules[y][x];
      }
    }
  }
}

/**
 * The eight mask conditions (x is the column, y the row).
 * @param {number} mask @param {number} x @param {number} y
 */
export function maskHolds(mask, x, y) {
  switch (mask) {
    case 0: return (x + y) % 2 === 0;
    case 1: return y % 2 === 0;
    case 2: return x % 3 === 0;
    case 3: return (x + y) % 3 === 0;
    case 4: return (Math.floor(y / 2) + Math.floor(x / 3)) % 2 === 0;
    case 5: return ((x * y) % 2) + ((x * y) % 3) === 0;
    case 6: return (((x * y) % 2) + ((x * y) % 3)) % 2 === 0;
    default: return (((x + y) % 2) + ((x * y) % 3)) % 2 === 0;
  }
}

const FINDER_LIKE = [[1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 1]];

/**
 * The standard's penalty score: runs of five or more (3 + extra), 2×2 blocks (3), finder-like
 * patterns (40), and the dark share's distance from half (10 per 5 %).
 * @param {boolean[][]} m
 */
export function penalty(m) {
  const n = m.length;
  let score = 0;
  for (let horizontal = 0; horizontal < 2; horizontal++) {
    for (let a = 0; a < n; a++) {
      const line = m.map((_, b) => (horizontal ? m[a][b] : m[b][a]) ? 1 : 0);
      let run = 1;
      for (let b = 1; b <= n; b++) {
        if (b < n && line[b] === line[b - 1]) { run++; continue; }
        if (run >= 5) score += run - 2;
        run = 1;
      }
      for (let b = 0; b + 11 <= n; b++) {
        for (const pattern of FINDER_LIKE) if (pattern.every((v, k) => line[b + k] === v)) score += 40;
      }
    }
  }
  let dark = 0;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      if (m[y][x]) dark++;
      if (x + 1 < n && y + 1 < n && m[y][x] === m[y][x + 1] && m[y][x] === m[y + 1][x] && m[y][x] === m[y + 1][x + 1]) score += 3;
    }
  }
  return score + 10 * Math.floor(Math.abs((dark * 100) / (n * n) - 50) / 5);
}

/**
 * Encodes bytes as a QR code of level M in the smallest version that holds them.
 * @param {Uint8Array} bytes
 * @param {{mask?: number}} [options] a fixed mask (tests); else the one with the lowest penalty
 * @returns {QrCode}
 */
export function encodeBytes(bytes, options = {}) {
  const version = versionFor(bytes.length);
  if (version === null) throw new QrTooLong(bytes.length);
  const matrix = new Matrix(version);
  matrix.drawFunctionPatterns();
  matrix.drawCodewords(interleave(dataCodewordsOf(bytes, version), version));
  let mask = options.mask ?? -1;
  if (mask < 0) {
    let best = Infinity;
    for (let candidate = 0; candidate < 8; candidate++) {
      matrix.applyMask(candidate);
      matrix.drawFormat(candidate);
      const score = penalty(matrix.modules);
      if (score < best) { best = score; mask = candidate; }
      matrix.applyMask(candidate);
    }
  }
  matrix.applyMask(mask);
  matrix.drawFormat(mask);
  return { version, size: matrix.size, mask, modules: matrix.modules };
}

/**
 * Encodes text (as UTF-8) as a QR code of level M.
 * @param {string} text
 * @param {{mask?: number}} [options]
 */
export function encodeText(text, options) {
  return encodeBytes(new TextEncoder().encode(text), options);
}
