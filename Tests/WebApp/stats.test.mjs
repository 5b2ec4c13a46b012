import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { smallCatalogDoc } from './support/smallCatalog.mjs';

const { Catalog, wikipediaUrl } = await appModule('catalog.js');
const { StatisticsEngine, describeJa, rateText, compareCodePoints, StatsError } = await appModule('stats.js');

const catalog = new Catalog(smallCatalogDoc());
const dates = new Map([[201111, 20130901], [300260, 20130900], [301231, 1], [306100, 20100101]]);
const engine = new StatisticsEngine(catalog, (id) => dates.get(id) ?? 0);
const rows = (level) => level.groups.map((g) => [g.key, g.label, g.counts.total, g.counts.completed]);

test('the group line reads as the apps write it', () => {
  assert.equal(describeJa({ total: 9520, completed: 2 }, false), '9520駅中 2駅 0.0% 残り9518駅');
  assert.equal(describeJa({ total: 3, completed: 2 }, true), '3駅中 2駅 66.6%');
  assert.equal(rateText({ total: 0, completed: 0 }), '-');
  assert.equal(rateText({ total: 3, completed: 3 }), '100.0%');
});

test('operators: type → operator → line → stations, enabled ones only', () => {
  const top = engine.report('operators', []);
  assert.deepEqual(top.counts, { total: 7, completed: 3 });
  assert.deepEqual(rows(top), [['1', 'JR旅客会社', 3, 1], ['2', '大手私鉄', 2, 1], ['5', '中小私鉄', 2, 1]]);
  assert.deepEqual(rows(engine.report('operators', ['2'])), [['50050', '近畿日本鉄道', 2, 1]]);
  assert.deepEqual(rows(engine.report('operators', ['2', '50050'])), [['60005003', '名古屋線', 2, 1]]);
  const line = engine.report('operators', ['1', '10102', '12036']);
  assert.deepEqual(line.stations.map((s) => s.station), [201112, 201111, 202945], 's_sort order');
  assert.throws(() => engine.report('operators', ['9']), StatsError);
});

test('prefectures, with station lists by address', () => {
  assert.deepEqual(rows(engine.report('prefectures', [])), [['14', '神奈川県', 1, 0], ['24', '三重県', 6, 3]]);
  assert.deepEqual(engine.report('prefectures', ['24']).stations.slice(0, 3).map((s) => s.station), [201112, 300260, 300261]);
});

test('readings: つ is a group of its own at every level', () => {
  assert.deepEqual(rows(engine.report('yomi', [])), [['い', 'い', 1, 0], ['お', 'お', 1, 0], ['す', 'す', 1, 0], ['つ', 'つ', 4, 3]]);
  assert.deepEqual(rows(engine.report('yomi', ['つ'])), [['つ', 'つ', 3, 2], ['つし', 'つし', 1, 1]]);
  const tsu = engine.report('yomi', ['つ', 'つ']);
  assert.deepEqual(tsu.counts, { total: 3, completed: 2 });
  assert.deepEqual(tsu.stations.map((s) => s.station), [201111, 300260, 301230]);
});

test('dates: years descending, then 年月日不明, then 未乗下車; months and days with unknown last', () => {
  assert.deepEqual(rows(engine.report('dates', [])), [['2013', '2013年', 3, 2], ['unknown', '年月日不明', 3, 1], ['incomplete', '未乗下車', 7, 4]]);
  assert.deepEqual(rows(engine.report('dates', ['2013'])), [['201309', '2013年9月', 2, 2]]);
  assert.deepEqual(rows(engine.report('dates', ['2013', '201309'])), [['20130901', '2013年9月1日', 2, 1], ['20130900', '2013年9月 日付不明', 2, 1]]);
  assert.deepEqual(engine.report('dates', ['2013', '201309', '20130900']).stations.map((s) => s.station), [300260]);
  assert.deepEqual(engine.report('dates', ['incomplete']).counts, { total: 7, completed: 4 });
  assert.throws(() => engine.report('dates', ['2012']), StatsError);
  assert.throws(() => engine.report('dates', ['unknown', 'x']), StatsError);
});

test('code-point order puts characters beyond U+FFFF after the BMP', () => {
  assert.ok(compareCodePoints('\u{20B9F}', '\uFF5E') > 0);
  assert.ok(compareCodePoints('つ', 'つい') < 0);
  assert.ok('\u{20B9F}' < '\uFF5E', 'UTF-16 order differs, which is why');
});

test('Wikipedia links are formed as CatalogStation.wikipediaURL', () => {
  assert.equal(wikipediaUrl({ wiki: '', name: '津駅' }), 'https://ja.wikipedia.org/wiki/%E6%B4%A5%E9%A7%85');
  assert.equal(wikipediaUrl({ wiki: ' Odawara Station (Kanagawa) ', name: 'x' }), 'https://ja.wikipedia.org/wiki/Odawara_Station_(Kanagawa)');
  assert.equal(wikipediaUrl({ wiki: "a!b*c'd~e", name: 'x' }), 'https://ja.wikipedia.org/wiki/a%21b%2Ac%27d~e');
});

test('without line order, lines list their stations in s_id order', () => {
  const plain = new Catalog(smallCatalogDoc({ withOrder: false }));
  assert.equal(plain.hasLineOrder, false);
  const e = new StatisticsEngine(plain, () => 0);
  assert.deepEqual(e.report('operators', ['1', '10102', '12036']).stations.map((s) => s.station), [201111, 201112, 202945]);
});

test('a level\'s path: titles with their codes as `stats` prints them, and names alone for the screen', () => {
  const line = engine.report('operators', ['1', '10102', '12036']);
  assert.deepEqual(line.pathLabels, ['1 JR旅客会社', '10102 東海旅客鉄道', '12036 紀勢本線']);
  assert.deepEqual(line.pathNames, ['JR旅客会社', '東海旅客鉄道', '紀勢本線']);
  assert.deepEqual(engine.report('prefectures', ['24']).pathNames, ['三重県']);
  assert.deepEqual(engine.report('dates', ['2013', '201309']).pathNames, ['2013年', '2013年9月']);
  assert.deepEqual(engine.report('yomi', ['つ', 'つ']).pathNames, ['つ', 'つ']);
});
