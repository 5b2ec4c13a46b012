// A data key wrapped for travel or storage (Schemas/encryption.md §4), byte for byte as Swift's
// KeyWrap (Sources/LedgerSync/Encryption/KeyWrap.swift):
//   wrapped = N ‖ AES-256-GCM(W, N, u32 epoch ‖ K, "ORTSBWRAP1" ‖ u8 purpose)   (64 bytes)
// Purposes: link 1 (W from the link's secret, linkWrappingKey), chain 2 (W the next epoch's
// K_chain, chainWrappingKey), device 3 (W a non-extractable AES-GCM key kept in IndexedDB,
// newDeviceWrappingKey).

import { SealError } from './sealError.js';
import { DATA_KEY_BYTES, LABELS, deriveAesGcmKey, importDataKey, importHkdfBase } from './dataKey.js';
import { concatBytes, readU32le, u32le } from './bytes.js';

/** @typedef {import('./dataKey.js').DataKey} DataKey */
/** @typedef {'link' | 'chain' | 'device'} WrapPurpose */

/** The byte of each purpose, part of what the tag authenticates. */
export const WRAP_PURPOSES = /** @type {const} */ ({ link: 1, chain: 2, device: 3 });
export const WRAPPED_BYTES = 64;
export const LINK_SECRET_BYTES = 32;
const NONCE_BYTES = 12;
const WRAP_MAGIC = new TextEncoder().encode('ORTSBWRAP1');

/** @param {WrapPurpose} purpose */
function associatedData(purpose) {
  const code = WRAP_PURPOSES[purpose];
  if (code === undefined) throw new RangeError(`unknown key wrap purpose ${purpose}`);
  return concatBytes(WRAP_MAGIC, Uint8Array.of(code));
}

/**
 * The wrapping key of a link: HKDF-SHA256(secret, salt empty, info "oritsubushi/v1 link", 32),
 * a non-extractable AES-256-GCM key. The secret: 32 random bytes carried in the link's fragment.
 * @param {Uint8Array} secret
 */
export async function linkWrappingKey(secret) {
  if (secret.length !== LINK_SECRET_BYTES) throw new SealError('length');
  return deriveAesGcmKey(await importHkdfBase(secret), LABELS.link);
}

/**
 * The wrapping key of the key chain: epoch e's key is wrapped under epoch e + 1's K_chain.
 * @param {DataKey} nextKey the key of the epoch after the wrapped one
 */
export function chainWrappingKey(nextKey) {
  return nextKey.chainKey;
}

/** A new non-extractable AES-256-GCM key for the device's own storage of its keys (purpose device). */
export function newDeviceWrappingKey() {
  return /** @type {Promise<CryptoKey>} */ (crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']));
}

/**
 * `dataKey` (imported `{extractable: true}`: its bytes are what is wrapped) wrapped under
 * `wrappingKey` for `purpose`: 64 bytes. `nonce` (12 bytes) only for fixed test vectors; random
 * otherwise.
 * @param {DataKey} dataKey @param {CryptoKey} wrappingKey @param {WrapPurpose} purpose
 * @param {Uint8Array} [nonce]
 * @returns {Promise<Uint8Array>}
 */
export async function wrapKey(dataKey, wrappingKey, purpose, nonce) {
  if (nonce !== undefined && nonce.length !== NONCE_BYTES) throw new RangeError(`a key wrap nonce is ${NONCE_BYTES} bytes`);
  const n = nonce ?? crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const plaintext = concatBytes(u32le(dataKey.epoch), dataKey.bytes());
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv: n, additionalData: associatedData(purpose), tagLength: 128 },
    wrappingKey, plaintext);
  plaintext.fill(0);
  return concatBytes(n, new Uint8Array(sealed));
}

/**
 * The key `wrapped` holds. SealError `length` unless 64 bytes, `unauthentic` unless sealed under
 * `wrappingKey` for `purpose`.
 * @param {Uint8Array} wrapped @param {CryptoKey} wrappingKey @param {WrapPurpose} purpose
 * @param {{extractable?: boolean}} [options] as importDataKey's
 * @returns {Promise<DataKey>}
 */
export async function unwrapKey(wrapped, wrappingKey, purpose, options) {
  if (wrapped.length !== WRAPPED_BYTES) throw new SealError('length');
  const ad = associatedData(purpose);
  /** @type {Uint8Array} */
  let plaintext;
  try {
    plaintext = new Uint8Array(await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: wrapped.subarray(0, NONCE_BYTES), additionalData: ad, tagLength: 128 },
      wrappingKey, wrapped.subarray(NONCE_BYTES)));
  } catch {
    throw new SealError('unauthentic');
  }
  try {
    return await importDataKey(plaintext.slice(4, 4 + DATA_KEY_BYTES), readU32le(plaintext, 0), options);
  } finally {
    plaintext.fill(0);
  }
}
