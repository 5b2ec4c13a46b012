// What one frame of the map shows above its lines, in screen pixels: the pins (mapLandmarks.js),
// one per point however many stations share it, coloured by whether all, some or none of them
// are completed (completionColours.js); their names and the count bubbles, placed by
// mapLabels.js so that a bubble never covers a pin or a name. Names are placed over the view and
// half a view around it, so that a name does not come and go as its neighbours scroll in.
//
// Pure: a function of the index, the scene, the view and a text measure; map.js draws the result.

import { pinColours, pointState } from './completionColours.js';
import { X_SCALE, project, toScreen } from './mapCore.js';
import { FINEST_LEVEL } from './mapRule.js';
import { shownPins, withoutRepresented } from './mapLandmarks.js';
import { RectSet, placeBubbles, placeLabels } from './mapLabels.js';
import { viewBox } from './map.js';

/** @typedef {import('./mapRule.js').MapIndex} MapIndex */
/** @typedef {import('./mapRule.js').HiddenCell} HiddenCell */
/** @typedef {import('./mapLandmarks.js').ShownPin} ShownPin */
/** @typedef {import('./mapLandmarks.js').Landmarks} Landmarks */
/** @typedef {import('./mapCore.js').Viewport} Viewport */
/** @typedef {import('./map.js').Scene} Scene */
/** @typedef {import('./completionColours.js').PointState} PointState */

/**
 * A pin on the screen: the stations at its point (completed first) and their state.
 * @typedef {object} PinPoint
 * @property {number} station the s_id the pin is for
 * @property {number[]} stations every station at the point (s_ids)
 * @property {PointState} state
 * @property {{left: string, right: string, stroke: string}} colours
 * @property {number} px
 * @property {number} py
 * @property {number} radius
 * @property {boolean} inView
 * @property {number} weight the best weight at the point
 * @property {number} lines the lines of its place (Scene.hubLines)
 */

/**
 * @typedef {object} Overlay
 * @property {number} zoom
 * @property {ShownPin[]} pins every pin gathered (the hit test's candidates)
 * @property {PinPoint[]} points
 * @property {Array<{station: number, text: string, x: number, y: number, px: number, py: number, state: PointState, inView: boolean}>} labels
 * @property {Array<{px: number, py: number, radius: number, cell: HiddenCell}>} bubbles
 * @property {number | null} selected
 */

export const PIN_RADIUS = 7;
export const SELECTED_RADIUS = 9;

/** The empty overlay (no catalogue yet). */
export function emptyOverlay() {
  return /** @type {Overlay} */ ({ zoom: 0, pins: [], points: [], labels: [], bubbles: [], selected: null });
}

/**
 * Radius of a count bubble.
 * @param {number} count
 */
export function countRadius(count) {
  return 9 + Math.min(8, Math.log10(count) * 4);
}

/**
 * @param {object} p
 * @param {MapIndex} p.index the pin index of the current filter
 * @param {Landmarks} p.landmarks the landmarks of the same filter
 * @param {Scene} p.scene
 * @param {Viewport} p.view
 * @param {number} p.width
 * @param {number} p.height
 * @param {(id: number) => string} p.nameOf
 * @param {(text: string) => number} p.measure
 * @param {number | null} p.selected
 * @returns {Overlay}
 */
export function buildOverlay({ index, landmarks, scene, view, width, height, nameOf, measure, selected }) {
  const box = viewBox(view, width, height);
  const area = viewBox(view, width * 2, height * 2);
  const { zoom, pins } = shownPins(index, landmarks, box, area);
  const inView = (/** @type {number} */ px, /** @type {number} */ py) => px >= 0 && py >= 0 && px <= width && py <= height;

  // One pin per point, in the order names are placed: weight, then the lines of the place (hubs
  // first), then s_id.
  /** @type {Map<string, ShownPin>} */
  const byPoint = new Map();
  for (const pin of pins) {
    const key = `${pin.entry.lat},${pin.entry.lng}`;
    const held = byPoint.get(key);
    if (!held || pin.entry.weight < held.entry.weight || (pin.entry.weight === held.entry.weight && pin.entry.id < held.entry.id)) {
      byPoint.set(key, pin);
    }
  }
  /** @type {PinPoint[]} */
  const points = [];
  for (const [key, pin] of byPoint) {
    const i = scene.indexOf.get(pin.entry.id);
    if (i === undefined) continue;
    const at = scene.samePoint.get(key) ?? [i];
    const done = at.reduce((n, j) => n + scene.completed[j], 0);
    const state = pointState(done, at.length);
    const { px, py } = toScreen(view, width, height, scene.xs[i], scene.ys[i]);
    const isSelected = selected !== null && at.some((j) => scene.ids[j] === selected);
    points.push({
      station: pin.entry.id,
      stations: [...at].sort((a, b) => scene.completed[b] - scene.completed[a] || scene.ids[a] - scene.ids[b]).map((j) => scene.ids[j]),
      state, colours: pinColours(state), px, py,
      radius: isSelected ? SELECTED_RADIUS : PIN_RADIUS,
      inView: inView(px, py),
      weight: pin.entry.weight,
      lines: scene.hubLines[i],
    });
  }
  points.sort((a, b) => a.weight - b.weight || b.lines - a.lines || a.station - b.station);

  const taken = new RectSet();
  const placed = placeLabels(points.map((p) => ({ px: p.px, py: p.py, radius: p.radius, text: nameOf(p.station) })), measure, taken);
  const labels = placed.map((l) => {
    const p = points[l.pin];
    return { station: p.station, text: l.text, x: l.x, y: l.y, px: p.px, py: p.py, state: p.state, inView: p.inView };
  });

  // Counts: what the box holds without a pin, less what a pin already stands for.
  /** @type {Map<number, {lat: number, lng: number}>} */
  const represented = new Map();
  for (const p of points) {
    for (const id of p.stations) {
      const minZoom = index.minZoomWithin(id, zoom);
      if (minZoom === undefined || minZoom <= zoom || represented.has(id)) continue;
      const i = scene.indexOf.get(id);
      const s = i === undefined ? null : scene.positions[i];
      if (s && s.lat >= box.south && s.lat < box.north && s.lng >= box.west && s.lng < box.east) represented.set(id, s);
    }
  }
  const cells = withoutRepresented(index.hidden(box), zoom, represented.values()).sort((a, b) => b.count - a.count || a.cellY - b.cellY || a.cellX - b.cellX);
  const cellPx = (2 ** (FINEST_LEVEL - zoom) / 1000) * view.scale;
  const wishes = cells.map((cell) => {
    const m = project(cell.meanLat, cell.meanLng);
    const { px, py } = toScreen(view, width, height, m.x, m.y);
    return { px, py, radius: countRadius(cell.count), reach: (cellPx * X_SCALE) / 2 };
  });
  /** @type {Overlay['bubbles']} */
  const bubbles = [];
  placeBubbles(wishes, taken).forEach((at, k) => {
    if (at) bubbles.push({ px: at.px, py: at.py, radius: wishes[k].radius, cell: cells[k] });
  });
  return { zoom, pins, points, labels, bubbles, selected };
}
