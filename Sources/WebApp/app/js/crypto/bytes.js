// Byte helpers of the encryption modules (Schemas/encryption.md): little-endian integers, as in
// segment-format.md, and concatenation.

/** @param {Uint8Array[]} parts */
export function concatBytes(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** @param {number} value a u32 @returns {Uint8Array} 4 bytes, little-endian */
export function u32le(value) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}

/** @param {bigint} value a u64 @returns {Uint8Array} 8 bytes, little-endian */
export function u64le(value) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, value, true);
  return out;
}

/** @param {Uint8Array} bytes @param {number} at */
export function readU32le(bytes, at) {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

/** @param {Uint8Array} bytes @param {number} at */
export function readU64le(bytes, at) {
  return BigInt(readU32le(bytes, at)) | (BigInt(readU32le(bytes, at + 4)) << 32n);
}

/** Whether two byte strings are equal (not constant-time: for public values such as nonces). */
export function equalBytes(/** @type {Uint8Array} */ a, /** @type {Uint8Array} */ b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Whether `value` is a whole number of 0 … 2^32 − 1.
 * @param {unknown} value
 */
export function isU32(value) {
  return Number.isInteger(value) && /** @type {number} */ (value) >= 0 && /** @type {number} */ (value) <= 0xffffffff;
}
