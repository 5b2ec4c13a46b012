// What the browser keeps for the app, as 同期 shows it (Schemas/phone-app.md "Storage the person
// can see"): whether the site's storage is persistent (`navigator.storage.persisted()`), how much
// it uses of its quota (`estimate()`), what to do when it is not persistent, and the edits the
// storage refused that the app still holds in memory (unsavedEdits.js).

import { t } from './i18n.js';

/** @typedef {{persisted: boolean | null, usage: number | null, quota: number | null}} StorageState */

/**
 * The state as the browser reports it; a browser without the Storage API reports nulls.
 * @param {StorageManager | undefined} storage
 * @returns {Promise<StorageState>}
 */
export async function readStorage(storage) {
  const persisted = storage?.persisted ? await storage.persisted().catch(() => null) : null;
  const estimate = storage?.estimate ? await storage.estimate().catch(() => null) : null;
  return { persisted, usage: estimate?.usage ?? null, quota: estimate?.quota ?? null };
}

/**
 * Bytes for people: 980 B, 12.3 KB, 4.5 MB, 2.0 GB (powers of 1,000, as phones show storage).
 * @param {number} bytes
 */
export function formatBytes(bytes) {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit++; }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * One line: persistent or not, usage of quota when known, and the edits not saved yet.
 * @param {StorageState} state
 * @param {number} [unsaved] edits the storage refused, kept in memory to retry
 */
export function describeStorage(state, unsaved = 0) {
  const kept = state.persisted === true ? t('storage.persistent') : state.persisted === false ? t('storage.evictable') : t('storage.unknown');
  const parts = [kept];
  if (state.usage !== null && state.quota !== null) parts.push(t('storage.usage', formatBytes(state.usage), formatBytes(state.quota)));
  if (unsaved > 0) parts.push(t('storage.unsaved', unsaved));
  return parts.join(' ');
}
