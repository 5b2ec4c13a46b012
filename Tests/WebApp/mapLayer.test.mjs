// The map's ground layer (mapLayer.js): which rectangles a frame paints and where it copies the
// view from. A simulated layer of small size records, for every pixel painted, the map pixel it
// shows; every frame of random pans and jumps must then show each view pixel from the map pixel
// at that place (to the whole pixel), and paint nothing twice until the ground changes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { planLayer, layerMargin, nextFill, MapLayer } = await appModule('mapLayer.js');

/** A layer as an array of the map pixels (x, y) its pixels show, or null where nothing is painted. */
function simulated(view) {
  const margin = layerMargin(view.width, view.height);
  const width = view.width + 2 * margin.x, height = view.height + 2 * margin.y;
  return { margin, state: { width, height, origin: null, valid: null }, pixels: new Array(width * height).fill(null), painted: 0 };
}

/** One frame: applies the plan to the simulated pixels and checks what the view shows. */
function frame(layer, view) {
  const { state, margin } = layer;
  const plan = planLayer(state, view, margin);
  const { width, height } = state;
  if (plan.shift) {
    const moved = new Array(width * height).fill(null);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const fx = x + plan.shift.x, fy = y + plan.shift.y;
        if (fx >= 0 && fy >= 0 && fx < width && fy < height) moved[y * width + x] = layer.pixels[fy * width + fx];
      }
    }
    layer.pixels = moved;
  }
  // What was painted before, where it is after the move.
  const before = state.origin && state.valid
    ? { x: state.valid.x - (plan.shift?.x ?? 0), y: state.valid.y - (plan.shift?.y ?? 0), w: state.valid.w, h: state.valid.h } : null;
  for (const r of plan.paint) {
    assert.ok(r.x >= 0 && r.y >= 0 && r.x + r.w <= width && r.y + r.h <= height, 'a painted rectangle lies in the layer');
    for (let y = r.y; y < r.y + r.h; y++) {
      for (let x = r.x; x < r.x + r.w; x++) {
        const again = before && x >= before.x && x < before.x + before.w && y >= before.y && y < before.y + before.h
          && Math.abs(layer.pixels[y * width + x]?.x - (plan.origin.x + x)) < 1e-9;
        assert.ok(!again, `pixel (${x}, ${y}) is painted again`);
        layer.pixels[y * width + x] = { x: plan.origin.x + x, y: plan.origin.y + y };
        layer.painted++;
      }
    }
  }
  const v = plan.valid;
  assert.ok(v.x >= 0 && v.y >= 0 && v.x + v.w <= width && v.y + v.h <= height, 'what is painted lies in the layer');
  for (let j = 0; j < view.height; j++) {
    for (let i = 0; i < view.width; i++) {
      const px = plan.at.x + i, py = plan.at.y + j;
      assert.ok(px >= v.x && py >= v.y && px < v.x + v.w && py < v.y + v.h, 'the view lies in what is painted');
      const shown = layer.pixels[py * width + px];
      assert.ok(shown, `view pixel (${i}, ${j}) is painted`);
      assert.ok(Math.abs(shown.x - (view.left + i)) <= 0.5 + 1e-9 && Math.abs(shown.y - (view.top + j)) <= 0.5 + 1e-9,
        `view pixel (${i}, ${j}) shows map pixel (${shown.x}, ${shown.y}) for (${view.left + i}, ${view.top + j})`);
    }
  }
  layer.state = { width, height, origin: plan.origin, valid: plan.valid };
  return plan;
}

test('the first frame paints the view alone, at the margin', () => {
  const view = { left: 1000.25, top: -500.5, width: 40, height: 24 };
  const layer = simulated(view);
  const plan = frame(layer, view);
  assert.deepEqual(plan.paint, [{ x: 10, y: 6, w: 40, h: 24 }]);
  assert.deepEqual(plan.at, { x: 10, y: 6 });
  assert.equal(plan.shift, null);
  assert.deepEqual(plan.origin, { x: 990.25, y: -506.5 });
});

test('a pan paints the layer out to its edge once, then only copies', () => {
  const view = { left: 0, top: 0, width: 40, height: 24 };
  const layer = simulated(view);
  frame(layer, view);
  const right = frame(layer, { ...view, left: 2 });
  assert.deepEqual(right.paint, [{ x: 50, y: 6, w: 10, h: 24 }], 'the right margin, the height of what was painted');
  for (let dx = 3; dx <= 10; dx++) assert.deepEqual(frame(layer, { ...view, left: dx }).paint, [], `a pan by ${dx} copies`);
  // Back past the start and up: the left margin, then the top band across what is painted.
  assert.deepEqual(frame(layer, { ...view, left: -3 }).paint, [{ x: 0, y: 6, w: 10, h: 24 }]);
  assert.deepEqual(frame(layer, { ...view, left: -3, top: -1 }).paint, [{ x: 0, y: 0, w: 60, h: 6 }]);
});

test('a view leaving the layer moves its content by whole pixels and keeps what overlaps', () => {
  const view = { left: 0.5, top: 0.5, width: 40, height: 24 };
  const layer = simulated(view);
  frame(layer, view);
  frame(layer, { ...view, left: 8.5 });
  const plan = frame(layer, { ...view, left: 12.5 }); // at.x 22 + 40 > 60: past the layer's right edge
  assert.deepEqual(plan.shift, { x: 12, y: 0 });
  assert.deepEqual(plan.at, { x: 10, y: 6 });
  assert.equal(plan.origin.x, 2.5, 'the origin moves by whole pixels: its fraction stays');
  assert.deepEqual(plan.paint, [{ x: 48, y: 6, w: 12, h: 24 }], 'only the part that was never painted');
});

test('a jump to a view that shares nothing paints that view alone', () => {
  const view = { left: 0, top: 0, width: 40, height: 24 };
  const layer = simulated(view);
  frame(layer, view);
  const plan = frame(layer, { ...view, left: 5000, top: -7000 });
  assert.deepEqual(plan.paint, [{ x: 10, y: 6, w: 40, h: 24 }]);
});

test('random pans and jumps: every frame shows the right map pixels, none painted twice', () => {
  let seed = 29;
  const rand = () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 4294967296; };
  for (const size of [{ width: 40, height: 24 }, { width: 21, height: 37 }]) {
    let view = { left: 123.4, top: -56.7, ...size };
    const layer = simulated(view);
    let copies = 0;
    for (let n = 0; n < 300; n++) {
      const r = rand();
      const step = r < 0.05 ? 200 : r < 0.5 ? 3 : 1.5;
      view = { ...view, left: view.left + (rand() - 0.5) * 2 * step, top: view.top + (rand() - 0.5) * 2 * step };
      if (r > 0.97) view = { ...view, left: Math.round(view.left), top: Math.round(view.top) };
      if (frame(layer, view).paint.length === 0) copies++;
    }
    assert.ok(copies > 150, `${copies} of 300 frames only copied`);
  }
});

test('the filling paints the layer out to its edges, one band at a time, what is painted one rectangle', () => {
  for (const view of [{ left: 0.5, top: 0.25, width: 40, height: 24 }, { left: -7, top: 3, width: 21, height: 37 }]) {
    const layer = simulated(view);
    frame(layer, view);
    frame(layer, { ...view, left: view.left + 4, top: view.top - 2 }); // a pan first: part of the margins
    const { width, height } = layer.state;
    let bands = 0;
    for (let next = nextFill(layer.state); next; next = nextFill(layer.state)) {
      const r = next.paint;
      assert.ok(r.w > 0 && r.h > 0 && r.x >= 0 && r.y >= 0 && r.x + r.w <= width && r.y + r.h <= height);
      for (let y = r.y; y < r.y + r.h; y++) {
        for (let x = r.x; x < r.x + r.w; x++) {
          assert.equal(layer.pixels[y * width + x], null, `pixel (${x}, ${y}) is painted again`);
          layer.pixels[y * width + x] = { x: layer.state.origin.x + x, y: layer.state.origin.y + y };
        }
      }
      layer.state = { ...layer.state, valid: next.valid };
      // What is painted is the rectangle `valid`, nothing more, nothing less.
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const inside = x >= next.valid.x && y >= next.valid.y && x < next.valid.x + next.valid.w && y < next.valid.y + next.valid.h;
          assert.equal(layer.pixels[y * width + x] !== null, inside, `pixel (${x}, ${y})`);
        }
      }
      bands++;
    }
    assert.ok(bands >= 1 && bands <= 4);
    assert.deepEqual(layer.state.valid, { x: 0, y: 0, w: width, h: height });
    // Every pan that stays within the layer now only copies, and shows the right pixels.
    const { x: mx, y: my } = layer.margin;
    for (const [dx, dy] of [[mx, my], [-mx, -my], [-1, my], [0, 0]]) {
      assert.deepEqual(frame(layer, { ...view, left: view.left + dx, top: view.top + dy }).paint, []);
    }
  }
  assert.equal(nextFill({ width: 60, height: 36, origin: null, valid: null }), null, 'nothing to fill out from');
});

/** A canvas context that records what it is asked to do (no pixels). */
function recordingCanvas() {
  const calls = [];
  const canvas = { width: 0, height: 0 };
  const saved = [];
  const ctx = {
    canvas, globalCompositeOperation: 'source-over', fillStyle: '#000',
    setTransform: (...a) => calls.push(['setTransform', ...a]), beginPath() {},
    save: () => saved.push([ctx.globalCompositeOperation, ctx.fillStyle]),
    restore: () => { [ctx.globalCompositeOperation, ctx.fillStyle] = saved.pop(); },
    clearRect: (...a) => calls.push(['clearRect', ...a]), rect: (...a) => calls.push(['rect', ...a]), clip() {},
    fillRect: (...a) => calls.push(['fillRect', ctx.globalCompositeOperation, ctx.fillStyle, ...a]),
    drawImage: (...a) => calls.push(['drawImage', ctx.globalCompositeOperation, ...a.slice(1)]),
    getImageData: (...a) => calls.push(['getImageData', ...a]),
  };
  canvas.getContext = () => ctx;
  return { canvas, ctx, calls };
}

/** A MapLayer over a recording canvas, for a target canvas of 40 × 24 CSS pixels at ratio 2; idle tasks wait in `idle`. */
function recordedGround() {
  const layer = recordingCanvas();
  const target = recordingCanvas();
  target.canvas.width = 80;
  target.canvas.height = 48;
  const idle = [];
  const ground = new MapLayer(() => layer.canvas, (task) => idle.push(task));
  const runIdle = () => { while (idle.length) idle.shift()(); };
  return { layer, target, ground, idle, runIdle, view: { cx: 100, cy: -50, scale: 2 } };
}

test('the first frame paints the view straight onto the map, the background under it; the layer is filled when idle', () => {
  const { layer, target, ground, idle, runIdle, view } = recordedGround();
  const painted = [];
  const paint = (ctx, v, width, height) => painted.push({ onto: ctx === target.ctx ? 'map' : 'layer', v, width, height });
  ground.draw(target.ctx, ['scene', 1], view, 40, 24, 2, '#eee', paint);
  assert.deepEqual(painted, [{ onto: 'map', v: { cx: 100, cy: -50, scale: 2 }, width: 40, height: 24 }]);
  assert.equal(layer.canvas.width, 0, 'the layer is not even made yet');
  assert.ok(!target.calls.some((c) => c[0] === 'drawImage'), 'nothing is copied');
  assert.deepEqual(target.calls.filter((c) => c[0] === 'fillRect'), [['fillRect', 'destination-over', '#eee', 0, 0, 80, 48]]);
  // The view is painted at the map's pixel (0, 0) as the layer would paint it at its margin.
  assert.deepEqual(target.calls.filter((c) => c[0] === 'setTransform').at(-1), ['setTransform', 2, 0, 0, 2, 0, 0]);
  assert.equal(idle.length, 1);
  runIdle();
  assert.equal(layer.canvas.width, 120);
  assert.equal(layer.canvas.height, 72);
  assert.deepEqual(painted.slice(1).map((p) => p.onto), ['layer', 'layer', 'layer', 'layer', 'layer'], 'the view, then four margins');
  assert.deepEqual(painted[1], { onto: 'layer', v: { cx: 100, cy: -50, scale: 2 }, width: 40, height: 24 });
  assert.equal(layer.calls.filter((c) => c[0] === 'getImageData').length, 5, 'each rasterised as it is painted');
  assert.deepEqual(ground.state.valid, { x: 0, y: 0, w: 120, h: 72 });
  // Pans within the margins only copy, the background first.
  target.calls.length = 0;
  ground.draw(target.ctx, ['scene', 1], { ...view, cx: 100 + 9 / 4, cy: -50 - 5 / 4 }, 40, 24, 2, '#eee', paint);
  assert.equal(painted.length, 6);
  assert.deepEqual(target.calls.filter((c) => c[0] === 'fillRect' || c[0] === 'drawImage'),
    [['fillRect', 'source-over', '#eee', 0, 0, 80, 48], ['drawImage', 'source-over', 29, 7, 80, 48, 0, 0, 80, 48]]);
  assert.equal(idle.length, 0, 'nothing left to fill');
});

test('MapLayer paints a view of each rectangle, copies the view, and starts again when the key changes', () => {
  const { layer, target, ground, idle, view } = recordedGround();
  const painted = [];
  const paint = (_ctx, v, width, height) => painted.push({ v, width, height });
  ground.draw(target.ctx, ['scene', 1], view, 40, 24, 2, '#eee', paint); // straight onto the map
  ground.draw(target.ctx, ['scene', 1], view, 40, 24, 2, '#eee', paint); // before the filling: into the layer
  assert.equal(layer.canvas.width, 120);
  assert.equal(layer.canvas.height, 72);
  assert.equal(painted.length, 2);
  // The rectangle's own view: its centre is the view's centre, in CSS pixels of its size.
  assert.deepEqual(painted[1], { v: { cx: 100, cy: -50, scale: 2 }, width: 40, height: 24 });
  assert.deepEqual(target.calls.at(-1), ['drawImage', 'source-over', 20, 12, 80, 48, 0, 0, 80, 48]);
  ground.draw(target.ctx, ['scene', 1], { ...view, cx: 100 + 1 / 2 }, 40, 24, 2, '#eee', paint); // 2 device pixels right
  assert.equal(painted.length, 3, 'the right margin');
  assert.deepEqual(target.calls.at(-1), ['drawImage', 'source-over', 22, 12, 80, 48, 0, 0, 80, 48]);
  ground.draw(target.ctx, ['scene', 1], { ...view, cx: 100 + 3 / 2 }, 40, 24, 2, '#eee', paint);
  assert.equal(painted.length, 3, 'a pan within what is painted only copies');
  ground.draw(target.ctx, ['scene', 2], { ...view, cx: 100 + 3 / 2 }, 40, 24, 2, '#eee', paint);
  assert.equal(painted.length, 4, 'a new revision of the scene paints again');
  assert.deepEqual(painted[3], { v: { cx: 101.5, cy: -50, scale: 2 }, width: 40, height: 24 });
  assert.equal(target.calls.at(-1)[0], 'fillRect', 'straight onto the map');
  assert.equal(idle.length, 1, 'one filling asked for at a time');
});

test('a released layer gives its pixels back, forgets its filling and paints the next frame anew', () => {
  const { layer, target, ground, runIdle, view } = recordedGround();
  let painted = 0;
  ground.draw(target.ctx, ['scene'], view, 40, 24, 2, '#eee', () => { painted++; });
  ground.draw(target.ctx, ['scene'], view, 40, 24, 2, '#eee', () => { painted++; });
  ground.release();
  assert.equal(layer.canvas.width * layer.canvas.height, 0);
  runIdle();
  assert.equal(painted, 2, 'no filling after the release');
  ground.draw(target.ctx, ['scene'], view, 40, 24, 2, '#eee', () => { painted++; });
  assert.equal(painted, 3);
  assert.equal(layer.canvas.width, 0, 'straight onto the map again');
});
