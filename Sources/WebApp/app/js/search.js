// Finding stations, with the CLI's rules:
//
// - `matchStations`: StationTextMatch.swift, the one rule shared with the Swift code
//   (Schemas/conformance.md "Name matching"): the text and the catalogue's words are folded alike
//   (nameFolding.js), then the folded text must begin the folded name (its 駅 kept, as the apps'
//   LIKE 'word%' kept it: 津駅 does not find 津新町駅), the folded reading, or either (by 'any');
//   anywhere in it with `partial`. An empty folded text matches nothing. Enabled stations, in
//   s_id order.
// - `stationsNamed`: the names a STATION argument accepts (StationResolver.swift): the folded
//   name or reading equals the folded text.
// - `stationsOnLines`: the originals' 路線 search: enabled stations on an enabled line whose
//   folded name begins with the folded text (前方一致) or contains it (部分一致), or whose l_id
//   it is, in s_id order, each station once (as Android; iOS listed a station on two matching
//   lines twice). The CLI's `--by line` always matches any part of the name.
// - `searchStations`: the app's search box: `matchStations` by name, reading or either (exact
//   names first), or `stationsOnLines`, 前方一致 or 部分一致, combined with the filters of
//   `station find` (StationQuery.swift): prefecture, date group, completed / not completed.

import { PREFECTURES } from './catalog.js';
import { fold, foldReading, foldStationName, number } from './nameFolding.js';

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
 * The originals' 路線 search: enabled stations on an enabled line whose folded name begins with
 * the folded text, or contains it when `partial`, or whose l_id the text is; s_id order.
 * @param {Catalog} catalog
 * @param {string} text
 * @param {boolean} partial
 * @returns {number[]}
 */
export function stationsOnLines(catalog, text, partial) {
  const folded = fold(text);
  if (folded === '') return [];
  const id = number(folded);
  /** @type {Set<number>} */
  const found = new Set();
  for (const line of catalog.lines.values()) {
    if (!line.enabled) continue;
    const name = fold(line.name);
    if (line.id !== id && !(partial ? name.includes(folded) : name.startsWith(folded))) continue;
    for (const s of catalog.members.get(line.id) ?? []) if (catalog.station(s)?.enabled) found.add(s);
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * What the search box matches: by name, reading, either, or line, from the start of the word
 * (前方一致, 'prefix') or anywhere in it (部分一致, 'partial').
 * @typedef {{by?: 'any' | 'name' | 'yomi' | 'line', match?: 'prefix' | 'partial'}} SearchHow
 */

/**
 * The search box: an s_id (not for lines), the stations whose name or reading begins with the
 * text (matchStations; with 'partial' contains it), those named exactly first, or the stations
 * of the lines it names (stationsOnLines), with the filters. An empty text lists every station
 * the filters pass.
 * @param {Catalog} catalog
 * @param {string} text
 * @param {Filters} filters
 * @param {(id: number) => number} compDateOf
 * @param {SearchHow} [how] 'any' and 'prefix' by default
 * @returns {number[]}
 */
export function searchStations(catalog, text, filters, compDateOf, how = {}) {
  const by = how.by ?? 'any', partial = how.match === 'partial';
  const folded = fold(text);
  const id = number(folded);
  /** @param {number} s */
  const keep = (s) => passes(/** @type {Station} */ (catalog.station(s)), filters, compDateOf);
  if (by !== 'line' && id !== null && catalog.station(id)) return keep(id) ? [id] : [];
  if (folded === '') return catalog.enabledStations.map((s) => s.id).filter(keep);
  if (by === 'line') return stationsOnLines(catalog, text, partial).filter(keep);
  const exact = new Set(stationsNamed(catalog, text, by));
  const matches = matchStations(catalog, text, by, partial).filter(keep);
  return [...matches.filter((s) => exact.has(s)), ...matches.filter((s) => !exact.has(s))];
}
