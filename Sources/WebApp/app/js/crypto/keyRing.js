// The keys of an end-to-end encrypted account that a device holds, one per epoch (Schemas/
// encryption.md §11 "The client"), as Swift's KeyRing (Sources/SyncClient/Encryption/KeyRing.swift):
// a push seals under the newest, a pull opens each record with its epoch's, and the older epochs
// come from the server's key chain (§4, purpose 2: epoch e's key wrapped under epoch e + 1's K_chain).

import { unwrapKey } from './keyWrap.js';

/** @typedef {import('./dataKey.js').DataKey} DataKey */

/** A key chain entry that does not open, or holds another epoch's key (the sentence says which). */
export class ChainError extends Error {
  /** @param {number} epoch @param {string} message */
  constructor(epoch, message) {
    super(message);
    this.name = 'ChainError';
    this.epoch = epoch;
  }
}

export class KeyRing {
  /**
   * @param {DataKey[]} keys at least one, epochs distinct (a later one of an epoch replaces an earlier)
   * @param {Iterable<number>} [rehearsed] the epochs whose recovery kit the person re-entered words of
   * @param {Iterable<number>} [made] the epochs whose key this device made (its kit is this device's to show)
   */
  constructor(keys, rehearsed = [], made = []) {
    if (keys.length === 0) throw new RangeError('a key ring holds at least one key');
    /** @type {Map<number, DataKey>} */
    const byEpoch = new Map();
    for (const key of keys) byEpoch.set(key.epoch, key);
    /** The keys by ascending epoch. */
    this.keys = [...byEpoch.values()].sort((a, b) => a.epoch - b.epoch);
    this.rehearsed = new Set([...rehearsed].filter((e) => byEpoch.has(e)));
    this.made = new Set([...made].filter((e) => byEpoch.has(e)));
    Object.freeze(this);
  }

  /** The newest epoch's key: the one a push seals with. */
  get current() {
    return this.keys[this.keys.length - 1];
  }

  /** @param {number} epoch @returns {DataKey | undefined} */
  key(epoch) {
    return this.keys.find((k) => k.epoch === epoch);
  }

  /**
   * This ring with `key` added (replacing a held key of its epoch, whose marks then go).
   * @param {DataKey} key @param {{made?: boolean}} [options]
   */
  adding(key, options = {}) {
    const held = this.key(key.epoch);
    const same = held !== undefined && held.fingerprint === key.fingerprint;
    const rehearsed = [...this.rehearsed].filter((e) => e !== key.epoch || same);
    const made = [...this.made].filter((e) => e !== key.epoch || same);
    if (options.made) made.push(key.epoch);
    return new KeyRing([...this.keys.filter((k) => k.epoch !== key.epoch), key], rehearsed, made);
  }

  /**
   * This ring with `epoch`'s kit marked as rehearsed.
   * @param {number} epoch
   */
  rehearsing(epoch) {
    return new KeyRing(this.keys, [...this.rehearsed, epoch], this.made);
  }

  /**
   * This ring with the older keys of the server's key chain unwrapped (KeyRing.unlockChain): from
   * the newest key held down, epoch e's entry opened under epoch e + 1's K_chain. Throws ChainError
   * for an entry that does not open or holds another epoch's key; nothing is added then.
   * @param {Map<number, Uint8Array>} chain
   * @returns {Promise<KeyRing>}
   */
  async unlockChain(chain) {
    let ring = /** @type {KeyRing} */ (this);
    for (const epoch of [...chain.keys()].sort((a, b) => b - a)) {
      if (epoch <= 0 || epoch >= ring.current.epoch || ring.key(epoch)) continue;
      const wrapping = ring.key(epoch + 1);
      const wrapped = chain.get(epoch);
      if (!wrapping || !wrapped) continue;
      /** @type {DataKey} */
      let unwrapped;
      try {
        unwrapped = await unwrapKey(wrapped, wrapping.chainKey, 'chain', { extractable: true });
      } catch {
        throw new ChainError(epoch, `the server's key chain does not open at epoch ${epoch} under this device's key of epoch ${epoch + 1}`);
      }
      if (unwrapped.epoch !== epoch) throw new ChainError(epoch, `the server's key chain holds a key of epoch ${unwrapped.epoch} where epoch ${epoch}'s belongs`);
      ring = ring.adding(unwrapped);
    }
    return ring;
  }
}
