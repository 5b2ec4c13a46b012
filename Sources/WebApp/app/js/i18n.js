// The app's words in Japanese (the default) and English (when the browser prefers English), side by
// side under one key: every text a screen shows, refusals included (refusals.js picks them by cause,
// never by a message's text). Station, operator and line names, and statistics labels, stay as the
// catalogue and the Swift code write them.
//
// The table is data, messages.json beside this file ({"key": ["Japanese", "English"]}): the
// sentences of a sync that stopped, the server's refusals and the browser's storage (failure.,
// merge., server., storage.), the ledger's refusals of an edit (edit.), then each screen's words by
// its prefix. main.js fetches it with loadMessages as the app starts, while the replica is read,
// before any screen writes a word; until then `t` gives the key itself.

/** @typedef {'ja' | 'en'} Lang */

/**
 * A key of messages.json: tsc checks every `t` call against the file.
 * @typedef {keyof typeof import('./messages.json')} Key
 */

/** @typedef {Readonly<Record<string, readonly [string, string]>>} Messages */

/** @type {Messages} Each key's text as [Japanese, English]: empty until the table is loaded. */
let words = {};

/**
 * Where the table is, beside this module, relative to the page (/app/) as geo/japan.json is: the
 * page runs this module from bundle/, where a URL relative to `import.meta.url` would point.
 */
export const MESSAGES_URL = 'js/messages.json';

/**
 * Fetches messages.json and makes it the table `t` reads.
 * @param {(url: string) => Promise<Response>} fetchFile
 */
export async function loadMessages(fetchFile) {
  const response = await fetchFile(MESSAGES_URL);
  if (!response.ok) throw new Error(`the app's words answered HTTP ${response.status}`);
  useMessages(await response.json());
}

/**
 * Makes `table` (messages.json, parsed) the table `t` reads.
 * @param {Messages} table
 */
export function useMessages(table) {
  words = table;
}

/**
 * English when the browser's first Japanese-or-English preference is English, else Japanese.
 * @param {readonly string[]} languages navigator.languages
 * @returns {Lang}
 */
export function chooseLanguage(languages) {
  for (const l of languages) {
    const tag = l.toLowerCase();
    if (tag.startsWith('ja')) return 'ja';
    if (tag.startsWith('en')) return 'en';
  }
  return 'ja';
}

/** @type {Lang} */
let current = 'ja';

/** @param {Lang} lang */
export function setLanguage(lang) {
  current = lang;
}

export function language() {
  return current;
}

/**
 * The text of `key` in the current language, with {0}, {1}… replaced.
 * @param {Key} key
 * @param {...(string | number)} args
 */
export function t(key, ...args) {
  const text = words[key]?.[current === 'en' ? 1 : 0] ?? key;
  return text.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ''));
}

/**
 * Whether a string is a known key.
 * @param {string} key @returns {key is Key}
 */
export function isKey(key) {
  return key in words;
}

/**
 * A whole number as people read it, thousands separated by commas in both languages: 1,365.
 * @param {number} n
 */
export function formatCount(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
