// What the map draws while a selection is set (地図選択): a scene of map.js's shape holding only
// the selected stations, so that map.js draws, pins and hit-tests them unchanged. A selected line
// is drawn along its stations in line order, and its completed sections (lineSections.js) over
// it as lines of their own, all completed, so that map.js strokes them in the 済 colour. And the
// view that fits the selection on the canvas.

import { project } from './mapCore.js';
import { placesOf } from './map.js';
import { completedSections } from './lineSections.js';
import { lineStations } from './mapSelection.js';

/** @typedef {import('./catalog.js').Catalog} Catalog */
/** @typedef {import('./map.js').Scene} Scene */
/** @typedef {import('./mapCore.js').Viewport} Viewport */

/**
 * The scene of the stations `ids` (enabled stations of the catalogue; others are left out), with
 * `line`'s polyline and completed sections when a line is selected.
 * @param {Catalog} catalog
 * @param {number[]} ids
 * @param {(id: number) => number} compDateOf
 * @param {number | null} [line]
 * @returns {Scene}
 */
export function selectionScene(catalog, ids, compDateOf, line = null) {
  const stations = [...new Set(ids)].sort((a, b) => a - b)
    .map((id) => catalog.station(id)).filter(/** @returns {s is import('./catalog.js').Station} */ (s) => !!s && s.enabled);
  const n = stations.length;
  const xs = new Float64Array(n), ys = new Float64Array(n), completed = new Uint8Array(n), sIds = new Int32Array(n);
  /** @type {Map<number, number>} */
  const indexOf = new Map();
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  stations.forEach((s, i) => {
    const p = project(s.lat, s.lng);
    sIds[i] = s.id; xs[i] = p.x; ys[i] = p.y;
    completed[i] = compDateOf(s.id) > 0 ? 1 : 0;
    indexOf.set(s.id, i);
    minX = Math.min(minX, p.x); minY = Math.min(minY, p.y); maxX = Math.max(maxX, p.x); maxY = Math.max(maxY, p.y);
  });
  if (n === 0) { minX = 0; minY = 0; maxX = 0; maxY = 0; }
  /** @type {Scene['lines']} */
  const lines = [];
  const order = line === null ? null : lineStations(catalog, line)?.map((s) => s.id) ?? null;
  if (line !== null && order) {
    /** @param {number[]} list */
    const points = (list) => Int32Array.from(list.flatMap((id) => indexOf.get(id) ?? []));
    const whole = points(order);
    lines.push({ id: line, points: whole, completed: whole.length > 0 && whole.every((i) => completed[i] === 1) });
    for (const section of completedSections(order, (id) => compDateOf(id) > 0)) {
      const p = points(section);
      if (p.length >= 2) lines.push({ id: line, points: p, completed: true });
    }
  }
  return { ids: sIds, xs, ys, completed, indexOf, ...placesOf(catalog, stations), lines, bounds: { minX, minY, maxX, maxY } };
}

/**
 * The view that shows every station of the scene on a width × height canvas with a margin, below
 * `insetTop` pixels covered by controls, no closer than `maxScale`; null for an empty scene (the
 * view stays where it is).
 * @param {Scene} scene
 * @param {number} width
 * @param {number} height
 * @param {number} maxScale CSS pixels per map unit
 * @param {number} [insetTop] CSS pixels at the top that the map's controls cover
 * @returns {Viewport | null}
 */
export function fitSelection(scene, width, height, maxScale, insetTop = 0) {
  const free = height - insetTop;
  if (scene.ids.length === 0 || width <= 0 || free <= 0) return null;
  const { minX, minY, maxX, maxY } = scene.bounds;
  // A tenth of the span on each side, and at least about 150 m, so that a lone station has
  // some neighbourhood.
  const margin = Math.max(1.5, 0.1 * Math.max(maxX - minX, maxY - minY));
  const scale = Math.min(maxScale, width / (maxX - minX + 2 * margin), free / (maxY - minY + 2 * margin));
  // The selection's centre goes to the middle of the free part: half the inset above the canvas's.
  return { cx: (minX + maxX) / 2, cy: (minY + maxY) / 2 - insetTop / 2 / scale, scale };
}
