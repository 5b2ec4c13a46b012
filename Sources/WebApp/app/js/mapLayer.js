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
//
// The first frame after the ground changes paints the view straight onto the map's canvas, with
// the same pixel alignment the layer would give it, so that it waits neither for the layer's
// pixels nor for a copy of them; the layer is filled afterwards, a rectangle at a time while the
// page is idle (the view, then the margins), each rasterised as it is painted, so that a pan
// copies it instead of painting.

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

/**
 * The next rectangle that fills a layer out to its edges, and what is painted then: above what is
 * painted, below it, then the whole height on its left and on its right, so that what is painted
 * stays one rectangle. Null when the whole layer is painted (or nothing is yet).
 * @param {LayerState} layer
 * @returns {{paint: Rect, valid: Rect} | null}
 */
export function nextFill(layer) {
  const v = layer.valid;
  if (!layer.origin || !v) return null;
  if (v.y > 0) return { paint: { x: v.x, y: 0, w: v.w, h: v.y }, valid: { x: v.x, y: 0, w: v.w, h: v.y + v.h } };
  if (v.y + v.h < layer.height) {
    return { paint: { x: v.x, y: v.h, w: v.w, h: layer.height - v.h }, valid: { x: v.x, y: 0, w: v.w, h: layer.height } };
  }
  if (v.x > 0) return { paint: { x: 0, y: 0, w: v.x, h: v.h }, valid: { x: 0, y: 0, w: v.x + v.w, h: v.h } };
  if (v.x + v.w < layer.width) {
    return { paint: { x: v.w, y: 0, w: layer.width - v.w, h: v.h }, valid: { x: 0, y: 0, w: layer.width, h: v.h } };
  }
  return null;
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

/**
 * What the layer is filled with while the page is idle: the ground of the last frame.
 * @typedef {{view: {left: number, top: number, width: number, height: number}, margin: {x: number, y: number}, scale: number, dpr: number, paint: PaintGround}} Fill
 */

export class MapLayer {
  /**
   * @param {() => HTMLCanvasElement} makeCanvas
   * @param {(task: () => void) => void} whenIdle runs a task once the page is idle (the layer's filling)
   */
  constructor(makeCanvas, whenIdle) {
    this.makeCanvas = makeCanvas;
    this.whenIdle = whenIdle;
    /** The layer's canvas, as its context (`ctx.canvas`), made at the first frame that needs it. */
    /** @type {CanvasRenderingContext2D | null} */
    this.ctx = null;
    /** @type {unknown[]} */
    this.key = [];
    /** @type {LayerState} */
    this.state = { width: 0, height: 0, origin: null, valid: null };
    /** The layer's canvas has the size of `state` and nothing of another ground. */
    this.ready = false;
    /** No frame was drawn since the ground changed: the next one is painted straight onto the map. */
    this.fresh = true;
    /** @type {Fill | null} */
    this.fill = null;
    this.filling = false;
  }

  /** Gives the layer's pixels back (the map is not on the screen); the next frame paints anew. */
  release() {
    if (this.ctx) {
      this.ctx.canvas.width = 0;
      this.ctx.canvas.height = 0;
    }
    this.key = [];
    this.state = { width: 0, height: 0, origin: null, valid: null };
    this.ready = false;
    this.fresh = true;
    this.fill = null;
  }

  /**
   * Draws `background`, then the ground of view `v` over it, onto `target`, a canvas of width ×
   * height CSS pixels at `dpr`: the first frame after the ground changed paints it there, the
   * others copy it from the layer, painting first what the layer lacks. `key` lists what the
   * ground depends on besides the view's position (the scale among them): when one of them
   * changes, the layer starts again.
   * @param {CanvasRenderingContext2D} target
   * @param {unknown[]} key
   * @param {Viewport} v @param {number} width @param {number} height @param {number} dpr
   * @param {string} background
   * @param {PaintGround} paint
   */
  draw(target, key, v, width, height, dpr, background, paint) {
    const view = { left: (v.cx * v.scale - width / 2) * dpr, top: (v.cy * v.scale - height / 2) * dpr,
      width: target.canvas.width, height: target.canvas.height };
    const margin = layerMargin(view.width, view.height);
    const size = { width: view.width + 2 * margin.x, height: view.height + 2 * margin.y };
    if (key.length !== this.key.length || key.some((k, i) => k !== this.key[i])
        || size.width !== this.state.width || size.height !== this.state.height) {
      this.key = key;
      this.state = { ...size, origin: null, valid: null };
      this.ready = false;
      this.fresh = true;
    }
    this.fill = { view, margin, scale: v.scale, dpr, paint };
    target.save();
    target.setTransform(1, 0, 0, 1, 0, 0);
    if (this.fresh) {
      this.fresh = false;
      // Where the layer would paint the view, translated to the map's pixel (0, 0): the same
      // pixels. The background goes under the ground as the copy would put it over the background.
      const plan = planLayer(this.state, view, margin);
      target.clearRect(0, 0, view.width, view.height);
      this.paintRect(target, plan.origin, { ...plan.paint[0], x: 0, y: 0 }, plan.paint[0], this.fill);
      target.globalCompositeOperation = 'destination-over';
      target.fillStyle = background;
      target.fillRect(0, 0, view.width, view.height);
    } else {
      const at = this.paintLayer(view, margin, v.scale, dpr, paint);
      target.fillStyle = background;
      target.fillRect(0, 0, view.width, view.height);
      target.drawImage(/** @type {CanvasRenderingContext2D} */ (this.ctx).canvas, at.x, at.y, view.width, view.height, 0, 0, view.width, view.height);
    }
    target.restore();
    if (!this.state.origin || nextFill(this.state)) this.fillWhenIdle();
  }

  /** The layer's canvas, the size of `state` and cleared of any other ground. */
  layerContext() {
    if (!this.ctx) {
      const ctx = this.makeCanvas().getContext('2d');
      if (!ctx) throw new Error('this browser cannot draw on a canvas');
      this.ctx = ctx;
    }
    const ctx = this.ctx, canvas = ctx.canvas, { width, height } = this.state;
    if (!this.ready) {
      if (canvas.width !== width || canvas.height !== height) {
        canvas.width = width;
        canvas.height = height;
      }
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, width, height);
      this.ready = true;
    }
    return ctx;
  }

  /**
   * Paints into the layer what a view needs and it lacks; returns where the view's pixels are.
   * @param {{left: number, top: number, width: number, height: number}} view
   * @param {{x: number, y: number}} margin @param {number} scale @param {number} dpr @param {PaintGround} paint
   */
  paintLayer(view, margin, scale, dpr, paint) {
    const ctx = this.layerContext(), canvas = ctx.canvas;
    const plan = planLayer(this.state, view, margin);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    if (plan.shift) {
      // The content moves by whole pixels; 'copy' leaves the rest of the layer empty.
      ctx.globalCompositeOperation = 'copy';
      ctx.drawImage(canvas, -plan.shift.x, -plan.shift.y);
      ctx.globalCompositeOperation = 'source-over';
    }
    for (const r of plan.paint) this.paintRect(ctx, plan.origin, r, r, { scale, dpr, paint });
    this.state = { ...this.state, origin: plan.origin, valid: plan.valid };
    return plan.at;
  }

  /**
   * Paints the ground of the layer's rectangle `r` (the layer's pixel (0, 0) at `origin`) into
   * `ctx` at `at`, the same rectangle elsewhere: the layer's own pixels, or the map's.
   * @param {CanvasRenderingContext2D} ctx @param {{x: number, y: number}} origin @param {Rect} at @param {Rect} r
   * @param {{scale: number, dpr: number, paint: PaintGround}} ground
   */
  paintRect(ctx, origin, at, r, { scale, dpr, paint }) {
    ctx.save();
    ctx.clearRect(at.x, at.y, r.w, r.h);
    ctx.beginPath();
    ctx.rect(at.x, at.y, r.w, r.h);
    ctx.clip();
    // A view of the rectangle alone, so that what lies outside it is not even traced.
    ctx.setTransform(dpr, 0, 0, dpr, at.x, at.y);
    const k = dpr * scale;
    paint(ctx, { cx: (origin.x + r.x + r.w / 2) / k, cy: (origin.y + r.y + r.h / 2) / k, scale }, r.w / dpr, r.h / dpr);
    ctx.restore();
  }

  /** Asks for the next rectangle of the layer's filling, once the page is idle (one request at a time). */
  fillWhenIdle() {
    if (this.filling || !this.fill) return;
    this.filling = true;
    this.whenIdle(() => {
      this.filling = false;
      this.fillStep();
    });
  }

  /**
   * Paints the next rectangle of the layer (the last frame's view when nothing is painted, else
   * a margin) and rasterises it now, so that the pan that needs it only copies.
   */
  fillStep() {
    const fill = this.fill;
    if (!fill) return;
    if (!this.state.origin) {
      this.paintLayer(fill.view, fill.margin, fill.scale, fill.dpr, fill.paint);
    } else {
      const next = nextFill(this.state);
      if (!next) { this.fill = null; return; }
      const ctx = this.layerContext();
      this.paintRect(ctx, this.state.origin, next.paint, next.paint, fill);
      this.state = { ...this.state, valid: next.valid };
    }
    this.layerContext().getImageData(0, 0, 1, 1);
    this.fillWhenIdle();
  }
}
