// The app's side of turning its plaintext account end-to-end encrypted (Schemas/encryption.md §9),
// as Swift's `oritsubushi encryption enable` and ConversionUpload (Sources/oritsubushi/Commands/
// Encryption/EncryptionEnable.swift, Sources/SyncClient/Encryption/ConversionUpload.swift): the key
// of epoch 1 is made (random, never from a password) or taken from an interrupted conversion, and
// kept before anything is sent; then, until the server answers `encrypted: true` (at most 8
// rounds), the device syncs as a plaintext device (so that it holds every event the server does,
// its own pushed), asks with no records what the server has staged (`sealed_has`), and uploads,
// sealed under epoch 1, every event beyond it and every device's name, in pages cut by sealed
// size. The server keeps serving the readable log until the sealed copy holds all of it, so an
// interruption anywhere loses nothing: the next press resumes with the same key.

import { ApiError } from './api.js';
import { fetchAccount, uploadConversion } from './accountApi.js';
import { ConversionProblem } from './conversionProblem.js';
import { randomDataKey } from './crypto/dataKey.js';
import { KeyProblem } from './keyProblem.js';
import { CONVERSION_META, conversionKey, endConversion, keepKey, KEYS_META, loadKeys } from './keyStore.js';
import { pushPages, SEALED_PAGE_BYTES, SEALED_PAGE_RECORDS } from './pushPages.js';
import { sealPieces } from './sealedSync.js';
import { cutRuns } from './runCut.js';

/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./crypto/dataKey.js').DataKey} DataKey */
/** @typedef {{round: number, sent: number, total: number}} ConversionProgress records uploaded of this round's */

/** Rounds of "sync, ask, upload" before giving up while other devices keep pushing (§9). */
export const CONVERSION_ROUNDS = 8;

/**
 * What an upload carries when the staged copy holds `sealedHas`: every device's name (the server
 * keeps each distinct one once), then, device by device, every event beyond it in seq order, so
 * that each page continues each device's seqs (§10 step 4).
 * @param {Ledger} ledger @param {Map<string, bigint>} sealedHas
 * @returns {LedgerEvent[]}
 */
export function conversionRecords(ledger, sealedHas) {
  const out = [...ledger.names.values()].sort((a, b) => (a.device < b.device ? -1 : a.device > b.device ? 1 : 0));
  for (const [device, list] of ledger.byDevice) out.push(...list.slice(Number(sealedHas.get(device) ?? 0n)));
  return out;
}

export class AccountConversion {
  /**
   * @param {object} options
   * @param {Ledger} options.ledger
   * @param {Api} options.api
   * @param {string} options.token
   * @param {() => Promise<void>} options.sync the app's sync as it is; throws (ConversionProblem `sync`) when it fails
   * @param {(progress: ConversionProgress) => void} [options.onProgress] after each page uploaded
   * @param {number} [options.maxRounds]
   */
  constructor({ ledger, api, token, sync, onProgress = () => {}, maxRounds = CONVERSION_ROUNDS }) {
    this.ledger = ledger;
    this.api = api;
    this.token = token;
    this.sync = sync;
    this.onProgress = onProgress;
    this.maxRounds = maxRounds;
  }

  /**
   * Turns the account encrypted. Resolves with the key's fingerprint (`already`: the account was
   * encrypted before this run asked, by this device's earlier run or another device). Throws a
   * ConversionProblem, a KeyProblem, or what a request met (ApiError, NetworkError, …); nothing
   * is lost either way.
   * @returns {Promise<{fingerprint: string, already: boolean}>}
   */
  async run() {
    const account = await fetchAccount(this.api, this.token);
    if (account.encrypted) {
      await endConversion(this.ledger, account.fingerprint);
      return { fingerprint: account.fingerprint ?? '', already: true };
    }
    if (!globalThis.crypto?.subtle) throw new KeyProblem('insecure', 'this page is not served over HTTPS or from localhost, so it cannot seal records');
    const key = await this.conversionKey();
    for (let round = 1; round <= this.maxRounds; round++) {
      await this.sync();
      if (await this.upload(key, round)) {
        await endConversion(this.ledger, key.fingerprint);
        return { fingerprint: key.fingerprint, already: false };
      }
    }
    throw new ConversionProblem('busy', `other devices kept pushing through ${this.maxRounds} rounds: turn encryption on again to finish (nothing is lost)`);
  }

  /**
   * The key of epoch 1: an interrupted conversion's (the server's staged copy is sealed with it),
   * else a new one, kept, and named as the conversion's, before the server hears of it.
   * @returns {Promise<DataKey>}
   */
  async conversionKey() {
    const held = conversionKey(this.ledger) !== null ? (await loadKeys(this.ledger, { duringConversion: true }))?.key(1) : undefined;
    const key = held ?? await randomDataKey(1, { extractable: true });
    await keepKey(this.ledger, key, { made: true, converting: true });
    return key;
  }

  /**
   * One round's upload: what is staged, then every record beyond it. Whether the account is
   * encrypted now.
   * @param {DataKey} key @param {number} round
   */
  async upload(key, round) {
    let answer;
    try {
      answer = await uploadConversion(this.api, this.token, [], key.fingerprint);
    } catch (error) {
      // Nothing is staged under this key: another device's conversion holds the account.
      if (error instanceof ApiError && error.status === 409) {
        await this.ledger.setMeta({ [CONVERSION_META]: undefined, [KEYS_META]: undefined });
        throw new ConversionProblem('other-key', 'another device is turning encryption on for this account with another key: wait until it has finished, then get the key with a link from it or with its recovery kit');
      }
      throw error;
    }
    if (answer.encrypted) return true;
    const records = conversionRecords(this.ledger, answer.sealedHas);
    let sent = 0;
    this.onProgress({ round, sent, total: records.length });
    // Sealed as a push seals them: each device's events in runs (Schemas/encryption.md §3.5).
    for (const page of pushPages(cutRuns(records), (piece) => piece.length, { records: SEALED_PAGE_RECORDS, bytes: SEALED_PAGE_BYTES })) {
      answer = await uploadConversion(this.api, this.token, await sealPieces(page, key), key.fingerprint);
      sent += page.reduce((n, piece) => n + piece.events.length, 0);
      this.onProgress({ round, sent, total: records.length });
    }
    return answer.encrypted;
  }
}
