// Lines, operators and prefectures completed (milestones.js), counted as the statistics count
// them: enabled stations; a line only while it and its operator are enabled.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { smallCatalogDoc } from './support/smallCatalog.mjs';

const { Catalog } = await appModule('catalog.js');
const { completedGroups, milestonesOf, lineStations } = await appModule('milestones.js');
const { StatisticsEngine } = await appModule('stats.js');

const catalog = new Catalog(smallCatalogDoc());
const names = (groups) => groups.map((g) => `${g.kind} ${g.name}`);

test('a line counts its enabled stations; a disabled line counts none', () => {
  assert.deepEqual(lineStations(catalog, 60005003).map((s) => s.id), [301230, 301231]);
  assert.deepEqual(lineStations(catalog, 60005099), [], 'the disabled line');
});

test('the last station of a line completes it, its operator and, when all of it is done, its prefecture', () => {
  const dates = new Map([[301230, 20130901]]);
  const compDate = (id) => dates.get(id) ?? 0;
  assert.deepEqual(milestonesOf(catalog, compDate, [301230]), [], 'one of two');
  dates.set(301231, 20240501);
  // 近鉄's 306100 is disabled: it does not keep the operator open.
  assert.deepEqual(names(milestonesOf(catalog, compDate, [301231])), ['line 近畿日本鉄道 名古屋線', 'operator 近畿日本鉄道']);
  for (const id of [201111, 201112, 300260]) dates.set(id, 20240501);
  assert.deepEqual(names(milestonesOf(catalog, compDate, [300260])), [], '伊勢線 lacks 鈴鹿');
  dates.set(300261, 20240502);
  assert.deepEqual(names(milestonesOf(catalog, compDate, [300261])), ['line 伊勢鉄道 伊勢線', 'operator 伊勢鉄道', 'prefecture 三重県']);
  dates.set(202945, 20240503);
  assert.deepEqual(names(milestonesOf(catalog, compDate, [202945])),
    ['line 東海旅客鉄道 紀勢本線', 'operator 東海旅客鉄道', 'prefecture 神奈川県']);
  // Several stations of one edit batch: each group once.
  assert.equal(milestonesOf(catalog, compDate, [300260, 300261]).length, 3);
  assert.deepEqual(milestonesOf(catalog, compDate, [306100]), [], 'a disabled station completes nothing');
});

test('what is completed, lines, then operators, then prefectures, each by its code, as the statistics count it', () => {
  const dates = new Map([[301230, 1], [301231, 20000000], [300260, 20130901], [300261, 20130901]]);
  const compDate = (id) => dates.get(id) ?? 0;
  const groups = completedGroups(catalog, compDate);
  assert.deepEqual(names(groups), ['line 伊勢鉄道 伊勢線', 'line 近畿日本鉄道 名古屋線', 'operator 近畿日本鉄道', 'operator 伊勢鉄道']);
  // Each is a group of the statistics with completed = total.
  const engine = new StatisticsEngine(catalog, compDate);
  const full = (level) => (level.groups ?? []).filter((g) => g.counts.total > 0 && g.counts.completed === g.counts.total).map((g) => Number(g.key));
  const types = engine.report('operators', []).groups.map((g) => g.key);
  const operators = types.flatMap((t) => full(engine.report('operators', [t])));
  const lines = types.flatMap((t) => engine.report('operators', [t]).groups.flatMap((o) => full(engine.report('operators', [t, o.key]))));
  assert.deepEqual(groups.filter((g) => g.kind === 'operator').map((g) => g.id).sort(), operators.sort());
  assert.deepEqual(groups.filter((g) => g.kind === 'line').map((g) => g.id).sort(), lines.sort());
  assert.deepEqual(groups.filter((g) => g.kind === 'prefecture').map((g) => g.id), full(engine.report('prefectures', [])));
  assert.deepEqual(completedGroups(catalog, () => 0), []);
});

test('the app says which stations an edit of the person took from 未乗下車 to a date, and no other', async () => {
  const { App } = await appModule('app.js');
  const { MemoryStore } = await appModule('store.js');
  const { FakeServer } = await import('./support/fakeServer.mjs');
  const app = new App({ store: new MemoryStore(), fetch: new FakeServer().fetch, now: () => Date.UTC(2024, 4, 3, 3), newDevice: () => '0123456789abcdef', deviceName: 't' });
  await app.start();
  const said = [];
  app.on('completed', (stations) => said.push(stations));
  await app.edit(301230, { memo: 'ホーム' });
  await app.edit(301230, { compDate: 20240501 });
  await app.edit(301230, { compDate: 20240502 });
  await app.edit(301230, { compDate: 0 });
  await app.edit(301231, { compDate: 1 });
  assert.deepEqual(said, [[301230], [301231]]);
});

test('a line is named with its operator, unless its name begins with it', async () => {
  const { lineTitle } = await appModule('milestones.js');
  const doc = smallCatalogDoc();
  doc.operators.push({ id: 31200601, name: '芝山鉄道', type: 5, enabled: true });
  doc.lines.push({ id: 31200601, name: '芝山鉄道線', operator: 31200601, enabled: true, stations: [] });
  const c = new Catalog(doc);
  assert.equal(lineTitle(c, 60005003), '近畿日本鉄道 名古屋線');
  assert.equal(lineTitle(c, 31200601), '芝山鉄道線');
});
