// The map's pin rule, exactly as Schemas/map.md and MapGrid/MapBox/MapIndex.swift: the stations
// shown at a zoom level are a function of the station, the level, the limit and the filter alone,
// so panning or zooming in never removes a pin that stays in the box, and no box shows more than
// `limit` pins. All arithmetic is on integer micro-degrees.
//
// The 58-bit Z-order code and its bit reversal do not fit a Number, and BigInt is slow, so codes
// are never built: two stations are compared in Z order straight from their 29-bit grid
// coordinates (the coordinate whose differing bit is highest decides, y before x at equal bits),
// and the bit-reversed order is the Z order of the bit-reversed coordinates with x and y swapped.
// Tests check both against a BigInt transcription of MapGrid.swift.

export const FINEST_LEVEL = 29;
const GRID_MAX = 2 ** FINEST_LEVEL - 1;
/** The limit whose zoom levels `limit 0` (every station) uses. */
const UNLIMITED_ZOOM_LIMIT = 100;

/** @typedef {{id: number, lat: number, lng: number, weight: number}} MapEntry */
/** @typedef {{south: number, west: number, north: number, east: number, span: number}} MapBox */
/** @typedef {{entry: MapEntry, minZoom: number}} Pin */
/**
 * Stations a box holds that its zoom level does not show, per level-`zoom` grid cell.
 * @typedef {object} HiddenCell
 * @property {number} cellX
 * @property {number} cellY
 * @property {number} count
 * @property {number} lat the cell's centre, micro-degrees
 * @property {number} lng
 * @property {number} meanLat the mean position of the counted stations, micro-degrees
 * @property {number} meanLng
 */

/** @param {number} v */
const clampGrid = (v) => Math.min(Math.max(v, 0), GRID_MAX);
/**
 * Grid x of a longitude (micro-degrees).
 * @param {number} lng
 */
export const gridX = (lng) => clampGrid(lng + 180_000_000);
/**
 * Grid y of a latitude (micro-degrees).
 * @param {number} lat
 */
export const gridY = (lat) => clampGrid(lat + 90_000_000);

/**
 * Bits 0…28 reversed.
 * @param {number} v
 */
export function reverse29(v) {
  v = ((v >>> 1) & 0x55555555) | ((v & 0x55555555) << 1);
  v = ((v >>> 2) & 0x33333333) | ((v & 0x33333333) << 2);
  v = ((v >>> 4) & 0x0f0f0f0f) | ((v & 0x0f0f0f0f) << 4);
  v = ((v >>> 8) & 0x00ff00ff) | ((v & 0x00ff00ff) << 8);
  v = (v >>> 16) | (v << 16);
  return v >>> 3;
}

/**
 * The bits of v (at most 16) spread to the even bits.
 * @param {number} v
 */
function spreadBits(v) {
  v = (v | (v << 8)) & 0x00ff00ff;
  v = (v | (v << 4)) & 0x0f0f0f0f;
  v = (v | (v << 2)) & 0x33333333;
  return (v | (v << 1)) & 0x55555555;
}

/**
 * The high half of the Z-order code of grid point (x, y) (bits 28…14 of each, interleaved, y's
 * first): codes compare as (mortonHigh, mortonLow) compare, as compareMorton does.
 * @param {number} x @param {number} y
 */
export function mortonHigh(x, y) {
  return (spreadBits(y >>> 14) << 1) | spreadBits(x >>> 14);
}

/**
 * The low half of the Z-order code of grid point (x, y): bits 13…0 of each, interleaved.
 * @param {number} x @param {number} y
 */
export function mortonLow(x, y) {
  return (spreadBits(y & 0x3fff) << 1) | spreadBits(x & 0x3fff);
}

/**
 * Whether the highest set bit of a is below that of b (a, b ≥ 0).
 * @param {number} a @param {number} b
 */
const lessMsb = (a, b) => a < b && a < (a ^ b);

/**
 * Z-order comparison of two grid points: the sign of morton(x1, y1) − morton(x2, y2).
 * @param {number} x1 @param {number} y1 @param {number} x2 @param {number} y2
 */
export function compareMorton(x1, y1, x2, y2) {
  const dx = x1 ^ x2, dy = y1 ^ y2;
  return lessMsb(dy, dx) ? x1 - x2 : y1 - y2;
}

/**
 * m = ⌊√limit⌋, the most cells a box may touch per axis.
 * @param {number} limit
 */
export function cellsPerAxis(limit) {
  const l = limit === 0 ? UNLIMITED_ZOOM_LIMIT : limit;
  let m = 1;
  while ((m + 1) * (m + 1) <= l) m++;
  return m;
}

/**
 * The per-cell allowance ⌊limit / m²⌋, or null (no cap) for limit 0.
 * @param {number} limit
 */
export function allowance(limit) {
  if (limit <= 0) return null;
  const m = cellsPerAxis(limit);
  return Math.floor(limit / (m * m));
}

/**
 * The zoom level of a box whose larger side is `span` micro-degrees: the largest z ≤ 29 with
 * (m − 1) · 2^(29 − z) ≥ span.
 * @param {number} span @param {number} limit
 */
export function zoomFor(span, limit) {
  const m = cellsPerAxis(limit);
  let z = FINEST_LEVEL;
  while (z > 0 && (m - 1) * 2 ** (FINEST_LEVEL - z) < span) z--;
  return z;
}

/**
 * A box from its edges in micro-degrees (--bbox): half-open, span = the larger side.
 * @param {number} south @param {number} west @param {number} north @param {number} east
 * @returns {MapBox}
 */
export function boxFromEdges(south, west, north, east) {
  return { south, west, north, east, span: Math.max(north - south, east - west) };
}

/**
 * A box from a centre and a span in micro-degrees (--center/--span): cut at the globe's edges,
 * its span the one asked for, so panning never changes the zoom level.
 * @param {number} lat @param {number} lng @param {number} dLat @param {number} dLng (both > 0)
 * @returns {MapBox}
 */
export function boxFromCenter(lat, lng, dLat, dLng) {
  const south = lat - Math.floor(dLat / 2), west = lng - Math.floor(dLng / 2);
  return {
    south: Math.max(south, -90_000_000), west: Math.max(west, -180_000_000),
    north: Math.min(south + dLat, 90_000_001), east: Math.min(west + dLng, 180_000_001),
    span: Math.max(dLat, dLng),
  };
}

/** @param {MapBox} box @param {number} lat @param {number} lng */
export function boxContains(box, lat, lng) {
  return box.south <= lat && lat < box.north && box.west <= lng && lng < box.east;
}

/**
 * A MapIndex as typed arrays, every level worked out (MapIndex.kept): what the app keeps beside
 * the catalogue, so that its map's first frame neither sorts nor thins (Schemas/phone-app.md "The
 * scene kept with the catalogue").
 * @typedef {object} KeptIndex
 * @property {number} limit
 * @property {Int32Array} order the index's stations in Z order, as positions in the entries it was built over
 * @property {Int32Array} ranks each one's rank in priority order
 * @property {Float64Array} minZooms each one's min_zoom (Infinity: shown at no level)
 */

/**
 * The index's order: the stations in Z order, then rank, with their grid positions and their
 * ranks in priority order (weight, the thinning key, s_id).
 * @param {MapEntry[]} entries
 */
function sortedIndex(entries) {
  const n = entries.length;
  const x = new Int32Array(n), y = new Int32Array(n);
  // The sort keys as numbers, so that the comparisons read arrays: the priority is the weight
  // with the thinning key's (the bit-reversed Z order's) high half, then its low half, then
  // s_id; the Z order is its high half, its low half, then the rank.
  const priorityHigh = new Float64Array(n), priorityLow = new Float64Array(n), ids = new Float64Array(n);
  const zHigh = new Float64Array(n), zLow = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const e = entries[i];
    const gx = gridX(e.lng), gy = gridY(e.lat), rx = reverse29(gx), ry = reverse29(gy);
    x[i] = gx; y[i] = gy;
    priorityHigh[i] = e.weight * 2 ** 30 + mortonHigh(ry, rx);
    priorityLow[i] = mortonLow(ry, rx);
    ids[i] = e.id;
    zHigh[i] = mortonHigh(gx, gy);
    zLow[i] = mortonLow(gx, gy);
  }
  /** @type {number[]} */
  const byPriority = new Array(n);
  for (let i = 0; i < n; i++) byPriority[i] = i;
  byPriority.sort((a, b) => priorityHigh[a] - priorityHigh[b] || priorityLow[a] - priorityLow[b] || ids[a] - ids[b]);
  const rankOf = new Int32Array(n);
  for (let rank = 0; rank < n; rank++) rankOf[byPriority[rank]] = rank;
  // Z order, then rank: every grid cell is one contiguous range.
  /** @type {number[]} */
  const order = new Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => zHigh[a] - zHigh[b] || zLow[a] - zLow[b] || rankOf[a] - rankOf[b]);
  const zOrder = Int32Array.from(order);
  return {
    order: zOrder,
    xs: Int32Array.from(zOrder, (i) => x[i]),
    ys: Int32Array.from(zOrder, (i) => y[i]),
    ranks: Int32Array.from(zOrder, (i) => rankOf[i]),
  };
}

/**
 * Whether `kept` (read back from storage) can be an index over `entries` at `limit`: of their
 * count and limit, its order and ranks each a permutation. Whether it was built over these very
 * entries is for the keeper to know (Schemas/phone-app.md "The scene kept with the catalogue").
 * @param {MapEntry[]} entries @param {number} limit @param {Partial<KeptIndex> | null | undefined} kept
 * @returns {kept is KeptIndex}
 */
export function keptIndexFits(entries, limit, kept) {
  const n = entries.length;
  if (!kept || kept.limit !== limit || !(kept.order instanceof Int32Array) || !(kept.ranks instanceof Int32Array)
      || !(kept.minZooms instanceof Float64Array)) return false;
  if (kept.order.length !== n || kept.ranks.length !== n || kept.minZooms.length !== n) return false;
  const permutation = (/** @type {Int32Array} */ values) => {
    const seen = new Uint8Array(n);
    for (const v of values) {
      if (v < 0 || v >= n || seen[v]) return false;
      seen[v] = 1;
    }
    return true;
  };
  return permutation(kept.order) && permutation(kept.ranks);
}

/** The pin query's index over one filtered set of stations (MapIndex.swift). */
export class MapIndex {
  /**
   * @param {MapEntry[]} entries the stations the filter leaves
   * @param {number} limit 0 (every station) or ≥ 4
   * @param {KeptIndex | null} [kept] the same index kept from an earlier build over the same entries
   *   and limit (keptIndexFits says whether it can be): taken as it is, nothing sorted or worked out
   */
  constructor(entries, limit, kept = null) {
    if (limit !== 0 && limit < 4) throw new RangeError('the limit is 0 or at least 4');
    this.limit = limit;
    const n = entries.length;
    if (kept) {
      this.order = kept.order;
      this.entries = Array.from(kept.order, (i) => entries[i]);
      this.xs = Int32Array.from(this.entries, (e) => gridX(e.lng));
      this.ys = Int32Array.from(this.entries, (e) => gridY(e.lat));
      this.ranks = kept.ranks;
    } else {
      const sorted = sortedIndex(entries);
      this.order = sorted.order;
      /** @type {MapEntry[]} */
      this.entries = Array.from(sorted.order, (i) => entries[i]);
      this.xs = sorted.xs;
      this.ys = sorted.ys;
      this.ranks = sorted.ranks;
    }
    /** The per-cell allowance, null for every station at every level. */
    this.allowance = allowance(limit);
    /**
     * Each station's min_zoom (in index order) as far as the levels are worked out: Infinity for
     * a station shown at none of them. Levels are worked out as queries need them (workOut).
     */
    this.minZooms = kept ? kept.minZooms : new Float64Array(n).fill(this.allowance === null ? 0 : Infinity);
    /** The cells of level `nextLevel` still to work out, as [lo, hi) pairs of indexes. */
    /** @type {number[]} */
    this.cells = kept || this.allowance === null || n === 0 ? [] : [0, n];
    this.nextLevel = kept ? FINEST_LEVEL + 1 : 0;
    /** @type {Map<number, number> | null} s_id → index, made when first asked for */
    this.indexById = null;
    /** @type {Map<number, number> | null} minZoomById, once every level is worked out */
    this.everyMinZoom = null;
  }

  /**
   * Works out the levels up to `zoom`, top-down over the quadtree: a cell's `allowance` lowest
   * ranks are shown from its level on; a cell holding no more than `allowance` stations shows
   * them all.
   * @param {number} zoom
   */
  workOut(zoom) {
    const a = this.allowance;
    if (a === null) return;
    const { xs, ys, ranks, minZooms: result } = this;
    /** @type {number[]} */
    const best = [];
    while (this.nextLevel <= Math.min(zoom, FINEST_LEVEL) && this.cells.length > 0) {
      const level = this.nextLevel, cells = this.cells;
      /** @type {number[]} */
      const next = [];
      for (let c = 0; c < cells.length; c += 2) {
        const lo = cells[c], hi = cells[c + 1];
        if (hi - lo <= a) {
          for (let i = lo; i < hi; i++) if (result[i] === Infinity) result[i] = level;
          continue;
        }
        best.length = 0;
        for (let i = lo; i < hi; i++) {
          let p = best.length;
          while (p > 0 && ranks[best[p - 1]] > ranks[i]) p--;
          if (p >= a) continue;
          best.splice(p, 0, i);
          if (best.length > a) best.pop();
        }
        for (const i of best) if (result[i] === Infinity) result[i] = level;
        if (level >= FINEST_LEVEL) continue;
        const s = FINEST_LEVEL - level - 1;
        let start = lo;
        for (let child = 0; child < 4; child++) {
          let end = start;
          while (end < hi && ((((ys[end] >> s) & 1) << 1) | ((xs[end] >> s) & 1)) === child) end++;
          if (end > start) next.push(start, end);
          start = end;
        }
      }
      this.cells = next;
      this.nextLevel = level + 1;
    }
  }

  /**
   * The index as typed arrays, every level worked out first (KeptIndex).
   * @returns {KeptIndex}
   */
  kept() {
    this.workOut(FINEST_LEVEL);
    return { limit: this.limit, order: this.order, ranks: this.ranks, minZooms: this.minZooms };
  }

  /** s_id → min_zoom (Infinity: shown at no level), every level worked out. */
  get minZoomById() {
    this.workOut(FINEST_LEVEL);
    if (!this.everyMinZoom) this.everyMinZoom = new Map(this.entries.map((e, i) => [e.id, this.minZooms[i]]));
    return this.everyMinZoom;
  }

  /**
   * A station's min_zoom when it is at most `zoom` (it is shown at that level), else Infinity;
   * undefined for a station the index does not hold.
   * @param {number} id @param {number} zoom
   */
  minZoomWithin(id, zoom) {
    if (!this.indexById) this.indexById = new Map(this.entries.map((e, i) => [e.id, i]));
    const i = this.indexById.get(id);
    if (i === undefined) return undefined;
    this.workOut(zoom);
    return this.minZooms[i] <= zoom ? this.minZooms[i] : Infinity;
  }

  /**
   * The first index whose point is at or after (x, y) in Z order.
   * @param {number} x @param {number} y
   */
  lowerBound(x, y) {
    let lo = 0, hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareMorton(this.xs[mid], this.ys[mid], x, y) < 0) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /**
   * Calls visit(index) for every station of every level-`zoom` cell the box touches.
   * @param {MapBox} box @param {number} zoom @param {(index: number, cellX: number, cellY: number) => void} visit
   */
  scan(box, zoom, visit) {
    const shift = FINEST_LEVEL - zoom;
    const x0 = gridX(box.west) >> shift, x1 = gridX(box.east - 1) >> shift;
    const y0 = gridY(box.south) >> shift, y1 = gridY(box.north - 1) >> shift;
    const n = this.entries.length;
    for (let cy = y0; cy <= y1; cy++) {
      for (let cx = x0; cx <= x1; cx++) {
        for (let i = this.lowerBound(cx << shift, cy << shift); i < n; i++) {
          if (this.xs[i] >> shift !== cx || this.ys[i] >> shift !== cy) break;
          visit(i, cx, cy);
        }
      }
    }
  }

  /**
   * The stations shown inside `box` at the zoom level its span decides, in priority order.
   * @param {MapBox} box
   * @returns {{zoom: number, pins: Pin[]}}
   */
  query(box) {
    const zoom = zoomFor(box.span, this.limit);
    return { zoom, pins: this.shownIndexes(box, zoom).map((i) => ({ entry: this.entries[i], minZoom: this.minZooms[i] })) };
  }

  /**
   * The indexes of the stations level `zoom` shows inside `box`, in priority order.
   * @param {MapBox} box @param {number} zoom
   * @returns {number[]}
   */
  shownIndexes(box, zoom) {
    this.workOut(zoom);
    /** @type {number[]} */
    const found = [];
    this.scan(box, zoom, (i) => {
      const e = this.entries[i];
      if (this.minZooms[i] <= zoom && boxContains(box, e.lat, e.lng)) found.push(i);
    });
    return found.sort((a, b) => this.ranks[a] - this.ranks[b]);
  }

  /**
   * For the app's map: the stations inside `box` that its zoom level does not show, counted per
   * level-`zoom` cell. The cells are fixed per level (never re-clustered as the box moves), so a
   * count never jumps to another place; it changes only as stations enter or leave the box.
   * @param {MapBox} box
   * @returns {HiddenCell[]}
   */
  hidden(box) {
    const zoom = zoomFor(box.span, this.limit);
    this.workOut(zoom);
    const size = 2 ** (FINEST_LEVEL - zoom);
    /** @type {Map<string, HiddenCell>} */
    const cells = new Map();
    this.scan(box, zoom, (i, cellX, cellY) => {
      const e = this.entries[i];
      if (this.minZooms[i] <= zoom || !boxContains(box, e.lat, e.lng)) return;
      const key = `${cellX},${cellY}`;
      let cell = cells.get(key);
      if (!cell) {
        cell = {
          cellX, cellY, count: 0, meanLat: 0, meanLng: 0,
          lat: Math.min(cellY * size + size / 2, GRID_MAX) - 90_000_000,
          lng: Math.min(cellX * size + size / 2, GRID_MAX) - 180_000_000,
        };
        cells.set(key, cell);
      }
      cell.count++;
      cell.meanLat += (e.lat - cell.meanLat) / cell.count;
      cell.meanLng += (e.lng - cell.meanLng) / cell.count;
    });
    return [...cells.values()];
  }
}
