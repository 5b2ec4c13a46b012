// The arithmetic of raster tiles on the app's map (Schemas/map.md "Raster tiles"). Tile
// servers cut the world in Web Mercator ({z}/{x}/{y}: 2^z × 2^z squares of 256 pixels, y from the
// north); the map is not Mercator but plain degrees (mapCore.js: x = lng scaled by cos 36°, y =
// -lat). A tile's columns map linearly onto the map, its rows do not: each tile is drawn as
// horizontal strips, each placed at the latitudes of its edges, so that the tile's content lies
// where the map's lines and coast do, within about half a pixel, at every zoom.
//
// Pure: a function of the view; tileLayer.js draws.

import { X_SCALE } from './mapCore.js';

/** @typedef {import('./mapCore.js').Viewport} Viewport */
/** @typedef {{z: number, x: number, y: number}} Tile */
/**
 * The tiles covering a view at one zoom: columns x0…x1 and rows y0…y1, inclusive.
 * @typedef {{z: number, x0: number, x1: number, y0: number, y1: number}} TileRange
 */
/**
 * Where one strip of a tile goes: the rows `top`…`bottom` of the image (fractions of its
 * height) into the rectangle x, y, w, h of the canvas (CSS pixels).
 * @typedef {{top: number, bottom: number, x: number, y: number, w: number, h: number}} Strip
 */

/** A tile's side in CSS pixels when its zoom matches the map's scale. */
export const TILE_SIZE = 256;
/** The deepest zoom asked for (what public tile servers offer); closer views scale its tiles up. */
export const MAX_TILE_ZOOM = 18;
/** Web Mercator's edge: the latitude of the world square's top and bottom. */
const MAX_LAT = 85.0511287798066;

/**
 * The integer zoom whose tiles are nearest TILE_SIZE CSS pixels wide at a scale (CSS pixels per
 * map unit), within 0…MAX_TILE_ZOOM.
 * @param {number} scale
 */
export function tileZoom(scale) {
  const z = Math.round(Math.log2((360000 * X_SCALE * scale) / TILE_SIZE));
  return Number.isFinite(z) ? Math.max(0, Math.min(MAX_TILE_ZOOM, z)) : 0;
}

/** @param {number} lng @param {number} z */
const columnOf = (lng, z) => ((lng + 180) / 360) * 2 ** z;
/** @param {number} lat @param {number} z */
function rowOf(lat, z) {
  const phi = (Math.max(-MAX_LAT, Math.min(MAX_LAT, lat)) * Math.PI) / 180;
  return ((1 - Math.log(Math.tan(phi) + 1 / Math.cos(phi)) / Math.PI) / 2) * 2 ** z;
}
/** @param {number} column @param {number} z */
const lngOf = (column, z) => (column / 2 ** z) * 360 - 180;
/** @param {number} row @param {number} z */
const latOf = (row, z) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * row) / 2 ** z))) * 180) / Math.PI;

/**
 * The tiles of zoom z covering a width × height view; null when the view is outside the world.
 * @param {Viewport} v @param {number} width @param {number} height @param {number} z
 * @returns {TileRange | null}
 */
export function tileRange(v, width, height, z) {
  const n = 2 ** z;
  const west = (v.cx - width / 2 / v.scale) / (1000 * X_SCALE), east = (v.cx + width / 2 / v.scale) / (1000 * X_SCALE);
  const north = -(v.cy - height / 2 / v.scale) / 1000, south = -(v.cy + height / 2 / v.scale) / 1000;
  if (east <= -180 || west >= 180 || north <= -MAX_LAT || south >= MAX_LAT) return null;
  const clamp = (/** @type {number} */ i) => Math.max(0, Math.min(n - 1, Math.floor(i)));
  return { z, x0: clamp(columnOf(west, z)), x1: clamp(columnOf(east, z)), y0: clamp(rowOf(north, z)), y1: clamp(rowOf(south, z)) };
}

/**
 * The tiles of a range, nearest the view's middle first (the order they are asked for).
 * @param {TileRange} range
 * @returns {Tile[]}
 */
export function tilesOf(range) {
  const { z, x0, x1, y0, y1 } = range;
  const mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
  /** @type {Tile[]} */
  const tiles = [];
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) tiles.push({ z, x, y });
  return tiles.sort((a, b) => (a.x - mx) ** 2 + (a.y - my) ** 2 - ((b.x - mx) ** 2 + (b.y - my) ** 2));
}

/** @param {Tile} tile */
export const tileKey = (tile) => `${tile.z}/${tile.x}/${tile.y}`;

/**
 * The tile that holds `tile` at a coarser zoom z (z ≤ tile.z), or that `tile` holds part of.
 * @param {Tile} tile @param {number} z
 * @returns {Tile}
 */
export function ancestorAt(tile, z) {
  const shift = 2 ** (tile.z - z);
  return { z, x: Math.floor(tile.x / shift), y: Math.floor(tile.y / shift) };
}

/**
 * A tile's URL from the server's template: {z}, {x} and {y} replaced.
 * @param {string} template @param {Tile} tile
 */
export function tileUrl(template, tile) {
  return template.replace(/\{z\}/g, String(tile.z)).replace(/\{x\}/g, String(tile.x)).replace(/\{y\}/g, String(tile.y));
}

/**
 * How many strips a tile of zoom z is drawn in, so that its rows err by at most half a pixel over
 * Japan (24–46° N): placed linearly, a whole tile's rows err by up to 1 px at zoom 7, twice that
 * a zoom coarser, and a quarter as much each time the strips double.
 * @param {number} z
 */
export function stripsOf(z) {
  return z >= 8 ? 1 : 2 ** Math.min(3, Math.ceil((8 - z) / 2));
}

/**
 * Where a tile is drawn on a width × height view: its strips, edges on the device's pixel grid so
 * that neighbouring tiles and strips meet with no seam.
 * @param {Viewport} v @param {number} width @param {number} height @param {Tile} tile @param {number} dpr
 * @returns {Strip[]}
 */
export function tileStrips(v, width, height, tile, dpr) {
  const snap = (/** @type {number} */ px) => Math.round(px * dpr) / dpr;
  const sx = (/** @type {number} */ lng) => snap(width / 2 + (lng * 1000 * X_SCALE - v.cx) * v.scale);
  const sy = (/** @type {number} */ lat) => snap(height / 2 + (-lat * 1000 - v.cy) * v.scale);
  const left = sx(lngOf(tile.x, tile.z)), right = sx(lngOf(tile.x + 1, tile.z));
  const count = stripsOf(tile.z);
  /** @type {Strip[]} */
  const strips = [];
  let y = sy(latOf(tile.y, tile.z));
  for (let k = 0; k < count; k++) {
    const next = sy(latOf(tile.y + (k + 1) / count, tile.z));
    if (next > y) strips.push({ top: k / count, bottom: (k + 1) / count, x: left, y, w: right - left, h: next - y });
    y = next;
  }
  return strips;
}
