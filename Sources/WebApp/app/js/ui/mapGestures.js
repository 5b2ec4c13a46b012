// The map's gestures on its canvas: one finger pans, two pinch to zoom, the wheel and a double
// click zoom, and a tap (a finger lifted where it went down, having hardly moved) acts on the
// canvas's own `click`, the last event of the gesture, so that nothing after it reaches the
// screen the tap opens (Schemas/phone-app.md "A tap acts once").

/**
 * @typedef {object} GestureHandlers
 * @property {(dx: number, dy: number) => void} pan by CSS pixels
 * @property {(px: number, py: number, factor: number) => void} zoom about a point of the canvas
 * @property {(px: number, py: number, touch: boolean) => void} tap at a point of the canvas
 */

export class MapGestures {
  /** @param {HTMLCanvasElement} canvas @param {GestureHandlers} handlers */
  constructor(canvas, handlers) {
    this.canvas = canvas;
    this.handlers = handlers;
    /** @type {Map<number, {x: number, y: number}>} */
    this.pointers = new Map();
    this.moved = 0;
    /** Where the last gesture's first finger went down. */
    this.downAt = { x: 0, y: 0 };
    /** A tap seen at pointerup, acted on by the click that ends the same gesture. */
    /** @type {{x: number, y: number, touch: boolean} | null} */
    this.pendingTap = null;
    this.bind();
  }

  bind() {
    const c = this.canvas, on = this.handlers;
    /** @param {PointerEvent} e */
    const local = (e) => {
      const r = c.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };
    c.addEventListener('pointerdown', (e) => {
      this.pointers.set(e.pointerId, local(e));
      this.downAt = local(e);
      this.moved = 0;
      try { c.setPointerCapture(e.pointerId); } catch { /* not capturable: fine */ }
    });
    c.addEventListener('pointermove', (e) => {
      const previous = this.pointers.get(e.pointerId);
      if (!previous) return;
      const now = local(e);
      if (this.pointers.size === 1) {
        this.moved += Math.abs(now.x - previous.x) + Math.abs(now.y - previous.y);
        on.pan(now.x - previous.x, now.y - previous.y);
      } else if (this.pointers.size === 2) {
        this.moved += 100;
        const other = [...this.pointers].find(([id]) => id !== e.pointerId)?.[1];
        if (other) {
          const before = Math.hypot(previous.x - other.x, previous.y - other.y);
          const after = Math.hypot(now.x - other.x, now.y - other.y);
          if (before > 0 && after > 0) on.zoom((now.x + other.x) / 2, (now.y + other.y) / 2, after / before);
        }
      }
      this.pointers.set(e.pointerId, now);
    });
    /** @param {PointerEvent} e */
    const up = (e) => {
      const p = this.pointers.get(e.pointerId);
      // A tap lifts the finger where it went down: moves the browser coalesced or dropped (a
      // busy phone) must not turn a drag into a tap at a stale position.
      const lifted = local(e);
      const still = Math.abs(lifted.x - this.downAt.x) + Math.abs(lifted.y - this.downAt.y) < 8;
      const isTap = p && this.pointers.size === 1 && this.moved < 8 && still && e.type === 'pointerup';
      this.pendingTap = isTap ? { x: p.x, y: p.y, touch: e.pointerType !== 'mouse' } : null;
      this.pointers.delete(e.pointerId);
    };
    c.addEventListener('pointerup', up);
    c.addEventListener('pointercancel', up);
    c.addEventListener('click', (e) => {
      const tap = this.pendingTap;
      this.pendingTap = null;
      if (!tap) return;
      // Nothing after this click belongs to the gesture: the new screen gets no event of it.
      e.preventDefault();
      e.stopPropagation();
      on.tap(tap.x, tap.y, tap.touch);
    });
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      on.zoom(e.offsetX, e.offsetY, Math.pow(1.0015, -e.deltaY));
    }, { passive: false });
    c.addEventListener('dblclick', (e) => on.zoom(e.offsetX, e.offsetY, 2));
  }
}
