// How many stations had been completed by the end of each year and month: the progress report's
// cumulative series (`oritsubushi report`, ReportPage+Charts.swift `cumulativeChart`), by month.
//
// The report's rule: the years of 乗下車日's top level (Schemas/domain-rules.md §22: enabled
// stations, codes ≥ 19,000,000 grouped by comp_date ÷ 10000), every year from the first to the
// last on the axis (a year without completions adds 0), and the running total of their counts;
// stations of 年月日不明 (code 1) have no year and are left out, with a note of how many. The end
// of each year here is the report's running total for that year.
//
// By month, a code is counted in its month; a code whose month is unknown (YYYY0000) is known to
// be done only by the end of its year, so it is counted in December, or in the month of `today`
// when that year is this year (the chart never reaches into the future).

/** @typedef {import('./catalog.js').Station} Station */
/** @typedef {{year: number, count: number, running: number}} YearPoint */
/** @typedef {{year: number, month: number, count: number, running: number}} MonthPoint */
/**
 * @typedef {object} ProgressSeries
 * @property {YearPoint[]} years every year from the first to the last, the report's numbers
 * @property {MonthPoint[]} months every month from the first completion's to the last
 * @property {number} total the last running total: completed stations with a year
 * @property {number} undated completed stations of 年月日不明, not on the chart
 */

/**
 * The cumulative series of the completed enabled stations.
 * @param {Station[]} stations the counting set: the catalogue's enabled stations
 * @param {(id: number) => number} compDateOf
 * @param {number} [today] today's code (YYYYMMDD) in Japan; without it, month-unknown codes go to December
 * @returns {ProgressSeries}
 */
export function progressSeries(stations, compDateOf, today = 0) {
  /** @type {Map<number, number>} */
  const byYear = new Map();
  /** @type {Map<number, number>} year × 100 + month */
  const byMonth = new Map();
  let undated = 0;
  const thisYear = Math.floor(today / 10000), thisMonth = Math.floor(today / 100) % 100;
  for (const s of stations) {
    const code = compDateOf(s.id);
    if (code <= 0) continue;
    if (code < 19_000_000) { undated++; continue; }
    const year = Math.floor(code / 10000);
    let month = Math.floor(code / 100) % 100;
    if (month === 0) month = year === thisYear && thisMonth > 0 ? thisMonth : 12;
    add(byYear, year, 1);
    add(byMonth, year * 100 + month, 1);
  }
  const yearKeys = [...byYear.keys()].sort((a, b) => a - b);
  if (yearKeys.length === 0) return { years: [], months: [], total: 0, undated };
  /** @type {YearPoint[]} */
  const years = [];
  let running = 0;
  for (let year = yearKeys[0]; year <= yearKeys[yearKeys.length - 1]; year++) {
    const count = byYear.get(year) ?? 0;
    running += count;
    years.push({ year, count, running });
  }
  const monthKeys = [...byMonth.keys()].sort((a, b) => a - b);
  /** @type {MonthPoint[]} */
  const months = [];
  running = 0;
  for (let key = monthKeys[0]; key <= monthKeys[monthKeys.length - 1]; key = nextMonth(key)) {
    const count = byMonth.get(key) ?? 0;
    running += count;
    months.push({ year: Math.floor(key / 100), month: key % 100, count, running });
  }
  return { years, months, total: running, undated };
}

/** @param {number} key year × 100 + month */
function nextMonth(key) {
  return key % 100 === 12 ? (Math.floor(key / 100) + 1) * 100 + 1 : key + 1;
}

/** @param {Map<number, number>} map @param {number} key @param {number} n */
function add(map, key, n) {
  map.set(key, (map.get(key) ?? 0) + n);
}
