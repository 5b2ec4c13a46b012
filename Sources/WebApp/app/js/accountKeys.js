// What the app settles with the server before it syncs (Schemas/encryption.md §11), as Swift's
// AccountKeys (Sources/SyncClient/Encryption/AccountKeys.swift): whether the account is end-to-end
// encrypted, and then the keys to seal and open its records with. The first device of an account
// made with `server add-user --encrypted` makes the key (random, never from a password), keeps it
// before registering its fingerprint, and shows the recovery kit; any other device must already
// hold the key (a link, the kit): it never pushes plaintext.

import { ApiError } from './api.js';
import { fetchAccount, registerKey } from './accountApi.js';
import { ChainError, KeyRing } from './crypto/keyRing.js';
import { randomDataKey } from './crypto/dataKey.js';
import { KeyProblem } from './keyProblem.js';
import { endConversion, KEYS_META, KeyStoreError, keepKey, loadKeys, saveKeys } from './keyStore.js';

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./accountApi.js').Account} Account */

export const NO_KEY = "this account is end-to-end encrypted and this device does not have its key: open a link from one of your devices (「別の端末を追加」 there), or restore the key from the recovery kit; nothing was pushed";

/**
 * The keys to sync with: null for a plaintext account. `made`: this device made the account's
 * key just now (its kit is to be shown and rehearsed); `owesName`: its token carries no sealed
 * name yet (sealedDeviceName.js nameIfOwed names it after the sync).
 * @param {Ledger} ledger @param {Api} api @param {string} token
 * @returns {Promise<{ring: KeyRing, made: boolean, owesName: boolean} | null>}
 */
export async function prepareKeys(ledger, api, token) {
  const account = await fetchAccount(api, token);
  if (!account.encrypted || account.epoch === null) return null;
  const prepared = await keysFor(account, ledger, api, token);
  return { ...prepared, owesName: account.deviceNamed === false };
}

/**
 * The keys of an encrypted account (prepareKeys).
 * @param {Account} account @param {Ledger} ledger @param {Api} api @param {string} token
 * @returns {Promise<{ring: KeyRing, made: boolean}>}
 */
async function keysFor(account, ledger, api, token) {
  const epoch = /** @type {number} */ (account.epoch);
  if (!globalThis.crypto?.subtle) throw new KeyProblem('insecure', 'this page is not served over HTTPS or from localhost, so it cannot seal or open records');
  // A conversion this device began was finished (its last answer may not have arrived here).
  await endConversion(ledger, account.fingerprint);
  let ring;
  try {
    ring = await loadKeys(ledger);
  } catch (error) {
    if (error instanceof KeyStoreError) throw new KeyProblem('stored', error.message);
    throw error;
  }
  if (!ring) {
    if (account.fingerprint !== null || epoch !== 1) throw new KeyProblem('missing', NO_KEY);
    const key = await randomDataKey(1, { extractable: true });
    // Kept before it is registered: a registration that does not arrive is made by the next sync.
    ring = await keepKey(ledger, key, { made: true });
    await register(ledger, api, token, key.fingerprint);
    return { ring, made: true };
  }
  const own = ring.key(epoch);
  if (!own) {
    if (ring.current.epoch < epoch) {
      throw new KeyProblem('rotated', `the account's key was rotated to epoch ${epoch} on another device, and this device holds only epoch ${ring.current.epoch}: get the new key with a link from one of your devices, or enter the new recovery kit, then sync again`);
    }
    throw new KeyProblem('other', `this device holds no key of the account's epoch ${epoch}: it holds another account's key`);
  }
  if (account.fingerprint === null) {
    // This device made the key but its registration did not arrive: register it now.
    await register(ledger, api, token, own.fingerprint);
    return { ring, made: false };
  }
  if (account.fingerprint !== own.fingerprint) {
    throw new KeyProblem('other', `this device's key (fingerprint ${own.fingerprint}) is not the account's (${account.fingerprint}): get the account's key with a link from one of your devices or with the recovery kit; this device pushed nothing`);
  }
  let unlocked;
  try {
    unlocked = await ring.unlockChain(account.keyChain);
  } catch (error) {
    if (error instanceof ChainError) throw new KeyProblem('chain', `${error.message}: the chain is damaged, or this device's key is not the account's`);
    throw error;
  }
  if (unlocked.keys.length !== ring.keys.length) await saveKeys(ledger, unlocked);
  // A key of a later epoch is a rotation whose request did not arrive: seal under the account's.
  const usable = unlocked.keys.filter((k) => k.epoch <= epoch);
  return { ring: new KeyRing(usable, unlocked.rehearsed, unlocked.made), made: false };
}

/**
 * Registers the fingerprint; another device's key registered first makes this one's useless: it
 * is forgotten (nothing was ever sealed with it) and the sync refused.
 * @param {Ledger} ledger @param {Api} api @param {string} token @param {string} fingerprint
 */
async function register(ledger, api, token, fingerprint) {
  try {
    await registerKey(api, token, fingerprint);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      await ledger.setMeta({ [KEYS_META]: undefined });
      throw new KeyProblem('taken', 'another device made this account\'s key first: get it with a link from that device, or with the recovery kit it showed, then sync again');
    }
    throw error;
  }
}
