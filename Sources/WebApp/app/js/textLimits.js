// The limits of a memo and of a device name as people count them. The ledger's rule is in bytes: a memo holds at most
// 4,096 bytes of UTF-8 (MAX_MEMO_BYTES, StationEdit.maximumMemoBytes in Swift). People count
// characters, and a Japanese character takes 3 bytes, so the screen counts in Japanese
// characters: the limit is 1,365 of them (4,096 ÷ 3, rounded down), and 「残り N 文字」 says how
// many more Japanese characters still fit, (4,096 − bytes used) ÷ 3 rounded down. A letter, digit
// or space (1 byte) uses a third of one, an accented Latin letter (2 bytes) two thirds, an emoji
// (4 bytes) four thirds. The save is refused exactly when the byte rule refuses (Schemas/phone-app.md
// "The memo's limit"). A device name (255 bytes) is said the same way: 85 Japanese characters.

import { formatCount, t } from './i18n.js';
import { MAX_MEMO_BYTES, MAX_NAME_BYTES, utf8Length } from './records.js';

/** Bytes of UTF-8 in one Japanese character (every kana and kanji). */
export const JAPANESE_CHARACTER_BYTES = 3;

/** The memo's limit in Japanese characters: 1,365. */
export const MAX_MEMO_CHARACTERS = Math.floor(MAX_MEMO_BYTES / JAPANESE_CHARACTER_BYTES);

/** A device name's limit in Japanese characters: 85. */
export const MAX_NAME_CHARACTERS = Math.floor(MAX_NAME_BYTES / JAPANESE_CHARACTER_BYTES);

/**
 * How much room a memo leaves: whether it fits the ledger's rule, and how many more Japanese
 * characters fit (0 when none, or when it is over).
 * @param {string} memo
 * @returns {{fits: boolean, left: number}}
 */
export function memoRoom(memo) {
  const used = utf8Length(memo);
  return { fits: used <= MAX_MEMO_BYTES, left: Math.max(0, Math.floor((MAX_MEMO_BYTES - used) / JAPANESE_CHARACTER_BYTES)) };
}

/**
 * The counter under the memo field: 「残り 1,234 文字」, or that it is over the limit.
 * @param {string} memo
 */
export function memoCounterText(memo) {
  const room = memoRoom(memo);
  return room.fits ? t('memo.left', formatCount(room.left)) : t('memo.over', formatCount(MAX_MEMO_CHARACTERS));
}

/** The refusal of a memo over the limit, in characters. */
export function memoTooLongText() {
  return t('memo.tooLong', formatCount(MAX_MEMO_CHARACTERS), formatCount(MAX_MEMO_BYTES));
}

/** The refusal of a device name over the limit, in characters. */
export function nameTooLongText() {
  return t('devices.nameTooLong', formatCount(MAX_NAME_CHARACTERS), formatCount(MAX_NAME_BYTES));
}

/** The server's refusal of a device name (422), with the limit in characters. */
export function nameRefusedText() {
  return t('devices.nameRefused', formatCount(MAX_NAME_CHARACTERS), formatCount(MAX_NAME_BYTES));
}
