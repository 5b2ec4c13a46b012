// The recovery kit as the 同期 screen handles it (Schemas/encryption.md §6, §11), without the DOM,
// as Swift's RecoveryKitRehearsal and `oritsubushi encryption recover`: the kit of a key this
// device made is shown until the person re-enters two of its words (asked by number, read as a
// kit reader reads them), and a kit typed in restores the key, once its epoch and fingerprint are
// checked against the account's (GET /v1/account).

import { ApiError, MalformedAnswer, NetworkError } from './api.js';
import { fetchAccount } from './accountApi.js';
import { crockfordValue } from './crypto/crockford.js';
import { KIT_WORDS, kitText, kitWords, readKit } from './crypto/recoveryKit.js';
import { SealError } from './crypto/sealError.js';
import { t } from './i18n.js';
import { keepKey, loadKeys, saveKeys } from './keyStore.js';
import { refusalText, serverRefusalText } from './refusals.js';

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./crypto/keyRing.js').KeyRing} KeyRing */

/**
 * The kit this device still has to show: its current key's, when this device made that key and
 * the person has not re-entered two of its words; else null.
 * @param {KeyRing | null} ring
 * @returns {{words: string[], text: string, fingerprint: string, epoch: number} | null}
 */
export function kitDue(ring) {
  if (!ring) return null;
  const key = ring.current;
  if (!ring.made.has(key.epoch) || ring.rehearsed.has(key.epoch)) return null;
  const text = kitText(key);
  return { words: kitWords(text), text, fingerprint: key.fingerprint, epoch: key.epoch };
}

/**
 * Two distinct word numbers of 1 … 16, ascending, from `random` (0 ≤ r < 1).
 * @param {() => number} [random]
 * @returns {[number, number]}
 */
export function rehearsalNumbers(random = Math.random) {
  const first = 1 + Math.floor(random() * KIT_WORDS);
  let second = 1 + Math.floor(random() * (KIT_WORDS - 1));
  if (second >= first) second++;
  return first < second ? [first, second] : [second, first];
}

/**
 * A word as a kit reader reads it: upper case, O as 0, I and L as 1, hyphens and white space
 * skipped; null for a character outside the alphabet.
 * @param {string} typed
 */
function readWord(typed) {
  let out = '';
  for (const c of typed.replace(/[\s-]/g, '')) {
    const value = crockfordValue(c);
    if (value === null) return null;
    out += '0123456789ABCDEFGHJKMNPQRSTVWXYZ'[value];
  }
  return out;
}

/**
 * Whether `typed` are the words numbered `numbers` (1-based) of the kit's `words`.
 * @param {string[]} words @param {number[]} numbers @param {string[]} typed
 */
export function wordsMatch(words, numbers, typed) {
  return numbers.every((n, i) => n >= 1 && n <= words.length && typed[i] !== undefined && readWord(typed[i]) === words[n - 1]);
}

/**
 * Marks the current key's kit as rehearsed (kept strictly, as the keys are).
 * @param {Ledger} ledger
 */
export async function markRehearsed(ledger) {
  const ring = await loadKeys(ledger);
  if (ring) await saveKeys(ledger, ring.rehearsing(ring.current.epoch));
}

/**
 * Restores the account's key from a kit typed in: read, checked against GET /v1/account (an older
 * epoch, or another key of the epoch, is refused), then kept. One sentence either way.
 * @param {Ledger} ledger @param {Api} api @param {string | null} token @param {string} text
 * @returns {Promise<{ok: boolean, message: string}>}
 */
export async function recoverFromKit(ledger, api, token, text) {
  if (!token) return { ok: false, message: t('kit.unpaired') };
  let key;
  try {
    key = await readKit(text, { extractable: true });
  } catch (error) {
    if (error instanceof SealError) return { ok: false, message: t('kit.unreadable') };
    throw error;
  }
  try {
    const account = await fetchAccount(api, token);
    if (!account.encrypted || account.epoch === null) return { ok: false, message: t('kit.plaintext') };
    if (key.epoch < account.epoch) return { ok: false, message: t('kit.oldEpoch', key.epoch, account.epoch) };
    if (key.epoch > account.epoch || (account.fingerprint !== null && account.fingerprint !== key.fingerprint)) {
      return { ok: false, message: t('kit.notAccount', key.fingerprint, account.fingerprint ?? '—') };
    }
    // The whole kit was just typed in: it is as good as rehearsed.
    const ring = await keepKey(ledger, key);
    await saveKeys(ledger, ring.rehearsing(key.epoch));
    return { ok: true, message: t('kit.recovered', key.fingerprint) };
  } catch (error) {
    if (error instanceof NetworkError) return { ok: false, message: t('pair.offline') };
    if (error instanceof MalformedAnswer) return { ok: false, message: t('pair.malformed') };
    if (error instanceof ApiError) return { ok: false, message: serverRefusalText(error) };
    return { ok: false, message: refusalText(error) };
  }
}
