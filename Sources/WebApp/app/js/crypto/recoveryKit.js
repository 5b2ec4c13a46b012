// The recovery kit of an encrypted account (Schemas/encryption.md §6), as Swift's RecoveryKit
// (Sources/LedgerSync/Encryption/RecoveryKit.swift): K (32) ‖ u32 epoch ‖ the first 4 bytes of
// SHA-256 of those 36, in Crockford base32: 64 characters, 16 words of 4.

import { SealError } from './sealError.js';
import { crockfordValue, decodeCrockford, encodeCrockford } from './crockford.js';
import { DATA_KEY_BYTES, importDataKey } from './dataKey.js';
import { concatBytes, equalBytes, readU32le, u32le } from './bytes.js';
import { sha256 } from '../sha256.js';

/** @typedef {import('./dataKey.js').DataKey} DataKey */

export const KIT_WORDS = 16;
export const KIT_WORD_LENGTH = 4;
const KIT_BYTES = 40;
const CHECKSUM_BYTES = 4;
/** What a reader skips, as Swift's: space, hyphen, newline and tab. */
const SEPARATORS = new Set([' ', '-', '\t', '\n', '\r']);

/**
 * The kit of `dataKey` (imported `{extractable: true}`): 16 words separated by spaces.
 * @param {DataKey} dataKey
 */
export function kitText(dataKey) {
  const body = concatBytes(dataKey.bytes(), u32le(dataKey.epoch));
  const characters = encodeCrockford(concatBytes(body, sha256(body).subarray(0, CHECKSUM_BYTES)));
  body.fill(0);
  /** @type {string[]} */
  const words = [];
  for (let at = 0; at < characters.length; at += KIT_WORD_LENGTH) words.push(characters.slice(at, at + KIT_WORD_LENGTH));
  return words.join(' ');
}

/**
 * The key and epoch a kit holds, read leniently (case, O as 0, I and L as 1; spaces, hyphens,
 * newlines and tabs skipped). SealError, checked in this order: `character` (one outside the
 * alphabet), `length` (not 64 characters), `checksum`.
 * @param {string} text @param {{extractable?: boolean}} [options] as importDataKey's
 * @returns {Promise<DataKey>}
 */
export async function readKit(text, options) {
  /** @type {number[]} */
  const values = [];
  for (const character of text) {
    if (SEPARATORS.has(character)) continue;
    const value = crockfordValue(character);
    if (value === null) throw new SealError('character');
    values.push(value);
  }
  if (values.length !== KIT_WORDS * KIT_WORD_LENGTH) throw new SealError('length');
  const bytes = decodeCrockford(values, KIT_BYTES);
  const body = bytes.subarray(0, KIT_BYTES - CHECKSUM_BYTES);
  if (!equalBytes(sha256(body).subarray(0, CHECKSUM_BYTES), bytes.subarray(KIT_BYTES - CHECKSUM_BYTES))) {
    throw new SealError('checksum');
  }
  try {
    return await importDataKey(body.slice(0, DATA_KEY_BYTES), readU32le(body, DATA_KEY_BYTES), options);
  } finally {
    bytes.fill(0);
  }
}

/**
 * The words of a kit as written, for the rehearsal that asks for two of them by number (split,
 * as Swift's, at spaces, hyphens and newlines).
 * @param {string} text
 */
export function kitWords(text) {
  return text.split(/[ \t\n\r-]+/).filter((word) => word !== '');
}
