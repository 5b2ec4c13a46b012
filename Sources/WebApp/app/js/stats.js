// The four statistics hierarchies of the original apps (Schemas/domain-rules.md §17–§22), exactly as
// StatisticsEngine.swift derives them: 全事業者 (operator type → operator → line → stations),
// 全都道府県 (prefecture → stations), 読み (first kana → first two kana → stations) and 乗下車日
// (year → month → day → stations, variable depth).
//
// Counting (Schemas/domain-rules.md §17): only enabled stations count; the operator levels also need an
// enabled operator, the line level an enabled line. A station counts once everywhere except at
// the line level (once per enabled line it is on). Ratios are truncated per-mille. The reading
// levels use the first min(2, length) characters everywhere, so 津 「つ」 is a group of its own.

import { operatorTypeName, prefectureName } from './catalog.js';

/** @typedef {import('./catalog.js').Catalog} Catalog */
/** @typedef {import('./catalog.js').Station} Station */
/** @typedef {'operators' | 'prefectures' | 'yomi' | 'dates'} Hierarchy */
/** @typedef {{total: number, completed: number}} Counts */
/** @typedef {{key: string, label: string, counts: Counts}} Group */
/** @typedef {{station: number, name: string, compDate: number, memo: string}} StatsStation */
/**
 * One level: its own counts, then either its groups or, at the last level, its stations.
 * @typedef {object} StatsLevel
 * @property {Hierarchy} hierarchy
 * @property {string[]} path
 * @property {string[]} pathLabels a title per path key, as `stats` prints it (`10101 北海道旅客鉄道`)
 * @property {string[]} pathNames a name per path key, as a screen shows it (`北海道旅客鉄道`)
 * @property {Counts} counts
 * @property {Group[] | null} groups
 * @property {StatsStation[] | null} stations
 */

/** A path that names no group; `message` is one sentence. */
export class StatsError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'StatsError';
  }
}

/**
 * completed × 1000 ÷ total, truncated; −1 when the total is 0.
 * @param {Counts} c
 */
export function ratioPermille(c) {
  return c.total === 0 ? -1 : Math.floor((c.completed * 1000) / c.total);
}

/**
 * "R.r%", truncated as the apps show it; "-" for an empty group.
 * @param {Counts} c
 */
export function rateText(c) {
  const p = ratioPermille(c);
  return p < 0 ? '-' : `${Math.floor(p / 10)}.${p % 10}%`;
}

/**
 * The apps' description: `N駅中 M駅 R.r% 残りK駅`; date groups drop 「残り」.
 * @param {Counts} c @param {boolean} dateGroup
 */
export function describeJa(c, dateGroup) {
  return `${c.total}駅中 ${c.completed}駅 ${rateText(c)}` + (dateGroup ? '' : ` 残り${c.total - c.completed}駅`);
}

/**
 * The English form: "M of N stations, R.r%, K left".
 * @param {Counts} c @param {boolean} dateGroup
 */
export function describeEn(c, dateGroup) {
  return `${c.completed} of ${c.total} stations, ${rateText(c)}` + (dateGroup ? '' : `, ${c.total - c.completed} left`);
}

/**
 * Code-point order (SQLite's BINARY collation on UTF-8; JavaScript's < compares UTF-16 units,
 * which differs above U+FFFF).
 * @param {string} a @param {string} b
 */
export function compareCodePoints(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i), y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff, ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1; // a surrogate (≥ U+10000) sorts after any BMP unit
    return x - y;
  }
  return a.length - b.length;
}

/**
 * The first `n` code points of a reading.
 * @param {string} yomi @param {number} n
 */
export function yomiPrefix(yomi, n) {
  return [...yomi].slice(0, n).join('');
}

/** Derives statistics from a catalogue and the current comp_dates. */
export class StatisticsEngine {
  /**
   * @param {Catalog} catalog
   * @param {(id: number) => number} compDateOf
   * @param {(id: number) => string} [memoOf]
   */
  constructor(catalog, compDateOf, memoOf = () => '') {
    this.catalog = catalog;
    this.date = compDateOf;
    this.memo = memoOf;
    /** Enabled stations in s_id order: the counting set. */
    this.countable = catalog.enabledStations;
  }

  /** @param {Station[]} list @returns {Counts} */
  counts(list) {
    let completed = 0;
    for (const s of list) if (this.date(s.id) > 0) completed++;
    return { total: list.length, completed };
  }

  /** @param {Station} s @returns {StatsStation} */
  entry(s) {
    return { station: s.id, name: s.name, compDate: this.date(s.id), memo: this.memo(s.id) };
  }

  /**
   * One level of a hierarchy; throws StatsError for a key that names nothing.
   * @param {Hierarchy} hierarchy @param {string[]} path
   * @returns {StatsLevel}
   */
  report(hierarchy, path) {
    switch (hierarchy) {
      case 'operators': return this.operators(path);
      case 'prefectures': return this.prefectures(path);
      case 'yomi': return this.yomi(path);
      case 'dates': return this.dates(path);
      default: throw new StatsError(`there is no hierarchy ${hierarchy}`);
    }
  }

  /** @param {Hierarchy} hierarchy @param {string[]} path */
  level(hierarchy, path) {
    /** @type {StatsLevel} */
    const level = { hierarchy, path, pathLabels: [], pathNames: [], counts: this.counts(this.countable), groups: null, stations: null };
    return level;
  }

  /** @param {string} key @param {string} what */
  static unknown(key, what) {
    return new StatsError(`'${key}' is not ${what} with countable stations in this catalogue`);
  }

  /**
   * A level whose groups are catalogue ids (operator types, operators, lines, prefectures). With no
   * key left (`key` undefined) the report lists the groups and null is returned; else the group the
   * key names becomes the report's last step, and its id and stations are returned.
   * @param {StatsLevel} report @param {Map<number, Station[]>} byId
   * @param {(id: number) => string | undefined} nameOf undefined where the catalogue names no such group
   * @param {string | undefined} key @param {string} what what the key should name, for the StatsError
   * @returns {{id: number, stations: Station[]} | null}
   */
  idLevel(report, byId, nameOf, key, what) {
    if (key === undefined) {
      report.groups = sortedKeys(byId).map((id) => group(String(id), nameOf(id) ?? '', this.counts(get(byId, id))));
      return null;
    }
    const id = parseKey(key);
    const stations = id === null ? undefined : byId.get(id);
    const name = id === null ? undefined : nameOf(id);
    if (id === null || !stations || name === undefined) throw StatisticsEngine.unknown(key, what);
    pathStep(report, `${id}`, name);
    report.counts = this.counts(stations);
    return { id, stations };
  }

  /** @param {string[]} path */
  operators(path) {
    if (path.length > 3) throw new StatsError('the operators hierarchy takes at most 3 keys');
    const report = this.level('operators', path);
    const { catalog } = this;
    /** @type {Map<number, Station[]>} */
    const byType = new Map();
    for (const s of this.countable) {
      const op = catalog.operators.get(s.operator);
      if (op && op.enabled) push(byType, op.type, s);
    }
    const type = this.idLevel(report, byType, operatorTypeName, path[0], 'an operator type');
    if (!type) return report;
    /** @type {Map<number, Station[]>} */
    const byOperator = new Map();
    for (const s of type.stations) push(byOperator, s.operator, s);
    const operator = this.idLevel(report, byOperator, (id) => catalog.operators.get(id)?.name, path[1], `an operator of type ${type.id}`);
    if (!operator) return report;
    // The operator's enabled lines with at least one enabled station; a station counts once
    // per line it is on. Members come in s_sort order (Catalog.members).
    /** @type {Map<number, Station[]>} */
    const lineMembers = new Map();
    for (const [lineId, members] of catalog.members) {
      const line = catalog.lines.get(lineId);
      if (!line || !line.enabled || line.operator !== operator.id) continue;
      for (const id of members) {
        const s = catalog.stations.get(id);
        if (s && s.enabled) push(lineMembers, lineId, s);
      }
    }
    const line = this.idLevel(report, lineMembers, (id) => catalog.lines.get(id)?.name, path[2], `a line of operator ${operator.id}`);
    if (!line) return report;
    report.stations = line.stations.map((s) => this.entry(s));
    return report;
  }

  /** @param {string[]} path */
  prefectures(path) {
    if (path.length > 1) throw new StatsError('the prefectures hierarchy takes at most 1 key');
    const report = this.level('prefectures', path);
    /** @type {Map<number, Station[]>} */
    const byPref = new Map();
    for (const s of this.countable) push(byPref, s.pref, s);
    const pref = this.idLevel(report, byPref, prefectureName, path[0], 'a prefecture code');
    if (!pref) return report;
    // By address in code-point order, then s_id.
    report.stations = [...pref.stations].sort((a, b) => compareCodePoints(a.address, b.address) || a.id - b.id).map((s) => this.entry(s));
    return report;
  }

  /** @param {string[]} path */
  yomi(path) {
    if (path.length > 2) throw new StatsError('the yomi hierarchy takes at most 2 keys');
    const report = this.level('yomi', path);
    /** @param {Station[]} list @param {number} n @returns {Array<[string, Station[]]>} */
    const grouped = (list, n) => {
      /** @type {Map<string, Station[]>} */
      const groups = new Map();
      for (const s of list) push(groups, yomiPrefix(s.yomi, n), s);
      return [...groups.entries()].sort((a, b) => compareCodePoints(a[0], b[0]));
    };
    const level1 = grouped(this.countable, 1);
    if (path.length === 0) {
      report.groups = level1.map(([k, list]) => group(k, k, this.counts(list)));
      return report;
    }
    const first = level1.find(([k]) => k === path[0]);
    if (!first) throw StatisticsEngine.unknown(path[0], 'a first kana');
    pathStep(report, null, path[0]);
    report.counts = this.counts(first[1]);
    const level2 = grouped(first[1], 2);
    if (path.length === 1) {
      report.groups = level2.map(([k, list]) => group(k, k, this.counts(list)));
      return report;
    }
    const sub = level2.find(([k]) => k === path[1]);
    if (!sub) throw StatisticsEngine.unknown(path[1], `a two-kana key under '${path[0]}'`);
    pathStep(report, null, path[1]);
    report.counts = this.counts(sub[1]);
    report.stations = [...sub[1]].sort((a, b) => compareCodePoints(a.yomi, b.yomi) || a.id - b.id).map((s) => this.entry(s));
    return report;
  }

  /** @param {string[]} path */
  dates(path) {
    const report = this.level('dates', path);
    const all = report.counts;
    const completed = this.countable.filter((s) => this.date(s.id) > 0);
    const completedCount = completed.length;
    /** @param {number} code */
    const list = (code) => this.countable.filter((s) => this.date(s.id) === code).map((s) => this.entry(s));
    if (path.length === 0) {
      /** @type {Map<number, number>} */
      const byYear = new Map();
      let unknown = 0;
      for (const s of completed) {
        const code = this.date(s.id);
        if (code < 19_000_000) unknown++; else count(byYear, Math.floor(code / 10000));
      }
      const groups = [...byYear.keys()].sort((a, b) => b - a)
        .map((y) => group(String(y), `${y}年`, { total: completedCount, completed: get(byYear, y) }));
      if (unknown > 0) groups.push(group('unknown', '年月日不明', { total: completedCount, completed: unknown }));
      if (all.total - all.completed > 0) groups.push(group('incomplete', '未乗下車', { total: all.total, completed: all.total - all.completed }));
      report.groups = groups;
      return report;
    }
    const first = path[0];
    if (first === 'unknown' || first === 'incomplete') {
      if (path.length !== 1) throw new StatsError('the dates hierarchy takes at most 1 key here');
      const stations = list(first === 'unknown' ? 1 : 0);
      if (stations.length === 0) throw StatisticsEngine.unknown(first, 'a date group');
      pathStep(report, null, first === 'unknown' ? '年月日不明' : '未乗下車');
      report.counts = { total: first === 'unknown' ? completedCount : all.total, completed: stations.length };
      report.stations = stations;
      return report;
    }
    const year = /^[0-9]{4}$/.test(first) ? Number(first) : 0;
    const inYear = completed.map((s) => this.date(s.id)).filter((c) => Math.floor(c / 10000) === year);
    if (year < 1900 || inYear.length === 0) throw StatisticsEngine.unknown(first, 'a year');
    pathStep(report, null, `${year}年`);
    report.counts = { total: completedCount, completed: inYear.length };
    /** @type {Map<number, number>} */
    const byMonth = new Map();
    for (const c of inYear) count(byMonth, Math.floor(c / 100));
    const unknownLast = (/** @type {number} */ a, /** @type {number} */ b) => ((a % 100 === 0 ? 1 : 0) - (b % 100 === 0 ? 1 : 0)) || a - b;
    /** @param {number} m */
    const monthLabel = (m) => (m % 100 === 0 ? `${year}年 月日不明` : `${year}年${m % 100}月`);
    if (path.length === 1) {
      report.groups = [...byMonth.keys()].sort(unknownLast)
        .map((m) => group(String(m), monthLabel(m), { total: inYear.length, completed: get(byMonth, m) }));
      return report;
    }
    const month = /^[0-9]{6}$/.test(path[1]) ? Number(path[1]) : -1;
    const monthCount = byMonth.get(month);
    if (monthCount === undefined) throw StatisticsEngine.unknown(path[1], `a month (YYYYMM, or YYYY00 for month unknown) of ${year}`);
    pathStep(report, null, monthLabel(month));
    report.counts = { total: inYear.length, completed: monthCount };
    if (month % 100 === 0) {
      if (path.length !== 2) throw new StatsError(`${month} (month unknown) is a station list; it takes no further key`);
      report.stations = list(month * 100);
      return report;
    }
    /** @type {Map<number, number>} */
    const byDay = new Map();
    for (const c of inYear) if (Math.floor(c / 100) === month) count(byDay, c);
    /** @param {number} d */
    const dayLabel = (d) => (d % 100 === 0 ? `${year}年${month % 100}月 日付不明` : `${year}年${month % 100}月${d % 100}日`);
    if (path.length === 2) {
      report.groups = [...byDay.keys()].sort(unknownLast)
        .map((d) => group(String(d), dayLabel(d), { total: monthCount, completed: get(byDay, d) }));
      return report;
    }
    if (path.length !== 3) throw new StatsError('the dates hierarchy takes at most 3 keys');
    const day = /^[0-9]{8}$/.test(path[2]) ? Number(path[2]) : -1;
    const dayCount = byDay.get(day);
    if (dayCount === undefined) throw StatisticsEngine.unknown(path[2], `a day (YYYYMMDD, or YYYYMM00 for day unknown) of ${month}`);
    pathStep(report, null, dayLabel(day));
    report.counts = { total: monthCount, completed: dayCount };
    report.stations = list(day);
    return report;
  }
}

/**
 * A level one key further down: its title as `stats` prints it (the key, then the name, where
 * the key is a code) and its name alone.
 * @param {StatsLevel} level @param {string | null} code @param {string} name
 */
function pathStep(level, code, name) {
  level.pathLabels.push(code === null ? name : `${code} ${name}`);
  level.pathNames.push(name);
}

/** @param {string} key @param {string} label @param {Counts} counts @returns {Group} */
function group(key, label, counts) {
  return { key, label, counts };
}

/**
 * A decimal key (Int64(key) in Swift: optional sign, digits only).
 * @param {string} key
 */
function parseKey(key) {
  return /^[+-]?[0-9]{1,18}$/.test(key) ? Number(key) : null;
}

/** @template K, V @param {Map<K, V[]>} map @param {K} key @param {V} value */
function push(map, key, value) {
  const list = map.get(key);
  if (list) list.push(value); else map.set(key, [value]);
}

/** @template K @param {Map<K, number>} map @param {K} key */
function count(map, key) {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** @template K, V @param {Map<K, V>} map @param {K} key @returns {V} */
function get(map, key) {
  return /** @type {V} */ (map.get(key));
}

/** @param {Map<number, unknown>} map */
function sortedKeys(map) {
  return [...map.keys()].sort((a, b) => a - b);
}
