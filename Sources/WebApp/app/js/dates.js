// comp_date codes (Schemas/domain-rules.md §2, Schemas/segment-format.md §3.4), mirroring
// Sources/LedgerCore/Date: 0 not completed, 1 completed on an unknown date, YYYY0000, YYYYMM00,
// YYYYMMDD (years from 1900, real Gregorian days). Writers also refuse dates after today in Japan.

/**
 * A Gregorian calendar day.
 * @typedef {{year: number, month: number, day: number}} CalendarDay
 */

export const FIRST_YEAR = 1900;
const JST_OFFSET_MS = 9 * 3_600_000; // Japan has had no daylight saving time since 1951.

/** @param {number} year */
export function isLeapYear(year) {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** @param {number} year @param {number} month 1…12 */
export function daysInMonth(year, month) {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * The day in Asia/Tokyo of a Unix time in milliseconds (CalendarDay(tokyoDateOfUnixMilliseconds:)).
 * @param {number} ms
 * @returns {CalendarDay}
 */
export function tokyoDay(ms) {
  const d = new Date(Math.floor((ms + JST_OFFSET_MS) / 86_400_000) * 86_400_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/**
 * Today's code in Japan (YYYYMMDD).
 * @param {number} nowMs
 */
export function todayCode(nowMs) {
  const t = tokyoDay(nowMs);
  return t.year * 10000 + t.month * 100 + t.day;
}

/**
 * The parts of a code; `null` for a code that is not valid (CompletionDate(code:)).
 * kind: 'none' (0), 'unknown' (1), 'year', 'month', 'day'.
 * @param {number} code
 * @returns {{kind: 'none' | 'unknown' | 'year' | 'month' | 'day', year: number, month: number, day: number} | null}
 */
export function decode(code) {
  if (!Number.isInteger(code) || code < 0 || code > 0xffffffff) return null;
  if (code === 0) return { kind: 'none', year: 0, month: 0, day: 0 };
  if (code === 1) return { kind: 'unknown', year: 0, month: 0, day: 0 };
  const year = Math.floor(code / 10000), month = Math.floor(code / 100) % 100, day = code % 100;
  if (year < FIRST_YEAR) return null;
  if (month === 0) return day === 0 ? { kind: 'year', year, month: 0, day: 0 } : null;
  if (month > 12) return null;
  if (day === 0) return { kind: 'month', year, month, day: 0 };
  if (day > daysInMonth(year, month)) return null;
  return { kind: 'day', year, month, day };
}

/**
 * Whether `code` is one of the values the encoding allows (no "today" bound).
 * @param {number} code
 */
export function isValidCode(code) {
  return decode(code) !== null;
}

/**
 * Whether a valid code lies after `today` (a year after this year, a month after this month…).
 * @param {number} code
 * @param {CalendarDay} today
 */
export function isInFuture(code, today) {
  const d = decode(code);
  if (!d) return false;
  switch (d.kind) {
    case 'year': return d.year > today.year;
    case 'month': return d.year * 100 + d.month > today.year * 100 + today.month;
    case 'day': return code > today.year * 10000 + today.month * 100 + today.day;
    default: return false;
  }
}

/** @param {number} n @param {number} width */
function pad(n, width) {
  return String(n).padStart(width, '0');
}

/**
 * How each kind of date reads in one language.
 * @typedef {object} LabelForms
 * @property {string} none @property {string} unknown
 * @property {(year: number) => string} year
 * @property {(year: number, month: number) => string} month
 * @property {(year: number, month: number, day: number) => string} day
 */

/** @type {Record<'ja' | 'en', LabelForms>} each language's forms (labelEn and labelJa show them) */
const LABEL_FORMS = {
  en: {
    none: 'none', unknown: 'unknown', year: (y) => pad(y, 4), month: (y, m) => `${pad(y, 4)}-${pad(m, 2)}`,
    day: (y, m, d) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`,
  },
  ja: {
    none: '未乗下車', unknown: '乗下車済 (日付不明)', year: (y) => `${y}年頃`, month: (y, m) => `${y}年${m}月頃`,
    day: (y, m, d) => `${y}年${m}月${d}日`,
  },
};

/**
 * The label in a language (LABEL_FORMS); empty for an invalid code.
 * @param {number} code
 * @param {'ja' | 'en'} lang
 */
export function label(code, lang) {
  const d = decode(code);
  if (!d) return '';
  const forms = LABEL_FORMS[lang === 'ja' ? 'ja' : 'en'];
  switch (d.kind) {
    case 'none': return forms.none;
    case 'unknown': return forms.unknown;
    case 'year': return forms.year(d.year);
    case 'month': return forms.month(d.year, d.month);
    default: return forms.day(d.year, d.month, d.day);
  }
}

/**
 * The canonical text form (CompletionDate.description, the `en` label): none, unknown, 2013,
 * 2013-09, 2013-09-01. Empty for an invalid code.
 * @param {number} code
 */
export function labelEn(code) {
  return label(code, 'en');
}

/**
 * The apps' long label (CompletionDate.label(.ja)): 未乗下車, 乗下車済 (日付不明), 2013年頃,
 * 2013年9月頃, 2013年9月1日. Empty for an invalid code.
 * @param {number} code
 */
export function labelJa(code) {
  return label(code, 'ja');
}

/**
 * The fuzzy date picker's value (Schemas/domain-rules.md §23, iOS): year unknown gives 1; otherwise
 * Y×10000 + M×100 + D, where an unknown month forces the day to 0 and a day beyond the month's
 * length reads as "day unknown".
 * @param {number | null} year
 * @param {number | null} month
 * @param {number | null} day
 */
export function compose(year, month, day) {
  if (year === null) return 1;
  if (month === null) return year * 10000;
  if (day === null || day > daysInMonth(year, month)) return year * 10000 + month * 100;
  return year * 10000 + month * 100 + day;
}

/**
 * Why a code cannot be recorded now, or null when it can: it must be valid ('invalid') and not
 * after today in Japan ('future'). refusals.js says it in the app's language.
 * @param {number} code
 * @param {number} nowMs
 * @returns {'invalid' | 'future' | null}
 */
export function dateProblem(code, nowMs) {
  if (!isValidCode(code)) return 'invalid';
  return isInFuture(code, tokyoDay(nowMs)) ? 'future' : null;
}

/**
 * Typed date text as every date parser reads it (DateText.normalizedDate in Sources/LedgerCore/Date):
 * full-width digits become ASCII digits; hyphens, dashes, minus signs and the long-vowel mark
 * become `-`; surrounding white space goes. Conformance/date-groups.jsonl holds the two together.
 * @param {string} text
 */
export function normalizeDateText(text) {
  return keywordForm(text
    .replace(/[\uFF10-\uFF19]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xff10 + 0x30))
    .replace(/[\u2010-\u2015\u2212\uFE63\uFF0D\u30FC\uFF70]/g, '-')
    .trim());
}

/**
 * The original apps' date keywords as the ASCII forms (DateText.keywordForm): text with 年, 月, 日
 * or 不明 gives its integers (at most three) joined by `-`, and `unknown` for 不明 — 「2013年9月」
 * `2013-9`, 「2013年 月日不明」 `2013-unknown`, 「不明」 `unknown`; a day with 不明, or more than three
 * integers, is left as typed.
 * @param {string} text
 */
function keywordForm(text) {
  if (!/[年月日]|不明/.test(text)) return text;
  const unknown = text.includes('不明');
  const numbers = text.split(/[^0-9]+/).filter((part) => part !== '');
  if (numbers.length > 3 || (unknown && numbers.length === 3)) return text;
  return [...numbers, ...(unknown ? ['unknown'] : [])].join('-');
}

/**
 * A date group of the search's date filter (CompletionDateGroup): `2013` is 20130000…20131231,
 * `2013-09` 20130900…20130931, `2013-09-01` that day, `unknown` 1, `2013-unknown` 20130000,
 * `2013-09-unknown` 20130900. Null when the text is none of these.
 * @param {string} text
 * @returns {{low: number, high: number} | null}
 */
export function parseDateGroup(text) {
  const parts = normalizeDateText(text).toLowerCase().split('-');
  if (parts.length === 1 && parts[0] === 'unknown') return { low: 1, high: 1 };
  const unknownLast = parts.length > 1 && parts[parts.length - 1] === 'unknown';
  const numbers = unknownLast ? parts.slice(0, -1) : parts;
  if (numbers.length < 1 || numbers.length > 3 || (unknownLast && numbers.length === 3)) return null;
  if (numbers[0].length !== 4 || !numbers.slice(1).every((p) => p.length >= 1 && p.length <= 2)) return null;
  if (!numbers.every((p) => /^[0-9]+$/.test(p))) return null;
  const year = Number(numbers[0]);
  const month = numbers.length > 1 ? Number(numbers[1]) : 0;
  const day = numbers.length > 2 ? Number(numbers[2]) : 0;
  if (year < FIRST_YEAR) return null;
  if (numbers.length >= 2 && (month < 1 || month > 12)) return null;
  if (numbers.length === 3 && (day < 1 || day > daysInMonth(year, month))) return null;
  const base = year * 10000 + month * 100 + day;
  if (!unknownLast && numbers.length === 1) return { low: base, high: base + 1231 };
  if (!unknownLast && numbers.length === 2) return { low: base, high: base + 31 };
  return { low: base, high: base };
}

/**
 * "2013/09/01 12:34:56 JST": how the apps show a time (Schemas/domain-rules.md §13).
 * @param {number} ms
 */
export function formatJst(ms) {
  const d = new Date(ms + JST_OFFSET_MS);
  return `${pad(d.getUTCFullYear(), 4)}/${pad(d.getUTCMonth() + 1, 2)}/${pad(d.getUTCDate(), 2)} ` +
    `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)} JST`;
}

/**
 * The date the pickers propose for a station not yet completed: the date given last on this
 * device (the `lastDate` setting), as the original apps remember it for entering many stations
 * in a row, unless it is not a completed date or lies after today in Japan (then 0: none, as
 * iOS falls back when it is later than today).
 * @param {unknown} last the stored value
 * @param {number} nowMs
 */
export function rememberedDate(last, nowMs) {
  const code = Number(last ?? 0);
  return code > 0 && isValidCode(code) && !isInFuture(code, tokyoDay(nowMs)) ? code : 0;
}
