// Finding stations, with the CLI's rules:
//
// - `matchStations`: StationTextMatch.swift, the one rule shared with the Swift code
//   (Schemas/conformance.md "Name matching"): the text and the catalogue's words are folded alike
//   (folding.js), then the folded text must begin the folded name (its 駅 kept, as the apps'
//   LIKE 'word%' kept it: 津駅 does not find 津新町駅), the folded reading, or either (by 'any');
//   anywhere in it with `partial`. An empty folded text matches nothing. Enabled stations, in
//   s_id order.
// - `stationsNamed`: the names a STATION argument accepts (StationResolver.swift): the folded
//   name or reading equals the folded text.
// - `searchStations`: the app's search box: `matchStations` by name or reading, exact names
//   first, combined with the filters of `station find` (StationQuery.swift): prefecture, date
//   group, completed / not completed.

import { PREFECTURES } from './catalog.js';
import { fold, foldReading, foldStationName, number } from './folding.js';

/** @typedef {import('./catalog.js').Catalog} Catalog */
/** @typedef {import('./catalog.js').Station} Station */

/**
 * The filters (all given must hold).
 * @typedef {object} Filters
 * @property {number[] | null} [prefectures] codes; null or absent: every prefecture
 * @property {{low: number, high: number} | null} [dateGroup] from dates.parseDateGroup
 * @property {'completed' | 'incomplete' | null} [completion]
 */

/**
 * StationResolver.prefectureCodes: a code 1–47, or the prefectures whose name starts with the
 * folded text (大 is 大阪府 and 大分県); null when it names none.
 * @param {string} text
 * @returns {number[] | null}
 */
export function prefectureCodes(text) {
  const folded = fold(text);
  const code = number(folded);
  if (code !== null) return code >= 1 && code <= 47 ? [code] : null;
  const codes = [];
  for (let i = 0; i < PREFECTURES.length; i++) if (folded !== '' && PREFECTURES[i].startsWith(folded)) codes.push(i + 1);
  return codes.length ? codes : null;
}

/**
 * StationQuery.accepts: the date group and completion filters on a comp_date.
 * @param {Filters} filters
 * @param {number} compDate
 */
export function acceptsDate(filters, compDate) {
  if (filters.dateGroup && (compDate < filters.dateGroup.low || compDate > filters.dateGroup.high)) return false;
  if (filters.completion === 'completed') return compDate > 0;
  if (filters.completion === 'incomplete') return compDate === 0;
  return true;
}

/**
 * @param {Station} s
 * @param {Filters} filters
 * @param {(id: number) => number} compDateOf
 */
function passes(s, filters, compDateOf) {
  if (filters.prefectures && !filters.prefectures.includes(s.pref)) return false;
  return acceptsDate(filters, compDateOf(s.id));
}

/** @type {WeakMap<Catalog, Array<{id: number, full: string, name: string, yomi: string}>>} */
const foldedCache = new WeakMap();

/**
 * Enabled stations' folded names (`full` with its 駅, for searching; `name` without, for
 * STATION names) and readings, made once per catalogue.
 * @param {Catalog} catalog
 */
function foldedEntries(catalog) {
  let entries = foldedCache.get(catalog);
  if (!entries) {
    entries = catalog.enabledStations.map((s) => ({ id: s.id, full: fold(s.name), name: foldStationName(s.name), yomi: foldReading(s.yomi) }));
    foldedCache.set(catalog, entries);
  }
  return entries;
}

/**
 * StationTextMatch: enabled stations whose folded name (by 'name'), folded reading (by 'yomi')
 * or either (by 'any') begins with the folded text, or contains it when `partial`.
 * @param {Catalog} catalog
 * @param {string} text
 * @param {'name' | 'yomi' | 'any'} by
 * @param {boolean} partial
 * @returns {number[]} s_ids in order
 */
export function matchStations(catalog, text, by, partial) {
  const name = by === 'yomi' ? '' : fold(text);
  const reading = by === 'name' ? '' : foldReading(text);
  /**
   * @param {string} t
   * @param {string} word
   */
  const fits = (t, word) => (partial ? word.includes(t) : word.startsWith(t));
  return foldedEntries(catalog)
    .filter((e) => (name !== '' && fits(name, e.full)) || (reading !== '' && fits(reading, e.yomi)))
    .map((e) => e.id);
}

/**
 * StationResolver's matches: enabled stations named `text` (with or without 駅) or read so.
 * @param {Catalog} catalog
 * @param {string} text
 * @param {'name' | 'yomi' | 'any'} [by]
 * @returns {number[]} s_ids in order
 */
export function stationsNamed(catalog, text, by = 'any') {
  const name = foldStationName(text), reading = foldReading(text);
  return foldedEntries(catalog)
    .filter((e) => ((by !== 'yomi' && e.name === name) || (by !== 'name' && e.yomi === reading)))
    .map((e) => e.id);
}

/**
 * The search box: an s_id, or the stations whose name or reading begins with the text
 * (matchStations by 'any'), those named exactly first, with the filters. An empty text lists
 * every station the filters pass.
 * @param {Catalog} catalog
 * @param {string} text
 * @param {Filters} filters
 * @param {(id: number) => number} compDateOf
 * @returns {number[]}
 */
export function searchStations(catalog, text, filters, compDateOf) {
  const folded = fold(text);
  const id = number(folded);
  /** @param {number} s */
  const keep = (s) => passes(/** @type {Station} */ (catalog.station(s)), filters, compDateOf);
  if (id !== null && catalog.station(id)) return keep(id) ? [id] : [];
  if (folded === '') return catalog.enabledStations.map((s) => s.id).filter(keep);
  const exact = new Set(stationsNamed(catalog, text));
  const matches = matchStations(catalog, text, 'any', false).filter(keep);
  return [...matches.filter((s) => exact.has(s)), ...matches.filter((s) => !exact.has(s))];
}
