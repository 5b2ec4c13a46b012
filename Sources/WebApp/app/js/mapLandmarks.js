// The app's pins: the shared rule's (mapRule.js, Schemas/map.md: one best station per grid cell of
// the zoom level) and, on top, the landmarks of the level: stations whose catalogue weight is at
// most landmarkWeight(level), kept apart by a spacing, by weight, then the lines of the place
// (hubs first). Weights 1–9 were set by hand on the
// stations people know (Shinkansen stops, termini, junctions, a town's main station;
// Schemas/domain-rules.md §1.3), so at a zoom showing Tokyo, 東京, 新宿, 渋谷, 池袋 and 上野 are pins
// wherever the grid's cells fall. Both parts are functions of the station, the level and the
// filter alone, and both grow as the level does: a pin never flickers while the view pans, and
// zooming in never removes one.
//
// The shared rule and its corpus (Conformance/map-pins.jsonl) are untouched: landmarks are the
// app's drawing step on top of them, and they leave the per-cell counts.

import { FINEST_LEVEL, boxContains, gridX, gridY, zoomFor } from './mapRule.js';
import { project } from './mapCore.js';

/** @typedef {import('./mapRule.js').MapIndex} MapIndex */
/** @typedef {import('./mapRule.js').MapBox} MapBox */
/** @typedef {import('./mapRule.js').MapEntry} MapEntry */
/** @typedef {import('./mapRule.js').HiddenCell} HiddenCell */

/**
 * A pin of the view: a station, and whether it is there as a landmark (else by the shared rule).
 * @typedef {{entry: MapEntry, landmark: boolean}} ShownPin
 */
/**
 * A station that may be a landmark: its position, weight, and the lines of the place it belongs
 * to (Scene.hubLines: 東京 counts 8, a country halt 1).
 * @typedef {MapEntry & {lines: number}} LandmarkEntry
 */

/**
 * At level z no two landmarks are closer than this share of the level's grid cell (the shared
 * rule's, 2^(29 − z) micro-degrees): a fifth, 15 to 30 pixels on a phone, so pins do not pile up
 * (the capitals of Kanto at a view of all Japan) and 新宿, 渋谷 and 池袋 stay apart at a view of Tokyo.
 */
export const LANDMARK_SPACING = 0.2;

/**
 * The largest weight a landmark may have at a zoom level (0: none). Level 6 or 7 shows all of
 * Japan on a phone (weight 1: the prefectures' main stations and the Shinkansen's big stops, 53 in
 * v176), 9 a region, 12 or 13 a city (Tokyo's 23 wards), 14 and finer a few stations' streets.
 * @param {number} zoom
 */
export function landmarkWeight(zoom) {
  if (zoom >= 14) return 5;
  if (zoom >= 12) return 3;
  if (zoom >= 9) return 2;
  if (zoom >= 6) return 1;
  return 0;
}

/**
 * The order of landmarks: weight, then the lines of the place (hubs first), then s_id.
 * @param {LandmarkEntry} a @param {LandmarkEntry} b
 */
export function landmarkOrder(a, b) {
  return a.weight - b.weight || b.lines - a.lines || a.id - b.id;
}

/**
 * The landmarks of one filter, with the first level at which each is shown: level by level,
 * coarsest first, a station light enough for the level becomes a landmark when no landmark (of
 * this level or a coarser one) is within the level's spacing, in landmarkOrder. A landmark stays
 * one at every finer level, so zooming in never removes one, and at any level no two are closer
 * than its spacing. A level depends on the coarser ones alone, so levels are worked out when a view
 * first needs them: the map's first frame, of all Japan, needs two of the 24.
 */
export class Landmarks {
  /** @param {LandmarkEntry[]} entries the stations the filter leaves */
  constructor(entries) {
    const heaviest = landmarkWeight(FINEST_LEVEL);
    /** @type {LandmarkEntry[]} candidates in landmarkOrder */
    this.entries = entries.filter((e) => e.weight <= heaviest).sort(landmarkOrder);
    /** @type {Map<number, number>} s_id → the first level it is a landmark at, of the levels worked out */
    this.firstLevels = new Map();
    this.points = this.entries.map((e) => project(e.lat, e.lng));
    /** @type {number[]} indices of the landmarks so far */
    this.shown = [];
    /** The finest level worked out. */
    this.through = -1;
  }

  /** s_id → the first level it is a landmark at (every level worked out). */
  get minZoomById() {
    this.workOut(FINEST_LEVEL);
    return this.firstLevels;
  }

  /**
   * Works out the levels up to `last`.
   * @param {number} last
   */
  workOut(last) {
    const { points, shown } = this;
    for (let zoom = this.through + 1; zoom <= Math.min(last, FINEST_LEVEL); zoom++) {
      this.through = zoom;
      const weight = landmarkWeight(zoom);
      if (weight === 0) continue;
      const spacing = (LANDMARK_SPACING * 2 ** (FINEST_LEVEL - zoom)) / 1000;
      /** @type {Map<string, number[]>} */
      const grid = new Map();
      const cellOf = (/** @type {number} */ x, /** @type {number} */ y) => `${Math.floor(x / spacing)},${Math.floor(y / spacing)}`;
      const add = (/** @type {number} */ i) => {
        const key = cellOf(points[i].x, points[i].y);
        const list = grid.get(key);
        if (list) list.push(i); else grid.set(key, [i]);
      };
      const crowded = (/** @type {number} */ i) => {
        const gx = Math.floor(points[i].x / spacing), gy = Math.floor(points[i].y / spacing);
        for (let dx = -1; dx <= 1; dx++) {
          for (let dy = -1; dy <= 1; dy++) {
            for (const j of grid.get(`${gx + dx},${gy + dy}`) ?? []) {
              if (Math.hypot(points[i].x - points[j].x, points[i].y - points[j].y) < spacing) return true;
            }
          }
        }
        return false;
      };
      for (const i of shown) add(i);
      for (let i = 0; i < this.entries.length && this.entries[i].weight <= weight; i++) {
        if (this.firstLevels.has(this.entries[i].id) || crowded(i)) continue;
        this.firstLevels.set(this.entries[i].id, zoom);
        shown.push(i);
        add(i);
      }
    }
  }

  /**
   * The landmarks of a level inside a box, in landmarkOrder.
   * @param {MapBox} box @param {number} zoom
   * @returns {LandmarkEntry[]}
   */
  shownIn(box, zoom) {
    this.workOut(zoom);
    return this.entries.filter((e) => (this.firstLevels.get(e.id) ?? Infinity) <= zoom && boxContains(box, e.lat, e.lng));
  }
}

/**
 * The pins at the level `box`'s span decides, gathered over `area` (the box itself, or a larger
 * box around it, so that labels can be placed as if the map went on): the shared rule's in their
 * priority order, then the landmarks that are not already pins.
 * @param {MapIndex} index
 * @param {Landmarks} landmarks of the same filter
 * @param {MapBox} box
 * @param {MapBox} [area]
 * @returns {{zoom: number, pins: ShownPin[]}}
 */
export function shownPins(index, landmarks, box, area = box) {
  const zoom = zoomFor(box.span, index.limit);
  const shared = index.shownIndexes(area, zoom);
  const extra = landmarks.shownIn(area, zoom).filter((e) => !((index.minZoomWithin(e.id, zoom) ?? Infinity) <= zoom));
  return {
    zoom,
    pins: [
      ...shared.map((i) => ({ entry: index.entries[i], landmark: false })),
      ...extra.map((e) => ({ entry: e, landmark: true })),
    ],
  };
}

/**
 * The per-cell counts without the stations a pin already stands for (landmarks, and the stations
 * sharing a pin's point, which a tap on the pin lists): each leaves its level-`zoom` cell's count
 * and mean position. A cell left with none is dropped.
 * @param {HiddenCell[]} cells MapIndex.hidden(box)
 * @param {number} zoom
 * @param {Iterable<{lat: number, lng: number}>} represented stations inside the box, none of them a shared-rule pin
 * @returns {HiddenCell[]}
 */
export function withoutRepresented(cells, zoom, represented) {
  const shift = FINEST_LEVEL - zoom;
  /** @type {Map<string, HiddenCell>} */
  const byCell = new Map(cells.map((c) => [`${c.cellX},${c.cellY}`, { ...c }]));
  for (const s of represented) {
    const cell = byCell.get(`${gridX(s.lng) >> shift},${gridY(s.lat) >> shift}`);
    if (!cell || cell.count <= 0) continue;
    if (cell.count === 1) { cell.count = 0; continue; }
    cell.meanLat = (cell.meanLat * cell.count - s.lat) / (cell.count - 1);
    cell.meanLng = (cell.meanLng * cell.count - s.lng) / (cell.count - 1);
    cell.count--;
  }
  return [...byCell.values()].filter((c) => c.count > 0);
}
