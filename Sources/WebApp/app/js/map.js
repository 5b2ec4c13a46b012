// The map drawn on a canvas from the catalogue alone, as the progress report draws it
// (ReportPage+Map.swift, Sources/ReportAssets/report/map.js), with the same arithmetic
// (mapCore.js, the report's file: the projection into map units, the view, the hit test); every enabled line as a
// polyline through its stations, completed stations and fully completed lines in red, the rest
// grey. On top, the pins of Schemas/map.md (they never flicker) with their names, and the count of
// the stations each grid cell holds without a pin.
//
// Everything here is a pure function of a canvas context, the data and a viewport; the
// interaction lives in ui/mapScreen.js.

import { boxFromCenter } from './mapRule.js';
import { X_SCALE, fromScreen, project, stationsAt, toScreen, unproject } from './mapCore.js';

/** @typedef {import('./catalog.js').Catalog} Catalog */
/** @typedef {import('./mapRule.js').MapBox} MapBox */
/** @typedef {import('./mapRule.js').Pin} Pin */
/** @typedef {import('./mapRule.js').HiddenCell} HiddenCell */
/** @typedef {import('./mapCore.js').Viewport} Viewport */

/**
 * What the map draws, built once per catalogue; `completed` changes with edits.
 * @typedef {object} Scene
 * @property {Int32Array} ids enabled stations in s_id order
 * @property {Float64Array} xs
 * @property {Float64Array} ys
 * @property {Uint8Array} completed
 * @property {Map<number, number>} indexOf s_id → index
 * @property {Array<{id: number, points: Int32Array, completed: boolean}>} lines station indices in drawing order
 * @property {{minX: number, minY: number, maxX: number, maxY: number}} bounds
 */

/**
 * Overlay of one frame: the pins and the hidden counts of the current box.
 * @typedef {object} Overlay
 * @property {Pin[]} pins
 * @property {HiddenCell[]} counts
 * @property {(id: number) => string} nameOf
 * @property {number | null} selected
 */

export const STYLE = {
  background: '#f6f7f9',
  done: '#d3302f',
  doneStroke: '#8e1b1a',
  rest: '#b3bcc6',
  stationStroke: '#8a96a3',
  pin: '#ffffff',
  label: '#1d2630',
  labelHalo: 'rgba(255,255,255,0.9)',
  count: '#3b5878',
  countText: '#ffffff',
  font: '12px system-ui, -apple-system, "Hiragino Sans", "Noto Sans CJK JP", sans-serif',
};

/**
 * Builds the scene of a catalogue.
 * @param {Catalog} catalog
 * @param {(id: number) => number} compDateOf
 * @returns {Scene}
 */
export function buildScene(catalog, compDateOf) {
  const stations = catalog.enabledStations;
  const n = stations.length;
  const ids = new Int32Array(n), xs = new Float64Array(n), ys = new Float64Array(n);
  /** @type {Map<number, number>} */
  const indexOf = new Map();
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  stations.forEach((s, i) => {
    const p = project(s.lat, s.lng);
    ids[i] = s.id; xs[i] = p.x; ys[i] = p.y;
    indexOf.set(s.id, i);
    minX = Math.min(minX, p.x); minY = Math.min(minY, p.y); maxX = Math.max(maxX, p.x); maxY = Math.max(maxY, p.y);
  });
  if (n === 0) { minX = 0; minY = -46000; maxX = 146000 * X_SCALE; maxY = -24000; }
  const lines = catalog.hasLineOrder
    ? catalog.drawableLines().map(({ line, stations: list }) => ({
      id: line.id, completed: false,
      points: Int32Array.from(list.map((s) => /** @type {number} */ (indexOf.get(s.id)))),
    }))
    : [];
  const scene = { ids, xs, ys, completed: new Uint8Array(n), indexOf, lines, bounds: { minX, minY, maxX, maxY } };
  updateCompletion(scene, compDateOf);
  return scene;
}

/**
 * Refreshes which stations and lines are completed.
 * @param {Scene} scene @param {(id: number) => number} compDateOf
 */
export function updateCompletion(scene, compDateOf) {
  for (let i = 0; i < scene.ids.length; i++) scene.completed[i] = compDateOf(scene.ids[i]) > 0 ? 1 : 0;
  for (const line of scene.lines) line.completed = line.points.length > 0 && line.points.every((i) => scene.completed[i] === 1);
}

/**
 * A view showing the whole scene in a width × height canvas.
 * @param {Scene} scene @param {number} width @param {number} height
 * @returns {Viewport}
 */
export function fitView(scene, width, height) {
  const { minX, minY, maxX, maxY } = scene.bounds;
  const margin = Math.max(200, (maxX - minX) / 40);
  const scale = Math.min(width / (maxX - minX + 2 * margin), height / (maxY - minY + 2 * margin));
  return { cx: (minX + maxX) / 2, cy: (minY + maxY) / 2, scale };
}

/**
 * The pin query's box for what a view shows (map.md §2, the --center/--span form): its span
 * follows from the canvas size and the scale alone, so panning never changes the zoom level.
 * @param {Viewport} v @param {number} width @param {number} height
 * @returns {MapBox}
 */
export function viewBox(v, width, height) {
  const centre = unproject(v.cx, v.cy);
  const dLat = Math.max(1, Math.round((height / v.scale) * 1000));
  const dLng = Math.max(1, Math.round(((width / v.scale) * 1000) / X_SCALE));
  return boxFromCenter(Math.round(centre.lat), Math.round(centre.lng), dLat, dLng);
}

/**
 * Draws one frame. The context's transform must map CSS pixels (the caller scales for the
 * device pixel ratio).
 * @param {CanvasRenderingContext2D} ctx
 * @param {Scene} scene
 * @param {Viewport} v
 * @param {number} width @param {number} height
 * @param {Overlay} overlay
 */
export function drawMap(ctx, scene, v, width, height, overlay) {
  ctx.fillStyle = STYLE.background;
  ctx.fillRect(0, 0, width, height);
  const { xs, ys, completed } = scene;
  const sx = (/** @type {number} */ x) => width / 2 + (x - v.cx) * v.scale;
  const sy = (/** @type {number} */ y) => height / 2 + (y - v.cy) * v.scale;
  ctx.lineJoin = 'round';
  // Lines: grey first, completed ones on top.
  for (const done of [false, true]) {
    ctx.beginPath();
    for (const line of scene.lines) {
      if (line.completed !== done || line.points.length === 0) continue;
      const p0 = line.points[0];
      ctx.moveTo(sx(xs[p0]), sy(ys[p0]));
      if (line.points.length === 1) ctx.lineTo(sx(xs[p0]) + 0.1, sy(ys[p0]));
      for (let k = 1; k < line.points.length; k++) ctx.lineTo(sx(xs[line.points[k]]), sy(ys[line.points[k]]));
    }
    ctx.strokeStyle = done ? STYLE.done : STYLE.rest;
    ctx.lineWidth = done ? 2.4 : 1.2;
    ctx.stroke();
  }
  // Every station as a dot, completed ones last so they stay on top; tiny dots as squares,
  // which cost a phone far less than 9,500 arcs a frame.
  const r = Math.min(4, Math.max(1.2, 0.9 * Math.sqrt(v.scale * 20)));
  for (const done of [0, 1]) {
    ctx.beginPath();
    for (let i = 0; i < xs.length; i++) {
      if (completed[i] !== done) continue;
      const px = sx(xs[i]), py = sy(ys[i]);
      if (px < -r || py < -r || px > width + r || py > height + r) continue;
      if (r < 2) { ctx.rect(px - r, py - r, 2 * r, 2 * r); continue; }
      ctx.moveTo(px + r, py);
      ctx.arc(px, py, r, 0, 2 * Math.PI);
    }
    ctx.fillStyle = done ? STYLE.done : STYLE.pin;
    ctx.fill();
    ctx.strokeStyle = done ? STYLE.doneStroke : STYLE.stationStroke;
    ctx.lineWidth = 0.8;
    ctx.stroke();
  }
  // Pins, then the counts on top (a count under a pin or a name could not be read); names keep
  // clear of the counts.
  drawPins(ctx, scene, overlay, v, width, height);
  drawCounts(ctx, overlay.counts, v, width, height);
}

/**
 * Radius of a count bubble.
 * @param {number} count
 */
export function countRadius(count) {
  return 9 + Math.min(8, Math.log10(count) * 4);
}

/**
 * @param {CanvasRenderingContext2D} ctx @param {HiddenCell[]} counts @param {Viewport} v
 * @param {number} width @param {number} height
 */
function drawCounts(ctx, counts, v, width, height) {
  ctx.font = STYLE.font;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const cell of counts) {
    const p = project(cell.meanLat, cell.meanLng);
    const { px, py } = toScreen(v, width, height, p.x, p.y);
    const radius = countRadius(cell.count);
    ctx.beginPath();
    ctx.arc(px, py, radius, 0, 2 * Math.PI);
    ctx.fillStyle = STYLE.count;
    ctx.globalAlpha = 0.75;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.fillStyle = STYLE.countText;
    ctx.fillText(String(cell.count), px, py);
  }
}

/**
 * Pins in priority order; names where they do not cover an earlier name.
 * @param {CanvasRenderingContext2D} ctx @param {Scene} scene @param {Overlay} overlay @param {Viewport} v
 * @param {number} width @param {number} height
 */
function drawPins(ctx, scene, overlay, v, width, height) {
  ctx.font = STYLE.font;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  /** @type {Array<[number, number, number, number]>} */
  const taken = overlay.counts.map((cell) => {
    const p = project(cell.meanLat, cell.meanLng);
    const { px, py } = toScreen(v, width, height, p.x, p.y);
    const radius = countRadius(cell.count);
    return /** @type {[number, number, number, number]} */ ([px - radius, py - radius, px + radius, py + radius]);
  });
  for (const pin of [...overlay.pins].reverse()) {
    const i = scene.indexOf.get(pin.entry.id);
    if (i === undefined) continue;
    const { px, py } = toScreen(v, width, height, scene.xs[i], scene.ys[i]);
    const done = scene.completed[i] === 1, selected = overlay.selected === pin.entry.id;
    ctx.beginPath();
    ctx.arc(px, py, selected ? 8 : 6, 0, 2 * Math.PI);
    ctx.fillStyle = done ? STYLE.done : STYLE.pin;
    ctx.fill();
    ctx.lineWidth = selected ? 3 : 2;
    ctx.strokeStyle = done ? STYLE.doneStroke : STYLE.label;
    ctx.stroke();
  }
  for (const pin of overlay.pins) {
    const i = scene.indexOf.get(pin.entry.id);
    if (i === undefined) continue;
    const { px, py } = toScreen(v, width, height, scene.xs[i], scene.ys[i]);
    const text = overlay.nameOf(pin.entry.id);
    const w = ctx.measureText(text).width;
    /** @type {[number, number, number, number]} */
    const rect = [px + 9, py - 8, px + 11 + w, py + 8];
    if (taken.some((o) => rect[0] < o[2] && o[0] < rect[2] && rect[1] < o[3] && o[1] < rect[3])) continue;
    taken.push(rect);
    ctx.lineWidth = 3;
    ctx.strokeStyle = STYLE.labelHalo;
    ctx.strokeText(text, px + 10, py);
    ctx.fillStyle = STYLE.label;
    ctx.fillText(text, px + 10, py);
  }
}

/**
 * What a tap at (px, py) hits: the stations at the nearest pin within `radius` CSS pixels
 * (mapCore.js stationsAt: every station sharing its position, completed first), else a count
 * bubble.
 * @param {Scene} scene @param {Overlay} overlay @param {Viewport} v @param {number} width @param {number} height
 * @param {number} px @param {number} py @param {number} radius
 * @returns {{stations: number[]} | {cell: HiddenCell} | null}
 */
export function hitTest(scene, overlay, v, width, height, px, py, radius) {
  const pins = overlay.pins.flatMap((pin) => scene.indexOf.get(pin.entry.id) ?? []);
  const m = fromScreen(v, width, height, px, py);
  const found = stationsAt({ xs: scene.xs, ys: scene.ys, completed: scene.completed }, m.x, m.y, radius / v.scale, pins);
  if (found.length > 0) return { stations: found.map((i) => scene.ids[i]) };
  for (const cell of overlay.counts) {
    const p0 = project(cell.meanLat, cell.meanLng);
    const p = toScreen(v, width, height, p0.x, p0.y);
    if ((p.px - px) ** 2 + (p.py - py) ** 2 <= countRadius(cell.count) ** 2) return { cell };
  }
  return null;
}
