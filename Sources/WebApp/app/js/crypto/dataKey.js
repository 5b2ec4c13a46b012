// One epoch's data key of an end-to-end encrypted account and the subkeys derived from it
// (Schemas/encryption.md §2), with WebCrypto: each subkey is HKDF-SHA256(K, salt empty, info
// LABEL), exactly as Swift's DataKey (Sources/LedgerSync/Encryption/DataKey.swift).
//
// Keys for daily use are non-extractable CryptoKeys: the HKDF base key is imported
// non-extractable, and K_seal (AES-GCM), K_nonce (HMAC-SHA256) and K_chain (AES-GCM) are derived
// non-extractable. The raw 32 bytes of K are kept (a private copy) only when the key is imported
// with `{extractable: true}`: wrapping it (keyWrap.js: a link, the key chain, the device's own
// storage) and writing its recovery kit (recoveryKit.js) need them, and WebCrypto cannot wrap a
// key it derives from (an HKDF key is never extractable). A key for sealing and opening only
// should be imported without them.

import { encodeCrockford } from './crockford.js';
import { isU32 } from './bytes.js';

/** The byte length of a data key. */
export const DATA_KEY_BYTES = 32;

const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/** The ASCII labels of §2's subkeys. */
export const LABELS = /** @type {const} */ ({
  seal: 'oritsubushi/v1 seal',
  nonce: 'oritsubushi/v1 nonce',
  chain: 'oritsubushi/v1 chain',
  fingerprint: 'oritsubushi/v1 fingerprint',
  link: 'oritsubushi/v1 link',
});

/**
 * `bytes` as a non-extractable HKDF-SHA256 base key.
 * @param {Uint8Array} bytes
 */
export function importHkdfBase(bytes) {
  return crypto.subtle.importKey('raw', bytes, 'HKDF', false, ['deriveBits', 'deriveKey']);
}

/** @param {string} label */
function hkdfParams(label) {
  return { name: 'HKDF', hash: 'SHA-256', salt: EMPTY, info: encoder.encode(label) };
}

/**
 * The 32-byte subkey `label` of `base` as a non-extractable AES-256-GCM key.
 * @param {CryptoKey} base @param {string} label
 */
export function deriveAesGcmKey(base, label) {
  return crypto.subtle.deriveKey(hkdfParams(label), base, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/**
 * The 32-byte subkey `label` of `base` as a non-extractable HMAC-SHA256 key.
 * @param {CryptoKey} base @param {string} label
 */
function deriveHmacKey(base, label) {
  return crypto.subtle.deriveKey(hkdfParams(label), base, { name: 'HMAC', hash: 'SHA-256', length: 256 }, false, ['sign']);
}

/** One epoch's data key: its epoch, subkeys and fingerprint. Made by importDataKey. */
export class DataKey {
  /** @type {Uint8Array | null} */
  #bytes;

  /**
   * @param {number} epoch @param {CryptoKey} sealKey @param {CryptoKey} nonceKey
   * @param {CryptoKey} chainKey @param {string} fingerprint @param {Uint8Array | null} bytes
   */
  constructor(epoch, sealKey, nonceKey, chainKey, fingerprint, bytes) {
    /** The key's epoch (u32). */
    this.epoch = epoch;
    /** K_seal: the AES-256-GCM key that seals records. */
    this.sealKey = sealKey;
    /** K_nonce: the HMAC-SHA256 key of the synthetic nonce (the keyed content id). */
    this.nonceKey = nonceKey;
    /** K_chain: the AES-256-GCM key that wraps the epoch before this one (§4, purpose chain). */
    this.chainKey = chainKey;
    /** The fingerprint: 8 Crockford base32 characters in two groups of 4 (`7KQ2-M9XD`). */
    this.fingerprint = fingerprint;
    this.#bytes = bytes;
    Object.freeze(this);
  }

  /** Whether the raw bytes were kept (`{extractable: true}`), for wrapping and the kit. */
  get extractable() {
    return this.#bytes !== null;
  }

  /** A copy of the raw 32 bytes of K; throws unless the key was imported extractable. */
  bytes() {
    if (this.#bytes === null) throw new TypeError('this data key was imported without its bytes (extractable: false)');
    return this.#bytes.slice();
  }
}

/**
 * A data key of these 32 bytes and epoch, its subkeys derived.
 * @param {Uint8Array} bytes exactly 32 bytes
 * @param {number} epoch a u32
 * @param {{extractable?: boolean}} [options] keep a copy of the bytes (for wrap and the kit)
 * @returns {Promise<DataKey>}
 */
export async function importDataKey(bytes, epoch, options = {}) {
  const extractable = options.extractable ?? false;
  if (!(bytes instanceof Uint8Array) || bytes.length !== DATA_KEY_BYTES) throw new RangeError(`a data key is ${DATA_KEY_BYTES} bytes`);
  if (!isU32(epoch)) throw new RangeError(`a key epoch is a u32, not ${epoch}`);
  const base = await importHkdfBase(bytes);
  const [sealKey, nonceKey, chainKey, digits] = await Promise.all([
    deriveAesGcmKey(base, LABELS.seal),
    deriveHmacKey(base, LABELS.nonce),
    deriveAesGcmKey(base, LABELS.chain),
    crypto.subtle.deriveBits(hkdfParams(LABELS.fingerprint), base, 5 * 8)
      .then((bits) => encodeCrockford(new Uint8Array(bits))),
  ]);
  const fingerprint = `${digits.slice(0, 4)}-${digits.slice(4)}`;
  return new DataKey(epoch, sealKey, nonceKey, chainKey, fingerprint, extractable ? bytes.slice() : null);
}

/**
 * A new random key for `epoch`, from the system's secure generator (crypto.getRandomValues).
 * @param {number} epoch @param {{extractable?: boolean}} [options]
 */
export function randomDataKey(epoch, options) {
  return importDataKey(crypto.getRandomValues(new Uint8Array(DATA_KEY_BYTES)), epoch, options);
}
