import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { smallCatalogDoc } from './support/smallCatalog.mjs';

const { Catalog } = await appModule('catalog.js');
const { matchStations, stationsNamed, searchStations, prefectureCodes } = await appModule('search.js');
const { parseDateGroup } = await appModule('dates.js');

const doc = smallCatalogDoc();
doc.stations.push({ id: 400001, name: '駒ヶ根駅', yomi: 'こまがね', wiki: '', pref: 20, lat: 35729000, lng: 137934000, weight: 13, operator: 10102, lines: [12036], enabled: true },
  { id: 400002, name: 'ＪＲ難波駅', yomi: 'じぇいあーるなんば', wiki: '', pref: 27, lat: 34667000, lng: 135495000, weight: 13, operator: 10102, lines: [12036], enabled: true });
const catalog = new Catalog(doc);
const dates = new Map([[201111, 20130901], [300260, 1]]);
const dateOf = (id) => dates.get(id) ?? 0;

test('names: with or without 駅, by reading, folded (StationResolver)', () => {
  assert.deepEqual(stationsNamed(catalog, '津'), [201111, 300260, 301230]);
  assert.deepEqual(stationsNamed(catalog, '津駅'), [201111, 300260, 301230]);
  assert.deepEqual(stationsNamed(catalog, 'ツ'), [201111, 300260, 301230]);
  assert.deepEqual(stationsNamed(catalog, '駒ケ根'), [400001]);
  assert.deepEqual(stationsNamed(catalog, '駒ｹ根駅'), [400001]);
  assert.deepEqual(stationsNamed(catalog, 'ｺﾏｶﾞﾈ'), [400001]);
  assert.deepEqual(stationsNamed(catalog, 'jr難波'), [400002]);
  assert.deepEqual(stationsNamed(catalog, '伏石'), [], 'disabled stations are not matched by name');
  assert.deepEqual(stationsNamed(catalog, 'つ', 'name'), []);
});

test('the shared matching rule (StationTextMatch): folded prefix or partial, by name, reading or either', () => {
  assert.deepEqual(matchStations(catalog, '津', 'name', false), [201111, 300260, 301230, 301231]);
  assert.deepEqual(matchStations(catalog, '津駅', 'name', false), [201111, 300260, 301230], 'a typed 駅 ends the name, as LIKE did');
  assert.deepEqual(matchStations(catalog, '津駅', 'name', true), [201111, 300260, 301230], 'anywhere: names ending in 津駅');
  assert.deepEqual(matchStations(catalog, 'つし', 'yomi', false), [301231]);
  assert.deepEqual(matchStations(catalog, 'ツシ', 'name', false), [], 'a reading is not a name');
  assert.deepEqual(matchStations(catalog, 'ツシ', 'any', false), [301231]);
  assert.deepEqual(matchStations(catalog, '新町', 'name', true), [301231]);
  assert.deepEqual(matchStations(catalog, '新町', 'name', false), []);
  assert.deepEqual(matchStations(catalog, 'ｊｒ', 'name', false), [400002], 'full width and case fold');
  assert.deepEqual(matchStations(catalog, '駒ｹ', 'name', false), [400001]);
  assert.deepEqual(matchStations(catalog, '  ', 'any', true), [], 'an empty folded text matches nothing');
  assert.deepEqual(matchStations(catalog, '伏石', 'any', true), [], 'disabled stations are not searched');
});

test('filters follow StationQuery', () => {
  assert.deepEqual(searchStations(catalog, '津', { completion: 'completed' }, dateOf), [201111, 300260]);
  assert.deepEqual(searchStations(catalog, '津', { completion: 'incomplete' }, dateOf), [301230, 301231]);
  assert.deepEqual(searchStations(catalog, '', { dateGroup: parseDateGroup('2013') }, dateOf), [201111]);
  assert.deepEqual(searchStations(catalog, '', { dateGroup: parseDateGroup('unknown') }, dateOf), [300260]);
  assert.deepEqual(searchStations(catalog, '', { prefectures: prefectureCodes('神奈') }, dateOf), [202945]);
});

test('prefecture filters: a code or the start of names', () => {
  assert.deepEqual(prefectureCodes('大'), [27, 44]);
  assert.deepEqual(prefectureCodes('24'), [24]);
  assert.deepEqual(prefectureCodes('２４'), [24]);
  assert.equal(prefectureCodes('48'), null);
  assert.equal(prefectureCodes('京都市'), null);
});

test('the search box: exact names first, then folded prefixes', () => {
  assert.deepEqual(searchStations(catalog, '津新', {}, dateOf), [301231]);
  assert.deepEqual(searchStations(catalog, 'つ', {}, dateOf), [201111, 300260, 301230, 301231], 'exact readings first');
  assert.deepEqual(searchStations(catalog, '津', {}, dateOf), [201111, 300260, 301230, 301231]);
  assert.deepEqual(searchStations(catalog, 'つし', {}, dateOf), [301231]);
  assert.deepEqual(searchStations(catalog, 'コマ', {}, dateOf), [400001]);
  assert.deepEqual(searchStations(catalog, 'ｊｒ', {}, dateOf), [400002]);
  assert.deepEqual(searchStations(catalog, '202945', {}, dateOf), [202945]);
  assert.deepEqual(searchStations(catalog, '', { completion: 'completed' }, dateOf), [201111, 300260]);
  assert.deepEqual(searchStations(catalog, 'す', { prefectures: [24] }, dateOf), [300261]);
});
