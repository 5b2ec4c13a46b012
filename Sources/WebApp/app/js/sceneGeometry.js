// What the map's scene takes from the catalogue alone: every enabled station's place in map
// units, how many lines it has, how many its place has, the points several stations share, and
// each enabled line's stations in drawing order. Working it out takes 50–60 ms at every start
// (before the JIT has warmed up; four times that at 4× CPU throttling), so it is kept beside the
// catalogue in the replica's settings, as typed arrays that IndexedDB reads back as fast as it
// copies bytes, and worked out again only for another catalogue (Schemas/phone-app.md "The
// scene kept with the catalogue"). The completions are not part of it: they change with edits.
// So is the pin index of every enabled station (mapRule.js MapIndex: its two sorts and the
// thinning of its levels, about as long again), for the pin limit it was built with.

import { X_SCALE, project } from './mapCore.js';
import { placesOf } from './map.js';
import { MapIndex, keptIndexFits } from './mapRule.js';
import { StoreError } from './store.js';

/** @typedef {import('./catalog.js').Catalog} Catalog */
/** @typedef {import('./ledger.js').Ledger} Ledger */

/** The settings key the geometry is kept under. */
export const GEOMETRY_KEY = 'sceneGeometry';
/** The settings key the pin index of every enabled station is kept under. */
export const PIN_INDEX_KEY = 'pinIndex';
/** Bumped whenever what is worked out here changes, so that an app update never reads an old form. */
export const GEOMETRY_FORMAT = 1;

/**
 * @typedef {object} SceneGeometry
 * @property {number} format GEOMETRY_FORMAT
 * @property {string} catalog the catalogue it was worked out from (catalogKey)
 * @property {Int32Array} ids enabled stations in s_id order
 * @property {Float64Array} xs
 * @property {Float64Array} ys
 * @property {Uint8Array} lineCounts
 * @property {Uint16Array} hubLines
 * @property {Int32Array} samePoint the groups of stations sharing a point, each as its length then its station indices
 * @property {Int32Array} lineIds the enabled lines, in drawing order
 * @property {Int32Array} lineStarts where each line's stations start in linePoints, and where the last ends
 * @property {Int32Array} linePoints station indices
 * @property {{minX: number, minY: number, maxX: number, maxY: number}} bounds
 */

/**
 * Which catalogue the replica holds: its version and ETag, '' when it holds none or no ETag.
 * @param {Ledger} ledger
 */
export function catalogKey(ledger) {
  const saved = /** @type {{etag?: string | null, version?: number} | undefined} */ (ledger.getMeta('catalog'));
  return saved?.etag ? `${saved.version ?? ''} ${saved.etag}` : '';
}

/**
 * Works the geometry out.
 * @param {Catalog} catalog @param {string} key catalogKey of the replica holding it
 * @returns {SceneGeometry}
 */
export function sceneGeometry(catalog, key) {
  const stations = catalog.enabledStations;
  const n = stations.length;
  const ids = new Int32Array(n), xs = new Float64Array(n), ys = new Float64Array(n);
  /** @type {Map<number, number>} */
  const indexOf = new Map();
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const s = stations[i], p = project(s.lat, s.lng);
    ids[i] = s.id; xs[i] = p.x; ys[i] = p.y;
    indexOf.set(s.id, i);
    minX = Math.min(minX, p.x); minY = Math.min(minY, p.y); maxX = Math.max(maxX, p.x); maxY = Math.max(maxY, p.y);
  }
  if (n === 0) { minX = 0; minY = -46000; maxX = 146000 * X_SCALE; maxY = -24000; }
  const { lineCounts, hubLines, samePoint } = placesOf(catalog, stations);
  /** @type {number[]} */
  const groups = [];
  for (const at of samePoint.values()) groups.push(at.length, ...at);
  const drawable = catalog.hasLineOrder ? catalog.drawableLines() : [];
  const lineStarts = new Int32Array(drawable.length + 1);
  /** @type {number[]} */
  const points = [];
  drawable.forEach(({ stations: list }, k) => {
    for (const s of list) points.push(/** @type {number} */ (indexOf.get(s.id)));
    lineStarts[k + 1] = points.length;
  });
  return {
    format: GEOMETRY_FORMAT, catalog: key, ids, xs, ys, lineCounts, hubLines,
    samePoint: Int32Array.from(groups), lineIds: Int32Array.from(drawable.map(({ line }) => line.id)),
    lineStarts, linePoints: Int32Array.from(points), bounds: { minX, minY, maxX, maxY },
  };
}

/**
 * The geometry kept in the replica's settings when it was worked out from this catalogue in this
 * form (and holds exactly its enabled stations, in order), else null.
 * @param {Ledger} ledger @param {Catalog} catalog
 * @returns {SceneGeometry | null}
 */
export function keptGeometry(ledger, catalog) {
  const kept = /** @type {Partial<SceneGeometry> | undefined} */ (ledger.getMeta(GEOMETRY_KEY));
  const key = catalogKey(ledger);
  if (!kept || key === '' || kept.format !== GEOMETRY_FORMAT || kept.catalog !== key) return null;
  const stations = catalog.enabledStations, n = stations.length;
  const { ids, xs, ys, lineCounts, hubLines, samePoint, lineIds, lineStarts, linePoints, bounds } = kept;
  if (!(ids instanceof Int32Array) || !(xs instanceof Float64Array) || !(ys instanceof Float64Array)
      || !(lineCounts instanceof Uint8Array) || !(hubLines instanceof Uint16Array) || !(samePoint instanceof Int32Array)
      || !(lineIds instanceof Int32Array) || !(lineStarts instanceof Int32Array) || !(linePoints instanceof Int32Array) || !bounds) return null;
  if (ids.length !== n || xs.length !== n || ys.length !== n || lineCounts.length !== n || hubLines.length !== n) return null;
  if (lineStarts.length !== lineIds.length + 1 || lineStarts[lineStarts.length - 1] !== linePoints.length) return null;
  for (let i = 0; i < n; i++) if (ids[i] !== stations[i].id) return null;
  for (const i of linePoints) if (i < 0 || i >= n) return null;
  for (let k = 0; k < samePoint.length; k += 1 + samePoint[k]) {
    if (samePoint[k] < 2 || k + samePoint[k] >= samePoint.length) return null;
    for (let j = k + 1; j <= k + samePoint[k]; j++) if (samePoint[j] < 0 || samePoint[j] >= n) return null;
  }
  return /** @type {SceneGeometry} */ (kept);
}

/**
 * Keeps the geometry in the replica's settings, after every write queued before it, with the
 * browser's relaxed durability: it can always be worked out again. A refusal (a full storage)
 * only means it is worked out at the next start too.
 * @param {Ledger} ledger @param {SceneGeometry} geometry
 */
export function keepGeometry(ledger, geometry) {
  return ledger.exclusive(() => ledger.commitMeta({ [GEOMETRY_KEY]: geometry }, true)).catch(ignoreRefusal);
}

/**
 * The pin index of every enabled station at `limit`, as kept in the replica's settings for the
 * catalogue held, or null when none fits (keptIndexFits; another catalogue, form or limit).
 * @param {Ledger} ledger @param {import('./mapRule.js').MapEntry[]} entries the catalogue's enabled stations, in order
 * @param {number} limit
 * @returns {MapIndex | null}
 */
export function keptPinIndex(ledger, entries, limit) {
  const kept = /** @type {{format?: number, catalog?: string} & Partial<import('./mapRule.js').KeptIndex> | undefined} */ (ledger.getMeta(PIN_INDEX_KEY));
  const key = catalogKey(ledger);
  if (!kept || key === '' || kept.format !== GEOMETRY_FORMAT || kept.catalog !== key || !keptIndexFits(entries, limit, kept)) return null;
  return new MapIndex(entries, limit, kept);
}

/**
 * Keeps the pin index of every enabled station in the replica's settings, as keepGeometry keeps
 * the geometry; its levels are worked out then, after every write queued before it.
 * @param {Ledger} ledger @param {MapIndex} index
 */
export function keepPinIndex(ledger, index) {
  const key = catalogKey(ledger);
  if (key === '') return Promise.resolve();
  return ledger.exclusive(() => ledger.commitMeta({ [PIN_INDEX_KEY]: { format: GEOMETRY_FORMAT, catalog: key, ...index.kept() } }, true)).catch(ignoreRefusal);
}

/**
 * A refused write of what can be worked out again changes nothing but the next start's work.
 * @param {unknown} error
 */
function ignoreRefusal(error) {
  if (!(error instanceof StoreError)) throw error;
}
