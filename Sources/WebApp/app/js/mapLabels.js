// Where the map writes its names and its counts, in screen pixels, so that the most important
// things are read first: every pin stays where its station is; names are placed in the pins'
// priority order, each beside its pin (right, left, above, below, or at a corner) where it covers no pin and no
// earlier name, and a name already written nearby is not written again (東京 of JR and of the
// Metro, 200 m apart); then the count bubbles, each at its cell's stations or moved within the
// cell to where it covers no pin, no name and no other bubble, else left out (zooming in there
// shows the stations). A bubble never covers a pin or a name.

/** @typedef {[number, number, number, number]} Rect left, top, right, bottom */

/**
 * A pin as placed on the screen.
 * @typedef {object} ScreenPin
 * @property {number} px
 * @property {number} py
 * @property {number} radius
 * @property {string} text its name
 */

/**
 * A placed name.
 * @typedef {object} PlacedLabel
 * @property {number} pin index into the pins given
 * @property {string} text
 * @property {number} x where the text starts (left aligned)
 * @property {number} y its vertical middle
 * @property {Rect} rect
 */

/**
 * A count bubble: its wanted place, and how far it may move (its cell's half size).
 * @typedef {{px: number, py: number, radius: number, reach: number}} BubbleWish
 */

export const LABEL_HEIGHT = 16;
/** The space kept around a pin (its outline) that no name or bubble covers. */
export const PIN_MARGIN = 2;
/** Within this distance (px) a name already written is not written again. */
export const SAME_NAME_DISTANCE = 120;
const GAP = PIN_MARGIN + 1;
const CELL = 64;

/** Rectangles, bucketed on a 64-px grid for the overlap test. */
export class RectSet {
  constructor() {
    /** @type {Map<string, Rect[]>} */
    this.buckets = new Map();
  }

  /** @param {Rect} r @param {(key: string) => void} visit */
  static eachBucket(r, visit) {
    for (let bx = Math.floor(r[0] / CELL); bx <= Math.floor(r[2] / CELL); bx++) {
      for (let by = Math.floor(r[1] / CELL); by <= Math.floor(r[3] / CELL); by++) visit(`${bx},${by}`);
    }
  }

  /** @param {Rect} r */
  add(r) {
    RectSet.eachBucket(r, (key) => {
      const list = this.buckets.get(key);
      if (list) list.push(r); else this.buckets.set(key, [r]);
    });
  }

  /**
   * Whether r overlaps a rectangle of the set (other than `except`).
   * @param {Rect} r @param {Rect} [except]
   */
  hits(r, except) {
    let hit = false;
    RectSet.eachBucket(r, (key) => {
      if (hit) return;
      for (const o of this.buckets.get(key) ?? []) {
        if (o !== except && r[0] < o[2] && o[0] < r[2] && r[1] < o[3] && o[1] < r[3]) { hit = true; return; }
      }
    });
    return hit;
  }
}

/**
 * The square a circle covers.
 * @param {number} x @param {number} y @param {number} r
 * @returns {Rect}
 */
export function circleRect(x, y, r) {
  return [x - r, y - r, x + r, y + r];
}

/**
 * The places tried for a name of width w beside a pin, best first.
 * @param {ScreenPin} pin @param {number} w
 * @returns {Array<{x: number, y: number, rect: Rect}>}
 */
export function candidatePlaces(pin, w) {
  const { px, py, radius } = pin;
  const half = LABEL_HEIGHT / 2;
  const right = px + radius + GAP, left = px - radius - GAP - w;
  const above = py - radius - GAP - half, below = py + radius + GAP + half;
  // Beside, then above and below, then at the four corners.
  const upper = py - radius - half + 2, lower = py + radius + half - 2;
  /** @type {Array<[number, number]>} */
  const starts = [[right, py], [left, py], [px - w / 2, above], [px - w / 2, below],
    [right, upper], [right, lower], [left, upper], [left, lower]];
  return starts.map(([x, y]) => ({ x, y, rect: /** @type {Rect} */ ([x - 1, y - half, x + w + 1, y + half]) }));
}

/**
 * Names for pins given in priority order (most important first).
 * @param {ScreenPin[]} pins
 * @param {(text: string) => number} measure the text's width in px
 * @param {RectSet} taken what is on the screen already; the pins' squares and the placed names are added to it
 * @returns {PlacedLabel[]}
 */
export function placeLabels(pins, measure, taken) {
  const pinRects = pins.map((p) => circleRect(p.px, p.py, p.radius + PIN_MARGIN));
  for (const r of pinRects) taken.add(r);
  /** @type {PlacedLabel[]} */
  const placed = [];
  /** @type {Map<string, Array<{px: number, py: number}>>} */
  const written = new Map();
  pins.forEach((pin, index) => {
    if (!pin.text) return;
    const near = written.get(pin.text) ?? [];
    if (near.some((q) => Math.hypot(q.px - pin.px, q.py - pin.py) < SAME_NAME_DISTANCE)) return;
    const w = measure(pin.text);
    const place = candidatePlaces(pin, w).find((c) => !taken.hits(c.rect, pinRects[index]));
    if (!place) return;
    taken.add(place.rect);
    placed.push({ pin: index, text: pin.text, x: place.x, y: place.y, rect: place.rect });
    near.push({ px: pin.px, py: pin.py });
    written.set(pin.text, near);
  });
  return placed;
}

/**
 * Where each bubble goes (null: left out), biggest count first in the caller's order: at its
 * wished place, else the nearest free place within its reach, tried on rings of 8 directions.
 * @param {BubbleWish[]} bubbles
 * @param {RectSet} taken pins and names; the placed bubbles are added to it
 * @returns {Array<{px: number, py: number} | null>}
 */
export function placeBubbles(bubbles, taken) {
  return bubbles.map((b) => {
    const step = Math.max(4, b.radius / 2);
    for (let d = 0; d <= b.reach; d += step) {
      const directions = d === 0 ? 1 : 8;
      for (let k = 0; k < directions; k++) {
        const angle = (k * Math.PI) / 4;
        const px = b.px + d * Math.cos(angle), py = b.py + d * Math.sin(angle);
        const rect = circleRect(px, py, b.radius + 1);
        if (taken.hits(rect)) continue;
        taken.add(rect);
        return { px, py };
      }
    }
    return null;
  });
}
