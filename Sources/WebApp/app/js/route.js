// Deep links: the screen and the map's filter in the URL's hash, so that a link or a reload opens
// the same view (Schemas/phone-app.md "Deep links"). The grammar:
//
//   #/map | #/nearby | #/search | #/station | #/stats | #/sync   a tab
//   #/station/S_ID                                                a station's screen
//   #/line/L_ID                                                   a line's screen
//   #/map?KEY=VALUE&…                                             the map showing only a selection
//
// The selection's keys (mapSelection.js says what each selects; every key given must hold):
// line=L_ID, operator=O_ID, type=T (operator type 1–10), pref=N (1–47), kana=K (the first kana
// of a reading), yomi=KK (a reading's first two kana), date=G (a date group: 2013, 2013-09,
// 2013-09-01, unknown, 2013-unknown, 2013-09-unknown, or none for not completed),
// completion=completed|incomplete, and search=TEXT with by=any|name|yomi|line and
// match=prefix|partial. Values are percent-encoded UTF-8. A key this grammar does not know is
// ignored; a known key with a value it refuses makes the selection null (the map shows
// everything). The pairing link #pair=CODE is not a route (main.js takes it first).

import { parseDateGroup } from './dates.js';

/** @typedef {'map' | 'nearby' | 'search' | 'station' | 'stats' | 'sync' | 'line'} Screen */
/** @typedef {'any' | 'name' | 'yomi' | 'line'} SearchBy */
/** @typedef {'prefix' | 'partial'} SearchMatch */

/**
 * A selection of stations: every condition given must hold.
 * @typedef {object} MapFilter
 * @property {number} [line] an enabled line's l_id
 * @property {number} [operator] an enabled operator's o_id
 * @property {number} [type] an operator type code
 * @property {number} [pref] a prefecture code
 * @property {string} [kana] one code point: the reading begins with it
 * @property {string} [yomi] one or two code points: the reading's first min(2, length) equal it
 * @property {string} [date] a date group's text, or 'none'
 * @property {'completed' | 'incomplete'} [completion]
 * @property {string} [search] the search box's text (empty: no text condition)
 * @property {SearchBy} [by] what the search text matches (with search; 'any' by default)
 * @property {SearchMatch} [match] how (with search; 'prefix' by default)
 */

/**
 * Where the app is: a screen, and for the station and line screens which one, for the map its
 * selection.
 * @typedef {object} Route
 * @property {Screen} screen
 * @property {number} [station]
 * @property {number} [line]
 * @property {MapFilter | null} [filter]
 */

const TABS = ['map', 'nearby', 'search', 'station', 'stats', 'sync'];

/** The selection keys in the order format writes them. */
const KEYS = ['line', 'operator', 'type', 'pref', 'kana', 'yomi', 'date', 'completion', 'search', 'by', 'match'];

/** The keys that take one of a few words, and the words. */
const WORDS = {
  completion: ['completed', 'incomplete'],
  by: ['any', 'name', 'yomi', 'line'],
  match: ['prefix', 'partial'],
};

/** The longest search text a link carries. */
const MAX_SEARCH = 200;

/**
 * An id as a link writes it: 1 to 10 ASCII digits, 1 … 2³²−1.
 * @param {string} text
 */
function parseId(text) {
  if (!/^[0-9]{1,10}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= 0xffffffff ? n : null;
}

/**
 * Whether an address opens the map of every station: it names no route (the default screen, 地図
 * when there is a catalogue) or 地図 without a selection, and is no pairing link.
 * @param {string} hash location.hash
 */
export function opensOnTheWholeMap(hash) {
  if (hash.startsWith('#pair=')) return false;
  const route = parseRoute(hash);
  return route === null || (route.screen === 'map' && !route.filter);
}

/**
 * The route a hash names, or null (no route: the app's default screen).
 * @param {string} hash location.hash, with or without its '#'
 * @returns {Route | null}
 */
export function parseRoute(hash) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!text.startsWith('/')) return null;
  const [path, query = null] = splitOnce(text.slice(1), '?');
  const parts = path.split('/');
  if (parts.length === 1 && TABS.includes(parts[0])) {
    const screen = /** @type {Screen} */ (parts[0]);
    if (screen === 'map' && query !== null) return { screen, filter: parseFilter(query) };
    return query === null ? { screen } : null;
  }
  if (parts.length === 2 && query === null) {
    const id = parseId(parts[1]);
    if (id === null) return null;
    if (parts[0] === 'station') return { screen: 'station', station: id };
    if (parts[0] === 'line') return { screen: 'line', line: id };
  }
  return null;
}

/**
 * The hash of a route ('#/…'); the inverse of parseRoute.
 * @param {Route} route
 */
export function formatRoute(route) {
  if (route.screen === 'station' && route.station !== undefined) return `#/station/${route.station}`;
  if (route.screen === 'line') return `#/line/${route.line}`;
  if (route.screen === 'map' && route.filter) {
    const query = formatFilter(route.filter);
    return query ? `#/map?${query}` : '#/map';
  }
  return `#/${route.screen}`;
}

/**
 * The query of a selection, its keys in a fixed order, values percent-encoded.
 * @param {MapFilter} filter
 */
export function formatFilter(filter) {
  const f = /** @type {Record<string, unknown>} */ (filter);
  return KEYS.filter((k) => f[k] !== undefined && !(filter.search === undefined && (k === 'by' || k === 'match')))
    .map((k) => `${k}=${encodeURIComponent(String(f[k]))}`).join('&');
}

/**
 * A selection from a query (`line=…&pref=…`); null when a known key's value is refused or no
 * condition is given.
 * @param {string} query
 * @returns {MapFilter | null}
 */
export function parseFilter(query) {
  /** @type {MapFilter} */
  const filter = {};
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const [key, raw = ''] = splitOnce(pair, '=');
    let value;
    try {
      value = decodeURIComponent(raw.replace(/\+/g, ' '));
    } catch {
      return null;
    }
    if (!KEYS.includes(key)) continue;
    if (!setCondition(filter, key, value)) return null;
  }
  if (filter.search === undefined && (filter.by !== undefined || filter.match !== undefined)) return null;
  return Object.keys(filter).length > 0 ? filter : null;
}

/**
 * Sets one condition when its value is one the grammar accepts.
 * @param {MapFilter} filter @param {string} key @param {string} value
 */
function setCondition(filter, key, value) {
  switch (key) {
    case 'line': case 'operator': {
      const id = parseId(value);
      if (id === null) return false;
      filter[key] = id;
      return true;
    }
    case 'type': case 'pref': {
      const n = parseId(value);
      if (n === null || n > (key === 'type' ? 10 : 47)) return false;
      filter[key] = n;
      return true;
    }
    case 'kana': case 'yomi': {
      const points = [...value].length;
      if (points < 1 || points > (key === 'kana' ? 1 : 2)) return false;
      filter[key] = value;
      return true;
    }
    case 'date':
      if (value !== 'none' && parseDateGroup(value) === null) return false;
      filter.date = value;
      return true;
    case 'completion': case 'by': case 'match':
      if (!WORDS[key].includes(value)) return false;
      /** @type {Record<string, string>} */ (filter)[key] = value;
      return true;
    case 'search':
      if ([...value].length > MAX_SEARCH) return false;
      filter.search = value;
      return true;
    default:
      return false;
  }
}

/**
 * @param {string} text @param {string} separator
 * @returns {[string, string] | [string]}
 */
function splitOnce(text, separator) {
  const at = text.indexOf(separator);
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + 1)];
}
