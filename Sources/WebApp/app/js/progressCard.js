// The progress card that 「進捗を共有」 shares as a PNG: what it says and where each part goes,
// without the DOM (ui/shareCard.js draws it on a canvas). A 1080 × 1080 square, the size the
// common sharing targets show whole: the title and the totals across the top, a map of Japan
// (every enabled station a grey dot, the completed ones coloured) on the left, the leading
// prefectures on the right, the date at the bottom.

import { prefectureName } from './catalog.js';
import { project } from './mapCore.js';

/** @typedef {import('./catalog.js').Catalog} Catalog */
/** @typedef {{x: number, y: number, width: number, height: number}} Rect */
/**
 * @typedef {object} CardLayout
 * @property {number} width
 * @property {number} height
 * @property {Rect} title
 * @property {Rect} totals
 * @property {Rect} map
 * @property {Rect} prefectures
 * @property {Rect} footer
 */
/** @typedef {{code: number, name: string, completed: number, total: number, permille: number}} PrefectureShare */

/** The card's side in pixels. */
export const CARD_SIZE = 1080;

/** Prefectures the card names. */
export const LEADING_PREFECTURES = 8;

/**
 * Where the parts of a card of this size go; every part inside the card, none overlapping.
 * @param {number} [width] @param {number} [height]
 * @returns {CardLayout}
 */
export function cardLayout(width = CARD_SIZE, height = CARD_SIZE) {
  const margin = Math.round(width * 0.05);
  const inner = width - 2 * margin;
  const titleHeight = Math.round(height * 0.07);
  const totalsHeight = Math.round(height * 0.13);
  const footerHeight = Math.round(height * 0.05);
  const top = margin + titleHeight + totalsHeight + margin / 2;
  const bodyHeight = height - top - footerHeight - margin;
  const mapWidth = Math.round(inner * 0.58);
  const gap = Math.round(margin / 2);
  return {
    width, height,
    title: { x: margin, y: margin, width: inner, height: titleHeight },
    totals: { x: margin, y: margin + titleHeight, width: inner, height: totalsHeight },
    map: { x: margin, y: top, width: mapWidth, height: bodyHeight },
    prefectures: { x: margin + mapWidth + gap, y: top, width: inner - mapWidth - gap, height: bodyHeight },
    footer: { x: margin, y: height - margin - footerHeight, width: inner, height: footerHeight },
  };
}

/**
 * The prefectures furthest along: those with a completed station, by completed share (truncated
 * per-mille, as the statistics), then by completed stations, then by code.
 * @param {Catalog} catalog @param {(id: number) => number} compDateOf @param {number} [count]
 * @returns {PrefectureShare[]}
 */
export function leadingPrefectures(catalog, compDateOf, count = LEADING_PREFECTURES) {
  /** @type {Map<number, {completed: number, total: number}>} */
  const byPref = new Map();
  for (const s of catalog.enabledStations) {
    const c = byPref.get(s.pref) ?? { completed: 0, total: 0 };
    c.total++;
    if (compDateOf(s.id) > 0) c.completed++;
    byPref.set(s.pref, c);
  }
  return [...byPref].filter(([, c]) => c.completed > 0)
    .map(([code, c]) => ({ code, name: prefectureName(code), ...c, permille: Math.floor((c.completed * 1000) / c.total) }))
    .sort((a, b) => b.permille - a.permille || b.completed - a.completed || a.code - b.code)
    .slice(0, count);
}

/** 沖縄県: drawn in an inset, as maps of Japan draw it, so that the main islands fill the map. */
const OKINAWA = 47;

/**
 * Every enabled station as a dot in `rect`: the main islands fitted inside it with their
 * proportions kept (the map's projection, mapCore.js) and centred; 沖縄県's stations, at the same
 * scale, in an inset in the bottom right corner of the main islands' box, the open sea (`inset`,
 * null without them). `done` marks the completed ones.
 * @param {Catalog} catalog @param {(id: number) => number} compDateOf @param {Rect} rect
 * @returns {{xs: Float64Array, ys: Float64Array, done: Uint8Array, inset: Rect | null}}
 */
export function mapDots(catalog, compDateOf, rect) {
  const stations = catalog.enabledStations;
  const xs = new Float64Array(stations.length), ys = new Float64Array(stations.length);
  const done = new Uint8Array(stations.length);
  const main = bounds(), south = bounds();
  stations.forEach((s, i) => {
    const p = project(s.lat, s.lng);
    xs[i] = p.x; ys[i] = p.y;
    done[i] = compDateOf(s.id) > 0 ? 1 : 0;
    (s.pref === OKINAWA ? south : main).add(p.x, p.y);
  });
  const fit = main.empty() ? south : main;
  if (fit.empty()) return { xs, ys, done, inset: null };
  const spanX = Math.max(fit.maxX - fit.minX, 1e-9), spanY = Math.max(fit.maxY - fit.minY, 1e-9);
  const scale = Math.min(rect.width / spanX, rect.height / spanY);
  const offsetX = rect.x + (rect.width - spanX * scale) / 2, offsetY = rect.y + (rect.height - spanY * scale) / 2;
  /** @type {Rect | null} */
  let inset = null;
  let shiftX = 0, shiftY = 0;
  if (fit === main && !south.empty()) {
    // The bottom right corner of the main islands' box is the Pacific, south of Kanto.
    const side = Math.min(rect.width, rect.height) * 0.18;
    const right = offsetX + spanX * scale, bottom = offsetY + spanY * scale;
    inset = { x: right - side, y: bottom - side, width: side, height: side };
    // The inset's centre is where 沖縄県's centre goes.
    shiftX = inset.x + side / 2 - (offsetX + ((south.minX + south.maxX) / 2 - fit.minX) * scale);
    shiftY = inset.y + side / 2 - (offsetY + ((south.minY + south.maxY) / 2 - fit.minY) * scale);
  }
  stations.forEach((s, i) => {
    const inInset = inset !== null && s.pref === OKINAWA;
    xs[i] = offsetX + (xs[i] - fit.minX) * scale + (inInset ? shiftX : 0);
    ys[i] = offsetY + (ys[i] - fit.minY) * scale + (inInset ? shiftY : 0);
  });
  return { xs, ys, done, inset };
}

/** A bounding box grown point by point. */
function bounds() {
  return {
    minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity,
    /** @param {number} x @param {number} y */
    add(x, y) {
      this.minX = Math.min(this.minX, x); this.maxX = Math.max(this.maxX, x);
      this.minY = Math.min(this.minY, y); this.maxY = Math.max(this.maxY, y);
    },
    empty() { return this.minX === Infinity; },
  };
}

/**
 * The card's file name: the date in Japan, so that cards of different days do not overwrite
 * each other in a downloads folder.
 * @param {number} today YYYYMMDD
 */
export function cardFileName(today) {
  return `oritsubushi-progress-${today}.png`;
}
