import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { smallCatalogDoc } from './support/smallCatalog.mjs';

const { completedSections, lineProgress, progressText } = await appModule('lineSections.js');
const { selectionScene, fitSelection } = await appModule('selectionScene.js');
const { Catalog } = await appModule('catalog.js');

test('completed sections: runs of at least two consecutive completed stations, in line order', () => {
  const done = new Set([2, 3, 5, 7, 8, 9]);
  assert.deepEqual(completedSections([1, 2, 3, 4, 5, 6, 7, 8, 9], (id) => done.has(id)), [[2, 3], [7, 8, 9]]);
  assert.deepEqual(completedSections([5], (id) => done.has(id)), [], 'one station is no section');
  assert.deepEqual(completedSections([2, 3], (id) => done.has(id)), [[2, 3]], 'the whole line');
  assert.deepEqual(completedSections([], () => true), []);
  assert.deepEqual(completedSections([1, 4, 6], (id) => done.has(id)), []);
});

test('progress: count, completed and remaining, said as the apps say it', () => {
  const dates = new Map([[1, 20130901], [2, 1], [3, 0]]);
  const p = lineProgress([1, 2, 3, 4], (id) => dates.get(id) ?? 0);
  assert.deepEqual(p, { total: 4, completed: 2, remaining: 2 });
  assert.equal(progressText({ total: 12, completed: 8, remaining: 4 }, 'ja'), '12駅中 8駅 乗下車済・残り4駅');
  assert.equal(progressText({ total: 12, completed: 8, remaining: 4 }, 'en'), '8 of 12 stations done, 4 left');
});

test('a selected line: its stations only, its polyline in line order and its completed sections on top', () => {
  const catalog = new Catalog(smallCatalogDoc());
  // 紀勢本線 runs 一身田 201112, 津 201111, 小田原 202945.
  const dates = new Map([[201112, 20130901], [201111, 20130901]]);
  const scene = selectionScene(catalog, [201111, 201112, 202945], (id) => dates.get(id) ?? 0, 12036);
  assert.deepEqual([...scene.ids], [201111, 201112, 202945]);
  assert.deepEqual([...scene.completed], [1, 1, 0]);
  assert.equal(scene.lines.length, 2);
  const [whole, section] = scene.lines;
  assert.deepEqual([...whole.points].map((i) => scene.ids[i]), [201112, 201111, 202945], 'the line in s_sort order');
  assert.equal(whole.completed, false);
  assert.deepEqual([...section.points].map((i) => scene.ids[i]), [201112, 201111]);
  assert.equal(section.completed, true, 'drawn in the completed colour');

  const other = selectionScene(catalog, [201111, 306100, 999], () => 0);
  assert.deepEqual([...other.ids], [201111], 'disabled and unknown stations are not drawn');
  assert.deepEqual(other.lines, [], 'no line without a line selection');
});

test('the view fits the selection with a margin and never closer than the limit', () => {
  const catalog = new Catalog(smallCatalogDoc());
  const scene = selectionScene(catalog, [201111, 300261], () => 0);
  const view = fitSelection(scene, 390, 700, 200);
  const { minX, maxX, minY, maxY } = scene.bounds;
  assert.ok(Math.abs(view.cx - (minX + maxX) / 2) < 1e-9 && Math.abs(view.cy - (minY + maxY) / 2) < 1e-9);
  assert.ok((maxX - minX) * view.scale < 390 && (maxY - minY) * view.scale < 700, 'both ends on the canvas');
  const lone = fitSelection(selectionScene(catalog, [201111], () => 0), 390, 700, 200);
  assert.ok(lone.scale <= 200 && lone.scale > 50, `a lone station: ${lone.scale}`);
  assert.equal(fitSelection(selectionScene(catalog, [], () => 0), 390, 700, 200), null);
});

test('a fit below the map\'s top controls keeps the selection in the free part', async () => {
  const catalog = new Catalog(smallCatalogDoc());
  const scene = selectionScene(catalog, [201111, 300261], () => 0);
  const view = fitSelection(scene, 390, 700, 200, 60);
  const { toScreen } = await appModule('mapCore.js');
  for (const i of [0, 1]) {
    const { py } = toScreen(view, 390, 700, scene.xs[i], scene.ys[i]);
    assert.ok(py > 60 && py < 700, `station ${scene.ids[i]} at y ${py}`);
  }
});
