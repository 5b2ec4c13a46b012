// The base map under the lines: land, sea, the large lakes and the prefecture borders, from
// geo/japan.json (written by Tools/map-geography from GSHHG and japanmap; format in
// Schemas/phone-app.md "The base map"). It comes with the app, so the service worker holds it and
// the map has its coast with no network. The file has the same shorelines and borders simplified
// at a few tolerances; the map draws the coarsest level whose tolerance is under two pixels of the
// view, so a view of all Japan draws a few thousand points and a city the finest. The level, and
// whether the borders are drawn, follow from the view's scale alone, so nothing blinks in a pan.

import { X_SCALE } from './mapCore.js';

/** @typedef {import('./mapCore.js').Viewport} Viewport */

/**
 * A ring (closed) or a line (open) in map units (x, y interleaved), with its bounds.
 * @typedef {{points: Float64Array, minX: number, minY: number, maxX: number, maxY: number}} Ring
 */
/**
 * One level: its tolerance (metres), the box it covers (map units), its land and lakes (rings)
 * and the prefecture borders (lines).
 * @typedef {{tolerance: number, bounds: {minX: number, minY: number, maxX: number, maxY: number}, land: Ring[], lakes: Ring[], borders: Ring[]}} BaseLevel
 */
/**
 * The file's levels, coarsest first.
 * @typedef {{source: string, levels: BaseLevel[]}} BaseMap
 */

export const BASE_STYLE = {
  sea: '#dde9f1',
  land: '#f7f6f1',
  coast: '#9fb3c2',
  // Muted and dashed: a border is where the land changes hands, not a railway line (map.js's grey
  // lines are solid and darker).
  border: '#b4aea3',
  borderDash: [4, 3],
};

/** Metres per map unit along a meridian (a thousandth of a degree of latitude). */
export const METRES_PER_UNIT = 111.195;
/** A level is drawn while its tolerance is at most this many pixels of the view. */
const MAX_TOLERANCE_PX = 2;
/**
 * The borders are drawn while a pixel covers at least this many metres: a city's zoom (44 m a
 * pixel) has them, a street's not. Their source puts them a few hundred metres from where they
 * are (docs/phone-app.md "The base map"), which closer in would be tens of pixels.
 */
export const BORDER_MIN_METRES_PER_PX = 30;

/** A base map file that is not the format's shape. */
export class BaseMapError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'BaseMapError';
  }
}

/**
 * One stored ring decoded: a first point in `unit` micro-degrees, then differences.
 * @param {unknown} flat @param {number} unit
 * @returns {Ring}
 */
export function decodeRing(flat, unit) {
  return decodePath(flat, unit, 3, 'ring');
}

/**
 * One stored border decoded: an open line, stored as a ring is.
 * @param {unknown} flat @param {number} unit
 * @returns {Ring}
 */
export function decodeLine(flat, unit) {
  return decodePath(flat, unit, 2, 'border');
}

/**
 * @param {unknown} flat @param {number} unit
 * @param {number} minPoints @param {string} what
 * @returns {Ring}
 */
function decodePath(flat, unit, minPoints, what) {
  if (!Array.isArray(flat) || flat.length < 2 * minPoints || flat.length % 2 !== 0 || !flat.every(Number.isSafeInteger)) {
    throw new BaseMapError(`a base map ${what} is not an even list of at least ${2 * minPoints} integers`);
  }
  const points = new Float64Array(flat.length);
  let lng = 0, lat = 0, minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let k = 0; k < flat.length; k += 2) {
    lng += flat[k];
    lat += flat[k + 1];
    const x = ((lng * unit) / 1000) * X_SCALE, y = -(lat * unit) / 1000;
    points[k] = x;
    points[k + 1] = y;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { points, minX, minY, maxX, maxY };
}

/**
 * A level's box [south, west, north, east] (micro-degrees) in map units.
 * @param {unknown} bbox
 */
function decodeBox(bbox) {
  if (!Array.isArray(bbox) || bbox.length !== 4 || !bbox.every(Number.isSafeInteger) || !(bbox[0] < bbox[2] && bbox[1] < bbox[3])) {
    throw new BaseMapError('a base map level has no box [south, west, north, east]');
  }
  const [south, west, north, east] = bbox;
  return { minX: (west / 1000) * X_SCALE, minY: -north / 1000, maxX: (east / 1000) * X_SCALE, maxY: -south / 1000 };
}

/**
 * The checked, decoded document.
 * @param {unknown} doc
 * @returns {BaseMap}
 */
export function decodeBaseMap(doc) {
  const d = /** @type {Record<string, unknown>} */ (doc);
  if (typeof doc !== 'object' || doc === null || d.format !== 1) throw new BaseMapError('the base map is not format 1');
  const unit = d.unit;
  if (typeof unit !== 'number' || !Number.isSafeInteger(unit) || unit <= 0) throw new BaseMapError('the base map has no unit');
  if (!Array.isArray(d.levels) || d.levels.length === 0) throw new BaseMapError('the base map has no level');
  const levels = d.levels.map((level) => {
    const l = /** @type {Record<string, unknown>} */ (level);
    if (typeof l?.tolerance !== 'number' || !(l.tolerance > 0) || !Array.isArray(l.land) || !Array.isArray(l.lakes)) {
      throw new BaseMapError('a base map level lacks its tolerance, land or lakes');
    }
    if (l.borders !== undefined && !Array.isArray(l.borders)) throw new BaseMapError('a base map level\'s borders are not a list');
    return {
      tolerance: l.tolerance,
      bounds: decodeBox(l.bbox),
      land: l.land.map((r) => decodeRing(r, unit)),
      lakes: l.lakes.map((r) => decodeRing(r, unit)),
      borders: (l.borders ?? []).map((r) => decodeLine(r, unit)),
    };
  }).sort((a, b) => b.tolerance - a.tolerance);
  return { source: typeof d.source === 'string' ? d.source : '', levels };
}

/**
 * The level to draw at a scale (CSS pixels per map unit): the coarsest whose tolerance is at most
 * MAX_TOLERANCE_PX pixels, else the finest.
 * @param {BaseMap} base @param {number} scale
 * @returns {BaseLevel}
 */
export function levelFor(base, scale) {
  const metresPerPixel = METRES_PER_UNIT / scale;
  return base.levels.find((l) => l.tolerance <= MAX_TOLERANCE_PX * metresPerPixel) ?? base.levels[base.levels.length - 1];
}

/**
 * Whether the borders are drawn at a scale (CSS pixels per map unit).
 * @param {number} scale
 */
export function bordersShown(scale) {
  return METRES_PER_UNIT / scale >= BORDER_MIN_METRES_PER_PX;
}

/**
 * Adds to the context's path the rings or lines that reach into the view's box, and says how many.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Ring[]} paths
 * @param {{left: number, right: number, top: number, bottom: number}} box the view, map units
 * @param {(x: number) => number} sx @param {(y: number) => number} sy map units to CSS pixels
 * @param {boolean} closed
 */
export function tracePaths(ctx, paths, box, sx, sy, closed) {
  let traced = 0;
  for (const path of paths) {
    if (path.maxX < box.left || path.minX > box.right || path.maxY < box.top || path.minY > box.bottom) continue;
    const p = path.points;
    ctx.moveTo(sx(p[0]), sy(p[1]));
    for (let k = 2; k < p.length; k += 2) ctx.lineTo(sx(p[k]), sy(p[k + 1]));
    if (closed) ctx.closePath();
    traced++;
  }
  return traced;
}

/**
 * Fetches and decodes the base map; null when it cannot be had (the map is drawn without it).
 * @param {(url: string) => Promise<Response>} fetchFile
 * @param {string} [url]
 * @returns {Promise<BaseMap | null>}
 */
export async function loadBaseMap(fetchFile, url = 'geo/japan.json') {
  try {
    const response = await fetchFile(url);
    if (!response.ok) throw new BaseMapError(`the base map answered HTTP ${response.status}`);
    return decodeBaseMap(await response.json());
  } catch (error) {
    console.debug('the map is drawn without its base map:', error);
    return null;
  }
}

/**
 * Paints the sea, the land, the lakes and the borders of the level that suits the view.
 * @param {CanvasRenderingContext2D} ctx
 * @param {BaseMap} base
 * @param {Viewport} v
 * @param {number} width @param {number} height
 */
export function drawBaseMap(ctx, base, v, width, height) {
  const sx = (/** @type {number} */ x) => width / 2 + (x - v.cx) * v.scale;
  const sy = (/** @type {number} */ y) => height / 2 + (y - v.cy) * v.scale;
  const level = levelFor(base, v.scale);
  const b = level.bounds;
  ctx.save();
  // A level covers a box: sea inside it, nothing said outside; the shorelines the box cut are
  // closed along its edges, which the clip keeps from being drawn as coast.
  ctx.beginPath();
  ctx.rect(sx(b.minX) + 1, sy(b.minY) + 1, (b.maxX - b.minX) * v.scale - 2, (b.maxY - b.minY) * v.scale - 2);
  ctx.fillStyle = BASE_STYLE.sea;
  ctx.fill();
  ctx.clip();
  // A pixel more than the view: the coast's stroke reaches half its width beyond a ring's points,
  // and the map's layer (mapLayer.js) paints the ground in rectangles that must meet seamlessly.
  const halfW = width / 2 / v.scale + 1 / v.scale, halfH = height / 2 / v.scale + 1 / v.scale;
  const left = v.cx - halfW, right = v.cx + halfW, top = v.cy - halfH, bottom = v.cy + halfH;
  const box = { left, right, top, bottom };
  for (const [rings, fill] of /** @type {Array<[Ring[], string]>} */ ([[level.land, BASE_STYLE.land], [level.lakes, BASE_STYLE.sea]])) {
    ctx.beginPath();
    tracePaths(ctx, rings, box, sx, sy, true);
    ctx.fillStyle = fill;
    ctx.fill();
    ctx.strokeStyle = BASE_STYLE.coast;
    ctx.lineWidth = 0.8;
    ctx.stroke();
  }
  // Over the lakes (a border may cross one), under the lines; one dashed stroke for them all.
  if (bordersShown(v.scale)) {
    ctx.beginPath();
    if (tracePaths(ctx, level.borders, box, sx, sy, false) > 0) {
      ctx.setLineDash(BASE_STYLE.borderDash);
      ctx.strokeStyle = BASE_STYLE.border;
      ctx.lineWidth = 0.8;
      ctx.stroke();
    }
  }
  ctx.restore();
}
