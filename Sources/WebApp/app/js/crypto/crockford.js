// Crockford's base32 (Schemas/encryption.md §6): 5 bits a character, most significant bit first,
// the alphabet without I, L, O and U, read leniently (lower case, O as 0, I and L as 1).
// As Swift's CrockfordBase32 (Sources/LedgerSync/Encryption/CrockfordBase32.swift).

export const CROCKFORD_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * `bytes` as characters; a last group of fewer than 5 bits is padded with zero bits.
 * @param {Uint8Array} bytes
 */
export function encodeCrockford(bytes) {
  let text = '';
  let buffer = 0, bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xfff; // at most 12 bits are ever pending
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      text += CROCKFORD_ALPHABET[(buffer >> bits) & 31];
    }
  }
  if (bits > 0) text += CROCKFORD_ALPHABET[(buffer << (5 - bits)) & 31];
  return text;
}

/**
 * The value of one character as a reader takes it (lower case as upper, O as 0, I and L as 1),
 * or null for a character outside the alphabet.
 * @param {string} character one UTF-16 code unit
 * @returns {number | null}
 */
export function crockfordValue(character) {
  const upper = character >= 'a' && character <= 'z' ? character.toUpperCase() : character;
  if (upper === 'O') return 0;
  if (upper === 'I' || upper === 'L') return 1;
  if (upper.length !== 1) return null;
  const value = CROCKFORD_ALPHABET.indexOf(upper);
  return value < 0 ? null : value;
}

/**
 * The first `byteCount` bytes of the bits of `values` (characters already read by
 * crockfordValue), most significant first.
 * @param {number[]} values @param {number} byteCount
 */
export function decodeCrockford(values, byteCount) {
  const out = new Uint8Array(byteCount);
  let count = 0, buffer = 0, bits = 0;
  for (const value of values) {
    if (count >= byteCount) break;
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[count++] = (buffer >> bits) & 0xff;
    }
  }
  return out.subarray(0, count);
}
