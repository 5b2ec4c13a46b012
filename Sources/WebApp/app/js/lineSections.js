// A line as a line: its stations in order (mapSelection.js lineStations), how many are done and
// how many remain, and its completed sections, the runs of consecutive completed stations along
// it, which the map draws in the 済 colour over the line when the line is selected. A section
// joins at least two stations: a completed station between two that are not is a dot, not a
// stretch of line.

/** @typedef {{total: number, completed: number, remaining: number}} LineProgress */

/**
 * How far a line is done: its stations, the completed ones, the rest.
 * @param {number[]} ids the line's stations
 * @param {(id: number) => number} compDateOf
 * @returns {LineProgress}
 */
export function lineProgress(ids, compDateOf) {
  let completed = 0;
  for (const id of ids) if (compDateOf(id) > 0) completed++;
  return { total: ids.length, completed, remaining: ids.length - completed };
}

/**
 * The line's line: 「12駅中 8駅 乗下車済・残り4駅」 (ja), "8 of 12 stations done, 4 left" (en).
 * @param {LineProgress} p
 * @param {'ja' | 'en'} lang
 */
export function progressText(p, lang) {
  return lang === 'ja'
    ? `${p.total}駅中 ${p.completed}駅 乗下車済・残り${p.remaining}駅`
    : `${p.completed} of ${p.total} stations done, ${p.remaining} left`;
}

/**
 * The completed sections: maximal runs of consecutive completed stations in line order, each of
 * at least two stations, in order.
 * @param {number[]} ids the line's stations in order
 * @param {(id: number) => boolean} completed
 * @returns {number[][]}
 */
export function completedSections(ids, completed) {
  /** @type {number[][]} */
  const sections = [];
  /** @type {number[]} */
  let run = [];
  for (const id of ids) {
    if (completed(id)) { run.push(id); continue; }
    if (run.length >= 2) sections.push(run);
    run = [];
  }
  if (run.length >= 2) sections.push(run);
  return sections;
}
