// What まとめて記録 says, in the app's language: how many stations it recorded and how many were
// already at that date, or why it recorded nothing (batchPlan.js's refusal, by its reason).

import { label } from './dates.js';
import { dateRefusalText } from './refusals.js';
import { formatCount, language, t } from './i18n.js';

/** @typedef {import('./batchPlan.js').BatchPlan} BatchPlan */
/** @typedef {import('./batchPlan.js').BatchError} BatchError */
/** @typedef {import('./catalog.js').Catalog} Catalog */

/**
 * The sentence after a batch was committed (or found nothing to change).
 * @param {BatchPlan} plan
 */
export function batchResultText(plan) {
  const date = label(plan.compDate, language());
  const done = formatCount(plan.changes.length), same = formatCount(plan.unchanged.length);
  if (plan.changes.length === 0) return t('batch.nothing', same, date);
  return plan.unchanged.length === 0 ? t('batch.done', done, date) : t('batch.doneSome', done, date, same);
}

/**
 * The sentence of a refused batch: nothing was recorded.
 * @param {BatchError} error
 * @param {number} compDate the date asked for
 * @param {Catalog | null} catalog names the stations it concerns
 * @param {number} nowMs
 */
export function batchRefusalText(error, compDate, catalog, nowMs) {
  const names = error.stations.map((s) => catalog?.station(s)?.name ?? String(s)).join('、');
  switch (error.reason) {
    case 'empty': return t('batch.empty');
    case 'invalid': case 'future': return dateRefusalText(compDate, nowMs) ?? t('edit.badDate');
    case 'station': return t('batch.unknownStations', names);
    case 'duplicate': return t('batch.duplicate', names);
    default: return t('batch.stale', names);
  }
}
