// The person's own changes are saved only when the disk holds them: committed with strict
// durability (store.js), then read back in a transaction of their own and compared with what was
// written (Schemas/phone-app.md "Saved means on the disk"). A write that reads back differently is
// written once more; a second difference is a StoreError, and the caller keeps the edit to retry.

import { StoreError } from './store.js';

/** @typedef {import('./store.js').Change} Change */
/** @typedef {import('./store.js').LedgerStore} LedgerStore */
/** @typedef {import('./store.js').ReadBack} ReadBack */

/**
 * Commits `change` (never relaxed) and checks that it reads back as written.
 * @param {LedgerStore} store
 * @param {Change} change
 */
export async function commitOwn(store, change) {
  const strict = { ...change, relaxed: false };
  const keys = (strict.put ?? []).map((record) => record.key);
  for (let attempt = 1; ; attempt++) {
    await store.commit(strict);
    if (readsBackAsWritten(await store.readBack(keys), strict)) return;
    if (attempt === 2) {
      throw new StoreError('what the app saved read back differently twice, so the change is not counted as saved', null, 'refused');
    }
  }
}

/**
 * Whether the store now holds the change's identity and records exactly.
 * @param {ReadBack} back
 * @param {Change} change
 */
export function readsBackAsWritten(back, change) {
  if (change.identity && !sameValue(back.identity, change.identity)) return false;
  return (change.put ?? []).every((record, i) => sameValue(back.records[i], record));
}

/**
 * Structural equality of stored values (plain objects, arrays, strings, numbers, booleans, null).
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
function sameValue(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((k) => /** @type {Record<string, unknown>} */ (a)[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => /** @type {Record<string, unknown>} */ (b)[k] !== undefined);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((k) => sameValue(/** @type {Record<string, unknown>} */ (a)[k], /** @type {Record<string, unknown>} */ (b)[k]));
}
