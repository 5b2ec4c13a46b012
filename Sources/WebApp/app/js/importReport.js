// What an import of an oritsubushi-tsv file says, in the app's language: the dry run's summary
// and notes, each refused line with its number and reason, each station it would record, and
// the result. The reasons are the codes of tsvImport.js and importPlan.js; the memo's limit is
// said in characters (textLimits.js).

import { label } from './dates.js';
import { formatCount, language, t } from './i18n.js';
import { MAX_MEMO_BYTES } from './records.js';
import { MAX_MEMO_CHARACTERS } from './textLimits.js';

/** @typedef {import('./i18n.js').Key} Key */
/** @typedef {import('./importPlan.js').ImportPlan} ImportPlan */
/** @typedef {import('./importPlan.js').ImportDraft} ImportDraft */
/** @typedef {import('./tsvImport.js').RefusedLine} RefusedLine */
/** @typedef {import('./catalog.js').Catalog} Catalog */

/** @type {Record<string, Key>} */
const REASONS = {
  'not-utf8': 'import.notUtf8', empty: 'import.empty', fields: 'import.fields', 'not-number': 'import.notNumber',
  'station-id': 'import.stationId', 'comp-date-range': 'import.compDateRange', 'update-date-range': 'import.updateDateRange',
  'lone-backslash': 'import.loneBackslash', 'unknown-escape': 'import.unknownEscape', 'invalid-date': 'import.invalidDate',
  'future-date': 'import.futureDate', 'memo-too-long': 'import.memoTooLong', 'unknown-station': 'import.unknownStation',
};

/** @type {Record<string, Key>} */
const FIELDS = { s_id: 'import.fieldStation', comp_date: 'import.fieldDate', update_date: 'import.fieldUpdated' };

/**
 * Why a line is refused.
 * @param {RefusedLine} refused
 */
export function reasonText(refused) {
  const key = REASONS[refused.reason] ?? 'import.fields';
  const value = refused.value ?? '';
  switch (key) {
    case 'import.notNumber': return t(key, t(FIELDS[refused.field ?? 's_id'] ?? 'import.fieldStation'), value);
    case 'import.futureDate': return t(key, value, label(Number(value), language()));
    case 'import.memoTooLong': return t(key, formatCount(MAX_MEMO_CHARACTERS), formatCount(MAX_MEMO_BYTES));
    default: return t(key, value);
  }
}

/**
 * A refused line: 「12行目: 乗下車日 20130230 は正しい日付ではありません」.
 * @param {RefusedLine} refused
 */
export function refusedLineText(refused) {
  return t('import.line', refused.line, reasonText(refused));
}

/**
 * The stations an import records (a station in several rows counts once).
 * @param {ImportDraft[]} drafts
 */
export function stationCount(drafts) {
  return new Set(drafts.map((d) => d.station)).size;
}

/**
 * The dry run's first sentence: lines read, stations to record, lines unchanged or refused.
 * @param {ImportPlan} plan
 * @param {RefusedLine[]} refused every refused line (the reader's and the plan's)
 */
export function summaryText(plan, refused) {
  const lines = plan.validRows + refused.length;
  const unchanged = plan.validRows - plan.drafts.length;
  if (plan.drafts.length === 0) return t('import.nothing', formatCount(lines), formatCount(unchanged), formatCount(refused.length));
  return t('import.summary', formatCount(lines), formatCount(stationCount(plan.drafts)), formatCount(unchanged), formatCount(refused.length));
}

/**
 * What the import does besides, to the events it records: codes shown as 日付不明 taken as 1,
 * times clamped to now or raised to 2000-01-01.
 * @param {ImportPlan} plan
 * @returns {string[]}
 */
export function noteTexts(plan) {
  const unknown = new Set(plan.unknownDates);
  const count = (/** @type {(d: ImportDraft) => boolean} */ test) => plan.drafts.filter(test).length;
  const notes = [];
  const dates = count((d) => unknown.has(d.line) && d.compDate !== null);
  const clamped = count((d) => d.time === 'now');
  const raised = count((d) => d.time === 'earliest');
  if (dates) notes.push(t('import.unknownDates', formatCount(dates)));
  if (clamped) notes.push(t('import.clamped', formatCount(clamped)));
  if (raised) notes.push(t('import.raised', formatCount(raised)));
  return notes;
}

/**
 * One station the import records: 「小田原駅（東海旅客鉄道）: 日付 2013年9月1日 · メモ「北口」」.
 * @param {ImportDraft} draft
 * @param {Catalog} catalog
 */
export function draftText(draft, catalog) {
  const s = catalog.station(draft.station);
  const name = s ? t('import.station', s.name, catalog.operatorName(s.operator)) : String(draft.station);
  const parts = [];
  if (draft.compDate !== null) parts.push(t('history.date', label(draft.compDate, language())));
  if (draft.memo !== null) parts.push(draft.memo === '' ? t('history.memoCleared') : t('history.memo', draft.memo));
  return t('import.draft', name, parts.join(' · '));
}

/**
 * The answer to 取り込む: how many stations were recorded.
 * @param {ImportPlan} plan what was recorded
 * @param {number} refused lines skipped
 */
export function resultText(plan, refused) {
  if (plan.drafts.length === 0) return t('import.noneRecorded');
  return t('import.done', formatCount(stationCount(plan.drafts)), formatCount(plan.drafts.length), formatCount(refused));
}
