// 地図選択: which stations a selection (route.js MapFilter) shows on the map, what its chip calls
// it, and the selection of each list that offers one (統計's levels, 検索's results, a line).
// Every condition given must hold; only enabled stations are selected, as everywhere
// (Schemas/domain-rules.md §11):
//
// - line: the stations of an enabled line (stations_lines), as its 統計 list and its screen;
// - operator, type: the stations of an enabled operator, of the enabled operators of a type;
// - pref: the prefecture's stations;
// - kana: readings beginning with that kana (a 読み first level); yomi: readings whose first
//   min(2, length) code points equal the key (a 読み list: 「つ」 is the three 津駅, §21);
// - date: the codes of a date group (§5; 'none' is 未乗下車, code 0); completion: 済 / 未;
// - search: the search box's text, matched by name, reading, either or line, 前方一致 or
//   部分一致 (search.js), an empty text being no condition.
//
// The map's 全駅 / 済 / 未 filter applies on top (`shownBy`).

import { operatorTypeName, prefectureName } from './catalog.js';
import { parseDateGroup } from './dates.js';
import { searchStations } from './search.js';
import { yomiPrefix } from './stats.js';
import { language, t } from './i18n.js';

/** @typedef {import('./catalog.js').Catalog} Catalog */
/** @typedef {import('./catalog.js').Station} Station */
/** @typedef {import('./route.js').MapFilter} MapFilter */
/** @typedef {import('./stats.js').Hierarchy} Hierarchy */
/** @typedef {'all' | 'completed' | 'incomplete'} Show */

/** What a search text is matched against, as the chip says it. */
const BY_WORD = /** @type {const} */ ({ any: 'filter.by.any', name: 'filter.by.name', yomi: 'filter.by.yomi', line: 'filter.by.line' });

/**
 * An enabled line's enabled stations in line order (s_sort, then s_id), or null when the
 * catalogue has no such enabled line.
 * @param {Catalog} catalog
 * @param {number} lineId
 * @returns {Station[] | null}
 */
export function lineStations(catalog, lineId) {
  const line = catalog.lines.get(lineId);
  if (!line || !line.enabled) return null;
  /** @type {Set<number>} */
  const seen = new Set();
  /** @type {Station[]} */
  const out = [];
  for (const id of catalog.members.get(lineId) ?? []) {
    const s = catalog.station(id);
    if (s && s.enabled && !seen.has(id)) { seen.add(id); out.push(s); }
  }
  return out;
}

/**
 * The codes a date filter selects, as an inclusive range; null for a text that is no group.
 * @param {string} text a date group (dates.parseDateGroup) or 'none'
 */
export function dateRange(text) {
  return text === 'none' ? { low: 0, high: 0 } : parseDateGroup(text);
}

/**
 * The stations a selection shows, in s_id order.
 * @param {Catalog} catalog
 * @param {MapFilter} filter
 * @param {(id: number) => number} compDateOf
 * @returns {number[]}
 */
export function selectStations(catalog, filter, compDateOf) {
  const onLine = filter.line === undefined ? null : new Set((lineStations(catalog, filter.line) ?? []).map((s) => s.id));
  const range = filter.date === undefined ? null : dateRange(filter.date);
  if (filter.date !== undefined && !range) return [];
  const text = filter.search === undefined || filter.search.trim() === '' ? null
    : new Set(searchStations(catalog, filter.search, {}, compDateOf, { by: filter.by, match: filter.match }));
  /** @param {Station} s */
  const accepts = (s) => {
    if (onLine && !onLine.has(s.id)) return false;
    if (filter.operator !== undefined || filter.type !== undefined) {
      const op = catalog.operators.get(s.operator);
      if (!op || !op.enabled) return false;
      if (filter.operator !== undefined && s.operator !== filter.operator) return false;
      if (filter.type !== undefined && op.type !== filter.type) return false;
    }
    if (filter.pref !== undefined && s.pref !== filter.pref) return false;
    if (filter.kana !== undefined && yomiPrefix(s.yomi, 1) !== filter.kana) return false;
    if (filter.yomi !== undefined && yomiPrefix(s.yomi, 2) !== filter.yomi) return false;
    if (text && !text.has(s.id)) return false;
    if (range || filter.completion) {
      const code = compDateOf(s.id);
      if (range && (code < range.low || code > range.high)) return false;
      if (filter.completion === 'completed' && code === 0) return false;
      if (filter.completion === 'incomplete' && code !== 0) return false;
    }
    return true;
  };
  return catalog.enabledStations.filter(accepts).map((s) => s.id);
}

/**
 * Whether the selection changes with completions (it must be recomputed after every edit).
 * @param {MapFilter} filter
 */
export function dependsOnDates(filter) {
  return filter.date !== undefined || filter.completion !== undefined;
}

/**
 * The stations the map's 全駅 / 済 / 未 filter keeps.
 * @param {number[]} ids
 * @param {Show} show
 * @param {(id: number) => number} compDateOf
 */
export function shownBy(ids, show, compDateOf) {
  return show === 'all' ? ids : ids.filter((id) => (compDateOf(id) > 0) === (show === 'completed'));
}

/**
 * A date filter as the apps title its group: 2013年9月, 2013年 月日不明, 年月日不明, 未乗下車 (the
 * canonical text in English: 2013-09, 2013-unknown, unknown, none).
 * @param {string} text
 */
export function dateFilterLabel(text) {
  const range = dateRange(text);
  if (!range) return text;
  const ja = language() === 'ja';
  if (range.high === 0) return ja ? '未乗下車' : 'none';
  if (range.high === 1) return ja ? '年月日不明' : 'unknown';
  const y = Math.floor(range.low / 10000), m = Math.floor(range.low / 100) % 100, d = range.low % 100;
  const mm = String(m).padStart(2, '0'), dd = String(d).padStart(2, '0');
  if (range.high === range.low + 1231) return ja ? `${y}年` : `${y}`;
  if (range.high === range.low + 31) return ja ? `${y}年${m}月` : `${y}-${mm}`;
  if (m === 0) return ja ? `${y}年 月日不明` : `${y}-unknown`;
  if (d === 0) return ja ? `${y}年${m}月 日付不明` : `${y}-${mm}-unknown`;
  return ja ? `${y}年${m}月${d}日` : `${y}-${mm}-${dd}`;
}

/**
 * What the chip calls a selection, in the app's language: its conditions joined by ' · '
 * (a line as 「近畿日本鉄道 名古屋線」, a prefecture, 「読み「つ」」, 「2013年9月」, 「路線名が「名古屋」で始まる」…).
 * @param {Catalog} catalog
 * @param {MapFilter} filter
 */
export function filterLabel(catalog, filter) {
  /** @type {string[]} */
  const parts = [];
  if (filter.line !== undefined) {
    const line = catalog.lines.get(filter.line);
    parts.push(line ? `${catalog.operatorName(line.operator)} ${line.name}`.trim() : t('filter.unknownLine', filter.line));
  }
  if (filter.operator !== undefined) parts.push(catalog.operatorName(filter.operator) || String(filter.operator));
  if (filter.type !== undefined) parts.push(operatorTypeName(filter.type));
  if (filter.pref !== undefined) parts.push(prefectureName(filter.pref));
  if (filter.kana !== undefined) parts.push(t('filter.yomi', filter.kana));
  if (filter.yomi !== undefined) parts.push(t('filter.yomi', filter.yomi));
  if (filter.search !== undefined && filter.search.trim() !== '') {
    const field = t(BY_WORD[filter.by ?? 'any']);
    parts.push(t(filter.match === 'partial' ? 'filter.partial' : 'filter.prefix', field, filter.search.trim()));
  }
  if (filter.date !== undefined) parts.push(dateFilterLabel(filter.date));
  if (filter.completion !== undefined) parts.push(t(filter.completion === 'completed' ? 'search.completed' : 'search.incomplete'));
  return parts.join(' · ');
}

/**
 * The selection of a 統計 level: the group its path names (operator type, operator, line,
 * prefecture, first kana, reading key, year, month or day, 年月日不明, 未乗下車); null at the top.
 * @param {Hierarchy} hierarchy
 * @param {string[]} path
 * @returns {MapFilter | null}
 */
export function statsFilter(hierarchy, path) {
  const last = path[path.length - 1];
  if (last === undefined) return null;
  switch (hierarchy) {
    case 'operators':
      return [{ type: Number(last) }, { operator: Number(last) }, { line: Number(last) }][path.length - 1] ?? null;
    case 'prefectures':
      return path.length === 1 ? { pref: Number(last) } : null;
    case 'yomi':
      return path.length === 1 ? { kana: last } : path.length === 2 ? { yomi: last } : null;
    case 'dates':
      if (last === 'unknown') return { date: 'unknown' };
      if (last === 'incomplete') return { date: 'none' };
      return { date: dateGroupOfKey(last) };
    default:
      return null;
  }
}

/**
 * A 乗下車日 key (YYYY, YYYYMM with 00 for month unknown, YYYYMMDD with 00 for day unknown) as a
 * date group's text.
 * @param {string} key
 */
function dateGroupOfKey(key) {
  const y = key.slice(0, 4), m = key.slice(4, 6), d = key.slice(6, 8);
  if (key.length === 4) return y;
  if (key.length === 6) return m === '00' ? `${y}-unknown` : `${y}-${m}`;
  return d === '00' ? `${y}-${m}-unknown` : `${y}-${m}-${d}`;
}
