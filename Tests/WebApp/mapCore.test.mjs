// The map arithmetic that the report and the app share (Sources/ReportAssets/report/mapCore.js,
// served to the app as app/js/mapCore.js): the projection, the view and the hit test.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { appDir } from './support/paths.mjs';
import { X_SCALE, fromScreen, panBy, project, stationsAt, toScreen, unproject, zoomAt } from '../../Sources/ReportAssets/report/mapCore.js';

const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} ≠ ${b}`);

test('the projection: thousandths of a degree, x scaled by cos 36°, y southwards', () => {
  const cases = [
    // [lat, lng, x, y] in micro-degrees and map units
    [0, 0, 0, 0],
    [35_681_391, 139_766_103, 139_766.103 * X_SCALE, -35_681.391],
    [43_068_625, 141_350_801, 141_350.801 * X_SCALE, -43_068.625],
    [-1_000, -2_000, -2 * X_SCALE, 1],
  ];
  close(X_SCALE, 0.8090169943749475, 'cos 36°');
  for (const [lat, lng, x, y] of cases) {
    const p = project(lat, lng);
    close(p.x, x, `x of ${lat},${lng}`);
    close(p.y, y, `y of ${lat},${lng}`);
    const back = unproject(p.x, p.y);
    close(back.lat, lat, 'lat back');
    close(back.lng, lng, 'lng back');
  }
});

test('the view: screen and map points, pan and zoom around a fixed point', () => {
  const cases = [
    // [viewport, width, height, screen point, zoom factor, limits]
    [{ cx: 100, cy: -200, scale: 2 }, 400, 300, [0, 0], 2, [0.1, 10]],
    [{ cx: 0, cy: 0, scale: 0.5 }, 390, 700, [390, 700], 0.5, [0.1, 10]],
    [{ cx: 113_000, cy: -35_000, scale: 0.01 }, 1024, 768, [512, 384], 3, [0.005, 200]],
  ];
  for (const [v, w, h, [px, py], factor, [min, max]] of cases) {
    const m = fromScreen(v, w, h, px, py);
    const s = toScreen(v, w, h, m.x, m.y);
    close(s.px, px, 'px back');
    close(s.py, py, 'py back');
    const centre = toScreen(v, w, h, v.cx, v.cy);
    close(centre.px, w / 2, 'centre x');
    close(centre.py, h / 2, 'centre y');
    const zoomed = zoomAt(v, w, h, px, py, factor, min, max);
    close(zoomed.scale, v.scale * factor, 'scale');
    const still = fromScreen(zoomed, w, h, px, py);
    close(still.x, m.x, 'the zoom keeps the point under the pointer (x)');
    close(still.y, m.y, 'the zoom keeps the point under the pointer (y)');
    const panned = panBy(v, 30, -40);
    const moved = toScreen(panned, w, h, m.x, m.y);
    close(moved.px, px + 30, 'the map follows the drag (x)');
    close(moved.py, py - 40, 'the map follows the drag (y)');
  }
  assert.equal(zoomAt({ cx: 0, cy: 0, scale: 1 }, 10, 10, 5, 5, 100, 0.5, 4).scale, 4, 'at most maxScale');
  assert.equal(zoomAt({ cx: 0, cy: 0, scale: 1 }, 10, 10, 5, 5, 0.01, 0.5, 4).scale, 0.5, 'at least minScale');
});

// 0 and 2 share a point (東京 of two operators, 2 completed), 1 is 3 units east, 3 is alone.
const points = { xs: [10, 13, 10, 50], ys: [20, 20, 20, 60], completed: [0, 0, 1, 1] };

test('the hit test: every station at the nearest point, completed first', () => {
  const cases = [
    // [name, x, y, radius, candidates, expected]
    ['on the shared point', 10, 20, 5, undefined, [2, 0]],
    ['near the shared point', 11, 21, 5, undefined, [2, 0]],
    ['nearer the lone one east', 12.6, 20, 5, undefined, [1]],
    ['outside the radius', 30, 40, 5, undefined, []],
    ['exactly at the radius', 13, 24, 4, undefined, [1]],
    ['a completed lone station', 50, 61, 2, undefined, [3]],
    ['the candidates pick the nearest', 12.9, 20, 5, [0], [2, 0]],
    ['no candidate', 10, 20, 5, [], []],
    ['a radius of zero on the point', 10, 20, 0, undefined, [2, 0]],
  ];
  for (const [name, x, y, radius, candidates, expected] of cases) {
    assert.deepEqual(stationsAt(points, x, y, radius, candidates), expected, name);
  }
});

test('the hit test orders several completed and open stations at one point by completion, then index', () => {
  const n = 6;
  const same = { xs: new Float64Array(n).fill(7), ys: new Float64Array(n).fill(7), completed: [0, 1, 0, 1, 1, 0] };
  assert.deepEqual(stationsAt(same, 7, 7, 1), [1, 3, 4, 0, 2, 5]);
});

test('the app serves the report\'s file: app/js/mapCore.js is a link, not a copy', () => {
  const link = path.join(appDir, 'js', 'mapCore.js');
  assert.ok(lstatSync(link).isSymbolicLink(), 'a link');
  assert.equal(readlinkSync(link), '../../../ReportAssets/report/mapCore.js');
  assert.doesNotMatch(readFileSync(link, 'utf8'), /^import /m, 'no import: the report inlines it');
});
