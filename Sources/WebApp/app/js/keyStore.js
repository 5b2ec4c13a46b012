// Where the app keeps an encrypted account's keys (Schemas/encryption.md §4 purpose 3, §11 "The
// client"): in IndexedDB `meta`, under `encryption`, each epoch's key wrapped under a
// non-extractable AES-GCM key that is itself kept there (a CryptoKey, stored by structured clone:
// script can use it but never read its bytes). Written as every durable change of the app is, in
// one `durability: "strict"` transaction (Ledger.setMeta), so a key this device made or received
// is on disk before the server hears of it.
//
// While this device turns its plaintext account encrypted (accountConversion.js, Schemas/
// encryption.md §9), `conversion` in `meta` names the key it made for it: that key is kept from the
// start, so that an interrupted conversion resumes with it, but it is not the account's yet, so
// nothing else sees it (no kit, no fingerprint, no link carrying it) until the server swapped.

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
/** `{fingerprint}` of the key a conversion under way made; absent otherwise. */
export const CONVERSION_META = 'conversion';

/** The stored keys cannot be unwrapped (another browser profile's data, or damaged). */
export class KeyStoreError extends Error {}

/**
 * The keys this device holds, or null when it holds none (or, unless `duringConversion`, while a
 * conversion's key is not the account's yet). Each is unwrapped with its bytes kept in memory
 * (links and the kit need them).
 * @param {Ledger} ledger @param {{duringConversion?: boolean}} [options]
 * @returns {Promise<KeyRing | null>}
 */
export async function loadKeys(ledger, options = {}) {
  if (!options.duringConversion && conversionKey(ledger) !== null) return null;
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
 * Keeps `ring` (every key wrapped again under the device's wrapping key, made on first use), with
 * `alsoMeta` in the same write.
 * @param {Ledger} ledger @param {KeyRing} ring @param {Record<string, unknown>} [alsoMeta]
 */
export async function saveKeys(ledger, ring, alsoMeta = {}) {
  const stored = /** @type {StoredKeys | undefined} */ (ledger.getMeta(KEYS_META));
  const wrappingKey = stored?.wrappingKey ?? await newDeviceWrappingKey();
  const keys = [];
  for (const key of ring.keys) {
    keys.push({ epoch: key.epoch, wrapped: await wrapKey(key, wrappingKey, 'device'), rehearsed: ring.rehearsed.has(key.epoch), made: ring.made.has(key.epoch) });
  }
  /** @type {StoredKeys} */
  const value = { wrappingKey, keys };
  await ledger.setMeta({ [KEYS_META]: value, ...alsoMeta });
}

/**
 * Adds `key` (made here, received with a link, or read from the kit) to what this device keeps;
 * `converting`: made for a conversion, and named as its key in the same write.
 * @param {Ledger} ledger @param {DataKey} key @param {{made?: boolean, converting?: boolean}} [options]
 * @returns {Promise<KeyRing>}
 */
export async function keepKey(ledger, key, options = {}) {
  const held = await loadKeys(ledger, { duringConversion: true }).catch(() => null);
  const ring = held ? held.adding(key, options) : new KeyRing([key], [], options.made ? [key.epoch] : []);
  await saveKeys(ledger, ring, options.converting ? { [CONVERSION_META]: { fingerprint: key.fingerprint } } : {});
  return ring;
}

/**
 * The fingerprint of the key a conversion under way made, or null.
 * @param {Ledger} ledger
 */
export function conversionKey(ledger) {
  const value = /** @type {{fingerprint?: unknown} | undefined} */ (ledger.getMeta(CONVERSION_META));
  return typeof value?.fingerprint === 'string' ? value.fingerprint : null;
}

/**
 * The account is encrypted now, with the key `fingerprint`: a conversion's key that is it becomes
 * a key as any other (its kit is then due, as a key this device made); one that is not (another
 * device's conversion finished first) was never kept by the server, and is forgotten.
 * @param {Ledger} ledger @param {string | null} fingerprint the account's key's
 */
export async function endConversion(ledger, fingerprint) {
  const own = conversionKey(ledger);
  if (own === null) return;
  await ledger.setMeta(own === fingerprint ? { [CONVERSION_META]: undefined } : { [CONVERSION_META]: undefined, [KEYS_META]: undefined });
}
