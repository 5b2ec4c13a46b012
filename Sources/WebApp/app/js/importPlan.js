// What importing the rows of an oritsubushi-tsv file would record, by the rules of the CLI's
// `import` (CompletionImporter.plan in Swift, Schemas/import-export.md "How rows become events"):
//
// 1. Every row is checked: codes 2…18999999 (shown by the apps as 日付不明) become 1; the date
//    must be valid and not after today in Japan; the memo at most 4,096 bytes of UTF-8; the
//    station in the catalogue, when there is one. A row that fails is refused with its line.
// 2. Each valid row becomes at most one event, dated by its update_date (Unix seconds, counter 0;
//    one later than now is clamped to now), so the original last-update-wins order is kept. A
//    field enters the event only if it would change the station: it must win its register by
//    (hlc, device, seq) and differ from the current value; a station without events takes a 0
//    date as an event, and a default row (0, 0, '') of such a station is skipped. Rows are
//    planned in file order against the values the earlier rows left, so a file imported twice,
//    or an export imported back, records nothing.
//
// The app also raises a time before 2000-01-01 (a hand-made file's 0) to that day (`earliestMs`):
// the sync server refuses events dated earlier, and such an event would stop every sync.

import { isInFuture, isValidCode, tokyoDay } from './dates.js';
import { MAX_MEMO_BYTES, utf8Length } from './records.js';

/** @typedef {import('./tsvImport.js').TsvRow} TsvRow */
/** @typedef {import('./tsvImport.js').RefusedLine} RefusedLine */
/** @typedef {import('./completionFold.js').Completion} Completion */

/** 2000-01-01T00:00:00Z: the sync server refuses events dated before it (MergeOptions.Plausibility). */
export const EARLIEST_EVENT_MS = 946_684_800_000;

/**
 * One event the import would record.
 * @typedef {object} ImportDraft
 * @property {number} line the row it comes from
 * @property {number} station
 * @property {number | null} compDate null: the event leaves the date alone
 * @property {string | null} memo null: the event leaves the memo alone
 * @property {number} ms its time: the hlc's milliseconds (counter 0)
 * @property {'row' | 'now' | 'earliest'} time the row's update_date, or now (it was later), or
 *   `earliestMs` (it was earlier)
 */

/**
 * @typedef {object} ImportPlan
 * @property {ImportDraft[]} drafts in file order
 * @property {number} validRows rows that passed the checks (those without a draft change nothing)
 * @property {RefusedLine[]} refused rows that failed them, in file order
 * @property {number[]} unknownDates lines whose code 2…18999999 is imported as 1
 * @property {number} clamped valid rows dated after now, planned at now (as the CLI counts them)
 */

/**
 * @typedef {object} ImportContext
 * @property {{get(station: number): Completion | undefined}} fold the station's current values and winners
 * @property {string} device this device (16 hex digits)
 * @property {bigint} nextSeq the seq of its next event
 * @property {number} nowMs the import's time (Unix ms); today is its day in Japan
 * @property {((station: number) => boolean) | null} knows whether the catalogue has a station; null: no catalogue
 * @property {number} [earliestMs] the earliest time an event may carry (0 by default, as the CLI)
 */

/** @typedef {{ms: number, counter?: number, device: string, seq: bigint}} Order a position in the fold's order */
/** @typedef {{compDate: number, memo: string, dateWinner: Order | null, memoWinner: Order | null}} Registers */

/**
 * Whether `a` sorts after `b` in the fold's order (hlc, device, seq), the hlc compared as its
 * milliseconds, then its counter (0 when absent).
 * @param {Order} a @param {Order} b
 */
function after(a, b) {
  if (a.ms !== b.ms) return a.ms > b.ms;
  if ((a.counter ?? 0) !== (b.counter ?? 0)) return (a.counter ?? 0) > (b.counter ?? 0);
  if (a.device !== b.device) return a.device > b.device;
  return a.seq > b.seq;
}

/**
 * The plan of an import, without writing anything (the dry run, and the step the commit runs).
 * @param {TsvRow[]} rows
 * @param {ImportContext} context
 * @returns {ImportPlan}
 */
export function planImport(rows, context) {
  const today = tokyoDay(context.nowMs);
  /** @type {ImportPlan} */
  const plan = { drafts: [], validRows: 0, refused: [], unknownDates: [], clamped: 0 };
  /** @type {TsvRow[]} */
  const valid = [];
  for (const original of rows) {
    const row = { ...original };
    if (row.compDate >= 2 && row.compDate < 19_000_000) row.compDate = 1;
    const problem = problemWith(row, context.knows, today);
    if (problem) {
      plan.refused.push({ line: row.line, ...problem });
      continue;
    }
    if (row.compDate !== original.compDate) plan.unknownDates.push(row.line);
    valid.push(row);
  }
  plan.validRows = valid.length;
  /** @type {Map<number, Registers>} */
  const working = new Map();
  let seq = context.nextSeq;
  for (const row of valid) {
    let ms = row.updateDate * 1000;
    /** @type {ImportDraft['time']} */
    let time = 'row';
    if (ms > context.nowMs) { ms = context.nowMs; time = 'now'; plan.clamped += 1; }
    if (ms < (context.earliestMs ?? 0)) { ms = context.earliestMs ?? 0; time = 'earliest'; }
    const order = { ms, device: context.device, seq };
    const current = working.get(row.station) ?? registersOf(context.fold.get(row.station));
    const untouched = current.dateWinner === null && current.memoWinner === null;
    // A row holding the defaults (0, 0, '') is what the apps store for untouched stations.
    if (untouched && row.compDate === 0 && row.memo === '' && row.updateDate === 0) continue;
    const date = (current.dateWinner === null || after(order, current.dateWinner)) && (row.compDate !== current.compDate || untouched)
      ? row.compDate : null;
    const memo = (current.memoWinner === null || after(order, current.memoWinner)) && row.memo !== current.memo ? row.memo : null;
    if (date === null && memo === null) continue;
    plan.drafts.push({ line: row.line, station: row.station, compDate: date, memo, ms, time });
    working.set(row.station, {
      compDate: date ?? current.compDate, memo: memo ?? current.memo,
      dateWinner: date === null ? current.dateWinner : order, memoWinner: memo === null ? current.memoWinner : order,
    });
    seq += 1n;
  }
  return plan;
}

/**
 * A station's registers as the fold holds them (none for a station without events).
 * @param {Completion | undefined} row
 * @returns {Registers}
 */
function registersOf(row) {
  if (!row) return { compDate: 0, memo: '', dateWinner: null, memoWinner: null };
  return { compDate: row.compDate, memo: row.memo, dateWinner: row.dateWinner, memoWinner: row.memoWinner };
}

/**
 * Why a row cannot be imported, or null (CompletionImporter.problem, in its order).
 * @param {TsvRow} row
 * @param {((station: number) => boolean) | null} knows
 * @param {import('./dates.js').CalendarDay} today
 * @returns {import('./tsvImport.js').TsvProblem | null}
 */
function problemWith(row, knows, today) {
  if (!isValidCode(row.compDate)) return { reason: 'invalid-date', value: String(row.compDate) };
  if (isInFuture(row.compDate, today)) return { reason: 'future-date', value: String(row.compDate) };
  if (utf8Length(row.memo) > MAX_MEMO_BYTES) return { reason: 'memo-too-long', value: String(utf8Length(row.memo)) };
  if (knows && !knows(row.station)) return { reason: 'unknown-station', value: String(row.station) };
  return null;
}
