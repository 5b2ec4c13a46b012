// Lines, operators and prefectures completed: every station of the group that the statistics
// count (Schemas/domain-rules.md §17, as stats.js counts them) has a date. A line counts its
// enabled stations when the line and its operator are enabled (全事業者's line level); an
// operator its enabled stations when it is enabled; a prefecture its enabled stations. A group
// without a counted station is never complete.
//
// A milestone is a group an edit completed: one of the stations the edit took from 未乗下車 to a
// date lies in it, and every counted station of it is now completed.

import { prefectureName } from './catalog.js';

/** @typedef {import('./catalog.js').Catalog} Catalog */
/** @typedef {import('./catalog.js').Station} Station */
/** @typedef {'line' | 'operator' | 'prefecture'} GroupKind */
/**
 * A group with its name as the screens show it (a line with its operator's name).
 * @typedef {{kind: GroupKind, id: number, name: string, stations: number}} CompletedGroup
 */

/** Which kinds come first when several are listed. */
const KIND_ORDER = { line: 0, operator: 1, prefecture: 2 };

/**
 * The counted stations of a line: enabled stations on an enabled line of an enabled operator.
 * @param {Catalog} catalog @param {number} lineId
 * @returns {Station[]}
 */
export function lineStations(catalog, lineId) {
  const line = catalog.lines.get(lineId);
  if (!line || !line.enabled || !catalog.operators.get(line.operator)?.enabled) return [];
  /** @type {Station[]} */
  const out = [];
  for (const id of catalog.members.get(lineId) ?? []) {
    const s = catalog.stations.get(id);
    if (s && s.enabled) out.push(s);
  }
  return out;
}

/**
 * A line's name with its operator's, since many lines share a name (本線, 空港線), unless the
 * line's name already begins with it (芝山鉄道線).
 * @param {Catalog} catalog @param {number} lineId
 */
export function lineTitle(catalog, lineId) {
  const line = catalog.lines.get(lineId);
  if (!line) return String(lineId);
  const operator = catalog.operatorName(line.operator);
  return operator === '' || line.name.startsWith(operator) ? line.name : `${operator} ${line.name}`;
}

/**
 * Every group whose counted stations are all completed: lines by l_id, then operators by o_id,
 * then prefectures by code.
 * @param {Catalog} catalog @param {(id: number) => number} compDateOf
 * @returns {CompletedGroup[]}
 */
export function completedGroups(catalog, compDateOf) {
  /** @type {Map<number, {all: number, done: number}>} */
  const operators = new Map();
  /** @type {Map<number, {all: number, done: number}>} */
  const prefectures = new Map();
  for (const s of catalog.enabledStations) {
    const done = compDateOf(s.id) > 0 ? 1 : 0;
    if (catalog.operators.get(s.operator)?.enabled) tally(operators, s.operator, done);
    tally(prefectures, s.pref, done);
  }
  /** @type {CompletedGroup[]} */
  const out = [];
  for (const id of [...catalog.lines.keys()].sort((a, b) => a - b)) {
    const stations = lineStations(catalog, id);
    if (stations.length > 0 && stations.every((s) => compDateOf(s.id) > 0)) {
      out.push({ kind: 'line', id, name: lineTitle(catalog, id), stations: stations.length });
    }
  }
  for (const [id, c] of [...operators].sort((a, b) => a[0] - b[0])) {
    if (c.all > 0 && c.done === c.all) out.push({ kind: 'operator', id, name: catalog.operatorName(id), stations: c.all });
  }
  for (const [code, c] of [...prefectures].sort((a, b) => a[0] - b[0])) {
    if (c.all > 0 && c.done === c.all) out.push({ kind: 'prefecture', id: code, name: prefectureName(code), stations: c.all });
  }
  return out;
}

/**
 * The groups an edit completed: those of the `completed` stations (which the edit took from 未乗下車
 * to a date) whose counted stations are now all completed; each once, lines first.
 * @param {Catalog} catalog @param {(id: number) => number} compDateOf
 * @param {number[]} completed
 * @returns {CompletedGroup[]}
 */
export function milestonesOf(catalog, compDateOf, completed) {
  /** @type {Map<string, CompletedGroup>} */
  const found = new Map();
  const done = (/** @type {Station} */ s) => compDateOf(s.id) > 0;
  for (const id of completed) {
    const s = catalog.stations.get(id);
    if (!s || !s.enabled || !done(s)) continue;
    for (const lineId of s.lines) {
      const stations = lineStations(catalog, lineId);
      if (stations.some((m) => m.id === id) && stations.every(done)) {
        found.set(`line ${lineId}`, { kind: 'line', id: lineId, name: lineTitle(catalog, lineId), stations: stations.length });
      }
    }
    if (catalog.operators.get(s.operator)?.enabled) {
      const stations = catalog.enabledStations.filter((m) => m.operator === s.operator);
      if (stations.every(done)) found.set(`operator ${s.operator}`, { kind: 'operator', id: s.operator, name: catalog.operatorName(s.operator), stations: stations.length });
    }
    const inPref = catalog.enabledStations.filter((m) => m.pref === s.pref);
    if (inPref.every(done)) found.set(`prefecture ${s.pref}`, { kind: 'prefecture', id: s.pref, name: prefectureName(s.pref), stations: inPref.length });
  }
  return [...found.values()].sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.id - b.id);
}

/** @param {Map<number, {all: number, done: number}>} map @param {number} key @param {number} done */
function tally(map, key, done) {
  const c = map.get(key);
  if (c) { c.all++; c.done += done; } else map.set(key, { all: 1, done });
}
