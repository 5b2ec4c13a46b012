// The map's ground: the base map, the lines and the stations' dots (map.js drawGround). They
// depend on the scale, the scene and the base map, not on where the view is, so they are painted
// into a canvas of their own a margin larger than the view and a pan only copies it
// (Schemas/phone-app.md "Drawing the map"): the view's pixels come from the layer at a whole
// pixel offset, and what a frame needs and the layer lacks is painted before it is copied, so no
// frame shows a part of the ground missing.
//
// The layer's pixel (0, 0) is at `origin`, in device pixels of the whole map at the scale (map
// units × scale × device pixel ratio). It is set, with its fraction, when the ground changes (a
// new scale, scene or base map, another canvas size), and afterwards only moved by whole pixels, so
// that what was painted stays aligned with what is painted next. A pan by a fraction of a device
// pixel copies the ground at the nearest whole pixel: it lies at most half a device pixel from
// where a full drawing would put it.

/** @typedef {import('./mapCore.js').Viewport} Viewport */

/**
 * A rectangle of the layer's pixels (whole numbers).
 * @typedef {{x: number, y: number, w: number, h: number}} Rect
 */
/**
 * The layer: its size, where its pixel (0, 0) is, and the part of it painted.
 * @typedef {{width: number, height: number, origin: {x: number, y: number} | null, valid: Rect | null}} LayerState
 */
/**
 * What a frame does: the layer's new origin, by how many pixels its content moves back (null when
 * it stays), what is then painted, the rectangles to paint, and where the view's pixels are.
 * @typedef {{origin: {x: number, y: number}, shift: {x: number, y: number} | null, valid: Rect, paint: Rect[], at: {x: number, y: number}}} LayerPlan
 */

/**
 * The margin around the view: a quarter of the view each way.
 * @param {number} width @param {number} height device pixels
 */
export function layerMargin(width, height) {
  return { x: Math.round(width / 4), y: Math.round(height / 4) };
}

/**
 * What the layer needs for a view whose top left is at (left, top), in device pixels of the map,
 * and whose size is width × height device pixels (the layer is that plus `margin` on each side).
 * The first frame after a change paints the view alone; when a pan goes past what is painted, the
 * layer is painted out to its edge on that side, and when the view would leave the layer, its
 * content moves by whole pixels to centre the view again. Painted rectangles never overlap what is
 * already painted, and afterwards the view is inside `valid`.
 * @param {LayerState} layer
 * @param {{left: number, top: number, width: number, height: number}} view
 * @param {{x: number, y: number}} margin
 * @returns {LayerPlan}
 */
export function planLayer(layer, view, margin) {
  let origin = layer.origin ?? { x: view.left - margin.x, y: view.top - margin.y };
  let valid = layer.origin ? layer.valid : null;
  let shift = null;
  let at = { x: Math.round(view.left - origin.x), y: Math.round(view.top - origin.y) };
  if (at.x < 0 || at.y < 0 || at.x + view.width > layer.width || at.y + view.height > layer.height) {
    shift = { x: at.x - margin.x, y: at.y - margin.y };
    origin = { x: origin.x + shift.x, y: origin.y + shift.y };
    valid = valid && intersect({ x: valid.x - shift.x, y: valid.y - shift.y, w: valid.w, h: valid.h },
      { x: 0, y: 0, w: layer.width, h: layer.height });
    at = { x: margin.x, y: margin.y };
  }
  const need = { x: at.x, y: at.y, w: view.width, h: view.height };
  if (valid && contains(valid, need)) return { origin, shift, valid, paint: [], at };
  if (!valid || !intersect(valid, need)) return { origin, shift, valid: need, paint: [need], at };
  // Out to the layer's edge on each side the view went past: the next frames of the pan copy.
  const x0 = need.x < valid.x ? 0 : valid.x, y0 = need.y < valid.y ? 0 : valid.y;
  const x1 = need.x + need.w > valid.x + valid.w ? layer.width : valid.x + valid.w;
  const y1 = need.y + need.h > valid.y + valid.h ? layer.height : valid.y + valid.h;
  const bands = [
    { x: x0, y: y0, w: x1 - x0, h: valid.y - y0 },
    { x: x0, y: valid.y + valid.h, w: x1 - x0, h: y1 - valid.y - valid.h },
    { x: x0, y: valid.y, w: valid.x - x0, h: valid.h },
    { x: valid.x + valid.w, y: valid.y, w: x1 - valid.x - valid.w, h: valid.h },
  ].filter((r) => r.w > 0 && r.h > 0);
  return { origin, shift, valid: { x: x0, y: y0, w: x1 - x0, h: y1 - y0 }, paint: bands, at };
}

/** @param {Rect} a @param {Rect} b @returns {Rect | null} */
function intersect(a, b) {
  const x = Math.max(a.x, b.x), y = Math.max(a.y, b.y);
  const w = Math.min(a.x + a.w, b.x + b.w) - x, h = Math.min(a.y + a.h, b.y + b.h) - y;
  return w > 0 && h > 0 ? { x, y, w, h } : null;
}

/** @param {Rect} outer @param {Rect} inner */
function contains(outer, inner) {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h;
}

/**
 * The ground of a view, in CSS pixels (the context's transform scales for the device pixel ratio).
 * @typedef {(ctx: CanvasRenderingContext2D, v: Viewport, width: number, height: number) => void} PaintGround
 */

export class MapLayer {
  /** @param {() => HTMLCanvasElement} makeCanvas */
  constructor(makeCanvas) {
    this.makeCanvas = makeCanvas;
    /** @type {HTMLCanvasElement | null} */
    this.canvas = null;
    /** @type {CanvasRenderingContext2D | null} */
    this.ctx = null;
    /** @type {unknown[]} */
    this.key = [];
    /** @type {LayerState} */
    this.state = { width: 0, height: 0, origin: null, valid: null };
  }

  /** Gives the layer's pixels back (the map is not on the screen); the next frame paints anew. */
  release() {
    if (this.canvas) {
      this.canvas.width = 0;
      this.canvas.height = 0;
    }
    this.key = [];
    this.state = { width: 0, height: 0, origin: null, valid: null };
  }

  /**
   * Copies the ground of view `v` onto `target`, a canvas of width × height CSS pixels at `dpr`,
   * painting first what the layer lacks. `key` lists what the ground depends on besides the view's
   * position (the scale among them): when one of them changes, the layer starts again.
   * @param {CanvasRenderingContext2D} target
   * @param {unknown[]} key
   * @param {Viewport} v @param {number} width @param {number} height @param {number} dpr
   * @param {PaintGround} paint
   */
  draw(target, key, v, width, height, dpr, paint) {
    const view = { left: (v.cx * v.scale - width / 2) * dpr, top: (v.cy * v.scale - height / 2) * dpr,
      width: target.canvas.width, height: target.canvas.height };
    const margin = layerMargin(view.width, view.height);
    const size = { width: view.width + 2 * margin.x, height: view.height + 2 * margin.y };
    if (!this.canvas || !this.ctx) {
      this.canvas = this.makeCanvas();
      const ctx = this.canvas.getContext('2d');
      if (!ctx) throw new Error('this browser cannot draw on a canvas');
      this.ctx = ctx;
    }
    const ctx = this.ctx, canvas = this.canvas;
    if (key.length !== this.key.length || key.some((k, i) => k !== this.key[i])
        || size.width !== this.state.width || size.height !== this.state.height) {
      this.key = key;
      if (canvas.width !== size.width || canvas.height !== size.height) {
        canvas.width = size.width;
        canvas.height = size.height;
      }
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, size.width, size.height);
      this.state = { ...size, origin: null, valid: null };
    }
    const plan = planLayer(this.state, view, margin);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (plan.shift) {
      // The content moves by whole pixels; 'copy' leaves the rest of the layer empty.
      ctx.globalCompositeOperation = 'copy';
      ctx.drawImage(canvas, -plan.shift.x, -plan.shift.y);
      ctx.globalCompositeOperation = 'source-over';
    }
    for (const r of plan.paint) {
      ctx.save();
      ctx.clearRect(r.x, r.y, r.w, r.h);
      ctx.beginPath();
      ctx.rect(r.x, r.y, r.w, r.h);
      ctx.clip();
      // A view of the rectangle alone, so that what lies outside it is not even traced.
      ctx.setTransform(dpr, 0, 0, dpr, r.x, r.y);
      const k = dpr * v.scale;
      paint(ctx, { cx: (plan.origin.x + r.x + r.w / 2) / k, cy: (plan.origin.y + r.y + r.h / 2) / k, scale: v.scale }, r.w / dpr, r.h / dpr);
      ctx.restore();
    }
    this.state = { ...size, origin: plan.origin, valid: plan.valid };
    target.save();
    target.setTransform(1, 0, 0, 1, 0, 0);
    target.drawImage(canvas, plan.at.x, plan.at.y, view.width, view.height, 0, 0, view.width, view.height);
    target.restore();
  }
}
