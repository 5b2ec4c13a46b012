import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { smallCatalogDoc } from './support/smallCatalog.mjs';

const { Catalog } = await appModule('catalog.js');
const searchModule = await appModule('search.js');
const { matchStations, stationsNamed, searchStations, prefectureCodes } = searchModule;
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

test('路線 search: enabled lines whose name begins with the text (前方一致) or contains it (部分一致), or by l_id', () => {
  const { stationsOnLines } = searchModule;
  assert.deepEqual(stationsOnLines(catalog, '名古屋', false), [301230, 301231]);
  assert.deepEqual(stationsOnLines(catalog, '古屋', false), []);
  assert.deepEqual(stationsOnLines(catalog, '古屋', true), [301230, 301231]);
  assert.deepEqual(stationsOnLines(catalog, '線', true), [201111, 201112, 202945, 300260, 300261, 301230, 301231],
    'each station once, in s_id order; the disabled 廃止線 adds nothing');
  assert.deepEqual(stationsOnLines(catalog, '廃止', true), [], 'a disabled line is not searched');
  assert.deepEqual(stationsOnLines(catalog, '３０００２３０１', false), [300260, 300261], 'an l_id, typed full-width');
  assert.deepEqual(stationsOnLines(catalog, ' ', true), []);
  assert.deepEqual(searchStations(catalog, '伊勢', {}, dateOf, { by: 'line' }), [300260, 300261]);
  assert.deepEqual(searchStations(catalog, '201111', {}, dateOf, { by: 'line' }), [], 'a number is an l_id for lines, never an s_id');
  assert.deepEqual(searchStations(catalog, '勢', { completion: 'completed' }, dateOf, { by: 'line', match: 'partial' }), [201111, 300260], '紀勢本線 and 伊勢線');
});

test('駅名 and 読み searches, 前方一致 and 部分一致', () => {
  assert.deepEqual(searchStations(catalog, '新町', {}, dateOf, { by: 'name' }), []);
  assert.deepEqual(searchStations(catalog, '新町', {}, dateOf, { by: 'name', match: 'partial' }), [301231]);
  assert.deepEqual(searchStations(catalog, 'つ', {}, dateOf, { by: 'name' }), [], 'a reading is not a name');
  assert.deepEqual(searchStations(catalog, 'ツ', {}, dateOf, { by: 'yomi' }), [201111, 300260, 301230, 301231], 'exact readings first');
  assert.deepEqual(searchStations(catalog, 'しん', {}, dateOf, { by: 'yomi', match: 'partial' }), [201112, 301231]);
});

test("the date search takes the originals' keywords and full-width digits (dates.normalizeDateText)", () => {
  const more = new Map([[201111, 20130901], [300260, 1], [201112, 20130000], [301231, 20130900]]);
  const of = (id) => more.get(id) ?? 0;
  const found = (text) => searchStations(catalog, '', { dateGroup: parseDateGroup(text) }, of);
  assert.deepEqual(found('2013年9月'), [201111, 301231]);
  assert.deepEqual(found('2013年'), [201111, 201112, 301231]);
  assert.deepEqual(found('2013年9月1日'), [201111]);
  assert.deepEqual(found('不明'), [300260]);
  assert.deepEqual(found('2013年 月日不明'), [201112]);
  assert.deepEqual(found('2013年9月 日付不明'), [301231]);
  assert.deepEqual(found('２０１３年９月'), [201111, 301231]);
  assert.deepEqual(found('２０１３－０９'), [201111, 301231]);
});
