// Where the app keeps an encrypted account's keys (Schemas/encryption.md §4 purpose 3, §11 "The
// client"): in IndexedDB `meta`, under `encryption`, each epoch's key wrapped under a
// non-extractable AES-GCM key that is itself kept there (a CryptoKey, stored by structured clone:
// script can use it but never read its bytes). Written as every durable change of the app is, in
// one `durability: "strict"` transaction (Ledger.setMeta), so a key this device made or received
// is on disk before the server hears of it.

import { KeyRing } from './crypto/keyRing.js';
import { newDeviceWrappingKey, unwrapKey, wrapKey } from './crypto/keyWrap.js';

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./crypto/dataKey.js').DataKey} DataKey */

/**
 * The stored form: the wrapping key and each epoch's key wrapped under it (64 bytes), with its
 * marks (`rehearsed`: the person re-entered two words of its kit; `made`: this device made it).
 * @typedef {object} StoredKeys
 * @property {CryptoKey} wrappingKey
 * @property {Array<{epoch: number, wrapped: Uint8Array, rehearsed: boolean, made: boolean}>} keys
 */

export const KEYS_META = 'encryption';

/** The stored keys cannot be unwrapped (another browser profile's data, or damaged). */
export class KeyStoreError extends Error {}

/**
 * The keys this device holds, or null when it holds none. Each is unwrapped with its bytes kept
 * in memory (links and the kit need them).
 * @param {Ledger} ledger
 * @returns {Promise<KeyRing | null>}
 */
export async function loadKeys(ledger) {
  const stored = /** @type {StoredKeys | undefined} */ (ledger.getMeta(KEYS_META));
  if (!stored || !Array.isArray(stored.keys) || stored.keys.length === 0) return null;
  /** @type {DataKey[]} */
  const keys = [];
  for (const entry of stored.keys) {
    try {
      keys.push(await unwrapKey(entry.wrapped, stored.wrappingKey, 'device', { extractable: true }));
    } catch {
      throw new KeyStoreError(`this device's stored key of epoch ${entry.epoch} cannot be unwrapped`);
    }
  }
  return new KeyRing(keys, stored.keys.filter((e) => e.rehearsed).map((e) => e.epoch), stored.keys.filter((e) => e.made).map((e) => e.epoch));
}

/**
 * Keeps `ring` (every key wrapped again under the device's wrapping key, made on first use).
 * @param {Ledger} ledger @param {KeyRing} ring
 */
export async function saveKeys(ledger, ring) {
  const stored = /** @type {StoredKeys | undefined} */ (ledger.getMeta(KEYS_META));
  const wrappingKey = stored?.wrappingKey ?? await newDeviceWrappingKey();
  const keys = [];
  for (const key of ring.keys) {
    keys.push({ epoch: key.epoch, wrapped: await wrapKey(key, wrappingKey, 'device'), rehearsed: ring.rehearsed.has(key.epoch), made: ring.made.has(key.epoch) });
  }
  /** @type {StoredKeys} */
  const value = { wrappingKey, keys };
  await ledger.setMeta({ [KEYS_META]: value });
}

/**
 * Adds `key` (made here, received with a link, or read from the kit) to what this device keeps.
 * @param {Ledger} ledger @param {DataKey} key @param {{made?: boolean}} [options]
 * @returns {Promise<KeyRing>}
 */
export async function keepKey(ledger, key, options = {}) {
  const held = await loadKeys(ledger).catch(() => null);
  const ring = held ? held.adding(key, options) : new KeyRing([key], [], options.made ? [key.epoch] : []);
  await saveKeys(ledger, ring);
  return ring;
}
