// The map arithmetic that the progress report (map.js, SVG) and the phone app (app/js/map.js and
// ui/mapScreen.js, canvas) share: the projection into map units, the view's pan and zoom, and the
// hit test of a pointer or a tap. Plain functions with no DOM and no import, so that the report can
// inline it before map.js (a page opened from file:// cannot import: ReportPage.swift strips the
// `export` keywords) and the app can serve it (app/js/mapCore.js is a link to this file).
//
// Map units: thousandths of a degree, x scaled by cos 36° (Japan's middle latitude), y growing
// southwards (Schemas/map.md, "The report's map").

/** cos 36°: the horizontal scale of map units. */
export const X_SCALE = Math.cos((36 * Math.PI) / 180);

/**
 * Map units of a position in micro-degrees.
 * @param {number} lat @param {number} lng
 * @returns {{x: number, y: number}}
 */
export function project(lat, lng) {
  return { x: (lng / 1000) * X_SCALE, y: -lat / 1000 };
}

/**
 * Micro-degrees of a point in map units.
 * @param {number} x @param {number} y
 * @returns {{lat: number, lng: number}}
 */
export function unproject(x, y) {
  return { lat: -y * 1000, lng: (x * 1000) / X_SCALE };
}

/**
 * The centre (map units) and scale (CSS pixels per map unit) of a view.
 * @typedef {{cx: number, cy: number, scale: number}} Viewport
 */

/**
 * Screen position (CSS pixels from the top left of a width × height area) of a map point.
 * @param {Viewport} v @param {number} width @param {number} height @param {number} x @param {number} y
 */
export function toScreen(v, width, height, x, y) {
  return { px: width / 2 + (x - v.cx) * v.scale, py: height / 2 + (y - v.cy) * v.scale };
}

/**
 * Map point under a screen position.
 * @param {Viewport} v @param {number} width @param {number} height @param {number} px @param {number} py
 */
export function fromScreen(v, width, height, px, py) {
  return { x: v.cx + (px - width / 2) / v.scale, y: v.cy + (py - height / 2) / v.scale };
}

/**
 * The view moved by a drag of (dx, dy) CSS pixels: the map follows the finger.
 * @param {Viewport} v @param {number} dx @param {number} dy
 * @returns {Viewport}
 */
export function panBy(v, dx, dy) {
  return { cx: v.cx - dx / v.scale, cy: v.cy - dy / v.scale, scale: v.scale };
}

/**
 * The view zoomed by `factor` (> 1 zooms in) around a screen point, which stays over the same map
 * point; the scale is kept within [minScale, maxScale].
 * @param {Viewport} v @param {number} width @param {number} height @param {number} px @param {number} py
 * @param {number} factor @param {number} minScale @param {number} maxScale
 * @returns {Viewport}
 */
export function zoomAt(v, width, height, px, py, factor, minScale, maxScale) {
  const scale = Math.min(maxScale, Math.max(minScale, v.scale * factor));
  const anchor = fromScreen(v, width, height, px, py);
  return { cx: anchor.x - (px - width / 2) / scale, cy: anchor.y - (py - height / 2) / scale, scale };
}

/**
 * Stations in map units: `xs[i]`, `ys[i]`, and whether station i is completed.
 * @typedef {{xs: ArrayLike<number>, ys: ArrayLike<number>, completed: ArrayLike<number | boolean>}} StationPoints
 */

/**
 * What a pointer or a tap at map point (x, y) hits: every station at the point nearest to it
 * within `radius` map units (stations that share a position — 東京, 新宿, 博多 of several
 * operators — all answer together), completed ones first, then by index; empty when nothing is
 * that close. `candidates` limits which stations can be the nearest (the app's pins); the stations
 * sharing its point are looked for among all.
 * @param {StationPoints} points
 * @param {number} x @param {number} y @param {number} radius
 * @param {Iterable<number>} [candidates]
 * @returns {number[]}
 */
export function stationsAt(points, x, y, radius, candidates) {
  const { xs, ys, completed } = points;
  let best = -1, bestDistance = radius * radius;
  const consider = (/** @type {number} */ i) => {
    const d = (xs[i] - x) ** 2 + (ys[i] - y) ** 2;
    if (d < bestDistance || (d === bestDistance && best < 0)) { bestDistance = d; best = i; }
  };
  if (candidates) for (const i of candidates) consider(i);
  else for (let i = 0; i < xs.length; i++) consider(i);
  if (best < 0) return [];
  const found = [];
  for (let i = 0; i < xs.length; i++) if (xs[i] === xs[best] && ys[i] === ys[best]) found.push(i);
  const done = (/** @type {number} */ i) => (completed[i] ? 0 : 1);
  return found.sort((a, b) => done(a) - done(b) || a - b);
}
