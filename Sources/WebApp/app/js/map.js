// The map drawn on a canvas from the catalogue, as the progress report draws it
// (ReportPage+Map.swift, Sources/ReportAssets/report/map.js), with the same arithmetic
// (mapCore.js, the report's file: the projection into map units, the view, the hit test): under
// everything the base map's land and sea (baseMap.js) and, where the server offers them, raster
// tiles over it (tileLayer.js, passed in as the underlay), then every enabled line as a polyline
// through its stations, fully completed lines green, the rest grey; every station as a dot, green
// when completed, red when not (completionColours.js). On top, the frame's overlay
// (mapOverlay.js): the pins of Schemas/map.md with the app's landmarks (they never flicker), each
// point coloured by whether all, some or none of its stations are completed, their names, and the
// count bubbles, which never cover a pin or a name.
//
// Everything here is a pure function of a canvas context, the data and a viewport; the
// interaction lives in ui/mapScreen.js, which keeps the ground (base map, lines, dots) between
// frames in a layer of its own (mapLayer.js, Schemas/phone-app.md "Drawing the map").

import { boxFromCenter } from './mapRule.js';
import { X_SCALE, fromScreen, stationsAt, unproject } from './mapCore.js';
import { COMPLETION_COLOURS } from './completionColours.js';
import { drawBaseMap } from './baseMap.js';
import { metres } from './nearby.js';

/** @typedef {import('./catalog.js').Catalog} Catalog */
/** @typedef {import('./mapRule.js').MapBox} MapBox */
/** @typedef {import('./mapRule.js').HiddenCell} HiddenCell */
/** @typedef {import('./mapCore.js').Viewport} Viewport */
/** @typedef {import('./mapOverlay.js').Overlay} Overlay */
/** @typedef {import('./baseMap.js').BaseMap} BaseMap */

/**
 * What the map draws, built once per catalogue; `completed` changes with edits.
 * @typedef {object} Scene
 * @property {Int32Array} ids enabled stations in s_id order
 * @property {Float64Array} xs
 * @property {Float64Array} ys
 * @property {Uint8Array} completed
 * @property {Map<number, number>} indexOf s_id → index
 * @property {Array<{lat: number, lng: number}>} positions micro-degrees
 * @property {Uint8Array} lineCounts the lines of each station
 * @property {Uint16Array} hubLines the lines of each station's place: the stations of its name within PLACE_RADIUS_M of each other
 * @property {Map<string, number[]>} samePoint "lat,lng" → the indices of the stations sharing that point, where several do
 * @property {Array<{id: number, points: Int32Array, completed: boolean}>} lines station indices in drawing order
 * @property {{minX: number, minY: number, maxX: number, maxY: number}} bounds
 * @property {number} [revision] counts updateCompletion's changes, so that a drawing kept of the scene (mapLayer.js) knows it is out of date
 */

export const STYLE = {
  background: '#f6f7f9',
  done: COMPLETION_COLOURS.done,
  doneStroke: COMPLETION_COLOURS.doneDark,
  rest: COMPLETION_COLOURS.rest,
  restStroke: COMPLETION_COLOURS.restDark,
  line: '#a3adb8',
  dot: '#ffffff',
  pinRing: '#ffffff',
  label: '#1d2630',
  labelHalo: 'rgba(255,255,255,0.9)',
  count: '#3b5878',
  countText: '#ffffff',
  font: '12px system-ui, -apple-system, "Hiragino Sans", "Noto Sans CJK JP", sans-serif',
};

/**
 * Builds the scene of a catalogue from its geometry (sceneGeometry.js: worked out, or kept from an
 * earlier start) and the completions.
 * @param {Catalog} catalog
 * @param {(id: number) => number} compDateOf
 * @param {import('./sceneGeometry.js').SceneGeometry} geometry
 * @returns {Scene}
 */
export function buildScene(catalog, compDateOf, geometry) {
  const { ids, xs, ys, lineCounts, hubLines, lineIds, lineStarts, linePoints } = geometry;
  const n = ids.length;
  /** @type {Map<number, number>} */
  const indexOf = new Map();
  for (let i = 0; i < n; i++) indexOf.set(ids[i], i);
  const positions = catalog.enabledStations.map((s) => ({ lat: s.lat, lng: s.lng }));
  /** @type {Map<string, number[]>} */
  const samePoint = new Map();
  for (let k = 0; k < geometry.samePoint.length; k += 1 + geometry.samePoint[k]) {
    const at = Array.from(geometry.samePoint.subarray(k + 1, k + 1 + geometry.samePoint[k]));
    samePoint.set(`${positions[at[0]].lat},${positions[at[0]].lng}`, at);
  }
  const lines = Array.from(lineIds, (id, k) => ({ id, completed: false, points: linePoints.subarray(lineStarts[k], lineStarts[k + 1]) }));
  const scene = { ids, xs, ys, completed: new Uint8Array(n), indexOf, positions, lineCounts, hubLines, samePoint, lines, bounds: { ...geometry.bounds } };
  updateCompletion(scene, compDateOf);
  return scene;
}

/**
 * What the pins and names need of the stations a scene draws, by their index in `stations`: their
 * positions, their enabled lines, the lines of their place (placeLines) and the points several
 * of them share.
 * @param {Catalog} catalog
 * @param {import('./catalog.js').Station[]} stations
 */
export function placesOf(catalog, stations) {
  // Plain loops: this runs for every station before the map's first frame, mostly before the JIT.
  const lineCounts = new Uint8Array(stations.length);
  /** @type {Map<string, number[]>} */
  const byPoint = new Map();
  for (let i = 0; i < stations.length; i++) {
    const s = stations[i];
    let enabled = 0;
    for (const l of s.lines) if (catalog.lines.get(l)?.enabled) enabled++;
    lineCounts[i] = Math.min(255, enabled);
    const key = `${s.lat},${s.lng}`;
    const held = byPoint.get(key);
    if (held) held.push(i); else byPoint.set(key, [i]);
  }
  return {
    positions: stations.map((s) => ({ lat: s.lat, lng: s.lng })),
    lineCounts,
    hubLines: placeLines(stations, lineCounts),
    samePoint: new Map([...byPoint].filter(([, at]) => at.length > 1)),
  };
}

/** Stations of one name within this distance of the first of them are one place (東京 of JR and of the Metro). */
export const PLACE_RADIUS_M = 1000;

/**
 * How big a hub each station is: the lines of its place, every station of its name (trimmed)
 * within PLACE_RADIUS_M of the place's first station (s_id order), each with its enabled lines.
 * 東京 (JR East 5, JR Central 1 + 1, the Metro 1) counts 8; a country halt 1.
 * @param {import('./catalog.js').Station[]} stations enabled, in s_id order
 * @param {Uint8Array} lineCounts
 * @returns {Uint16Array}
 */
export function placeLines(stations, lineCounts) {
  /** @type {Map<string, Array<{lat: number, lng: number, members: number[]}>>} */
  const places = new Map();
  for (let i = 0; i < stations.length; i++) {
    const s = stations[i];
    const name = s.name.trim();
    const list = places.get(name);
    if (!list) { places.set(name, [{ lat: s.lat, lng: s.lng, members: [i] }]); continue; }
    const place = list.find((p) => metres(p.lat / 1e6, p.lng / 1e6, s.lat / 1e6, s.lng / 1e6) <= PLACE_RADIUS_M);
    if (place) place.members.push(i); else list.push({ lat: s.lat, lng: s.lng, members: [i] });
  }
  const out = new Uint16Array(stations.length);
  for (const list of places.values()) {
    for (const { members } of list) {
      const total = members.reduce((n, i) => n + lineCounts[i], 0);
      for (const i of members) out[i] = Math.min(65535, total);
    }
  }
  return out;
}

/**
 * Refreshes which stations and lines are completed.
 * @param {Scene} scene @param {(id: number) => number} compDateOf
 */
export function updateCompletion(scene, compDateOf) {
  scene.revision = (scene.revision ?? 0) + 1;
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
 * The ground, under the overlay: the base map, the lines and the stations' dots. It depends on the
 * scale, the scene and the base map, and moves with the view (mapLayer.js keeps it between frames).
 * A frame is STYLE.background over the whole canvas, the ground, then drawOverlay. The context's
 * transform must map CSS pixels (the caller scales for the device pixel ratio).
 * @param {CanvasRenderingContext2D} ctx
 * @param {Scene} scene
 * @param {Viewport} v
 * @param {number} width @param {number} height
 * @param {BaseMap | null} base
 * @param {((ctx: CanvasRenderingContext2D) => void) | null} [underlay] drawn over the base map and under the lines (the raster tiles, ui/mapTiles.js)
 */
export function drawGround(ctx, scene, v, width, height, base, underlay = null) {
  if (base) drawBaseMap(ctx, base, v, width, height);
  if (underlay) underlay(ctx);
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
    ctx.strokeStyle = done ? STYLE.done : STYLE.line;
    ctx.lineWidth = done ? 2.4 : 1.2;
    ctx.stroke();
  }
  // Every station as a dot, completed ones (green) last so they stay on top; tiny dots as
  // squares, which cost a phone far less than 9,500 arcs a frame. Zoomed out, only the completed
  // ones: the red of every other station would hide the lines.
  const r = Math.min(4, Math.max(1.2, 0.9 * Math.sqrt(v.scale * 20)));
  for (const done of r < 2 ? [1] : [0, 1]) {
    ctx.beginPath();
    for (let i = 0; i < xs.length; i++) {
      if (completed[i] !== done) continue;
      const px = sx(xs[i]), py = sy(ys[i]);
      if (px < -r || py < -r || px > width + r || py > height + r) continue;
      if (r < 2) { ctx.rect(px - r, py - r, 2 * r, 2 * r); continue; }
      ctx.moveTo(px + r, py);
      ctx.arc(px, py, r, 0, 2 * Math.PI);
    }
    ctx.fillStyle = done ? STYLE.done : STYLE.dot;
    ctx.fill();
    ctx.strokeStyle = done ? STYLE.doneStroke : STYLE.rest;
    ctx.lineWidth = done ? 0.8 : 1.2;
    ctx.stroke();
  }
}

/**
 * The frame's overlay over the ground: the pins with their names, then the count bubbles.
 * @param {CanvasRenderingContext2D} ctx @param {Overlay} overlay @param {number} width @param {number} height
 */
export function drawOverlay(ctx, overlay, width, height) {
  drawPins(ctx, overlay, width, height);
  drawBubbles(ctx, overlay, width, height);
}

/**
 * A point is drawn when it is within `margin` pixels of the canvas.
 * @param {number} px @param {number} py @param {number} width @param {number} height @param {number} margin
 */
const onCanvas = (px, py, width, height, margin) => px > -margin && py > -margin && px < width + margin && py < height + margin;

/**
 * The pins, each split into its left and right colour (all, some or none of its stations
 * completed), then their names with a halo.
 * @param {CanvasRenderingContext2D} ctx @param {Overlay} overlay @param {number} width @param {number} height
 */
function drawPins(ctx, overlay, width, height) {
  for (const p of [...overlay.points].reverse()) {
    if (!onCanvas(p.px, p.py, width, height, p.radius)) continue;
    for (const [colour, from, to] of /** @type {Array<[string, number, number]>} */ ([[p.colours.left, 0.5, 1.5], [p.colours.right, -0.5, 0.5]])) {
      ctx.beginPath();
      ctx.moveTo(p.px, p.py);
      ctx.arc(p.px, p.py, p.radius, from * Math.PI, to * Math.PI);
      ctx.closePath();
      ctx.fillStyle = colour;
      ctx.fill();
    }
    // A white ring inside a dark one: a pin stands out from the stations' dots.
    const selected = overlay.selected !== null && p.stations.includes(overlay.selected);
    ctx.beginPath();
    ctx.arc(p.px, p.py, p.radius, 0, 2 * Math.PI);
    ctx.lineWidth = 2;
    ctx.strokeStyle = STYLE.pinRing;
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(p.px, p.py, p.radius + 1.5, 0, 2 * Math.PI);
    ctx.lineWidth = selected ? 2.5 : 1;
    ctx.strokeStyle = selected ? STYLE.label : p.colours.stroke;
    ctx.stroke();
  }
  ctx.font = STYLE.font;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (const label of overlay.labels) {
    if (!onCanvas(label.x, label.y, width, height, 200)) continue;
    ctx.lineWidth = 3;
    ctx.strokeStyle = STYLE.labelHalo;
    ctx.strokeText(label.text, label.x, label.y);
    ctx.fillStyle = STYLE.label;
    ctx.fillText(label.text, label.x, label.y);
  }
}

/**
 * The count bubbles, where mapLabels.js placed them.
 * @param {CanvasRenderingContext2D} ctx @param {Overlay} overlay @param {number} width @param {number} height
 */
function drawBubbles(ctx, overlay, width, height) {
  ctx.font = STYLE.font;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const b of overlay.bubbles) {
    if (!onCanvas(b.px, b.py, width, height, b.radius)) continue;
    ctx.beginPath();
    ctx.arc(b.px, b.py, b.radius, 0, 2 * Math.PI);
    ctx.fillStyle = STYLE.count;
    ctx.globalAlpha = 0.8;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.fillStyle = STYLE.countText;
    ctx.fillText(String(b.cell.count), b.px, b.py);
  }
}

/**
 * What a tap at (px, py) hits: the stations at the nearest pin within `radius` CSS pixels
 * (mapCore.js stationsAt: every station sharing its position, completed first), else a count
 * bubble where it is drawn.
 * @param {Scene} scene @param {Overlay} overlay @param {Viewport} v @param {number} width @param {number} height
 * @param {number} px @param {number} py @param {number} radius
 * @returns {{stations: number[]} | {cell: HiddenCell} | null}
 */
export function hitTest(scene, overlay, v, width, height, px, py, radius) {
  const pins = overlay.pins.flatMap((pin) => scene.indexOf.get(pin.entry.id) ?? []);
  const m = fromScreen(v, width, height, px, py);
  const found = stationsAt({ xs: scene.xs, ys: scene.ys, completed: scene.completed }, m.x, m.y, radius / v.scale, pins);
  if (found.length > 0) return { stations: found.map((i) => scene.ids[i]) };
  for (const b of overlay.bubbles) {
    if ((b.px - px) ** 2 + (b.py - py) ** 2 <= b.radius ** 2) return { cell: b.cell };
  }
  return null;
}
