import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';
import { smallCatalogDoc } from './support/smallCatalog.mjs';

const { Catalog } = await appModule('catalog.js');
const { selectStations, shownBy, filterLabel, statsFilter, lineStations, dependsOnDates, dateFilterLabel } = await appModule('mapSelection.js');
const { StatisticsEngine } = await appModule('stats.js');
const { setLanguage } = await appModule('i18n.js');

const catalog = new Catalog(smallCatalogDoc());
const dates = new Map([[201111, 20130901], [300260, 1], [201112, 20130000], [301231, 20130900]]);
const dateOf = (id) => dates.get(id) ?? 0;

test('each condition selects what its list holds; all given must hold', () => {
  assert.deepEqual(selectStations(catalog, { line: 12036 }, dateOf), [201111, 201112, 202945]);
  assert.deepEqual(selectStations(catalog, { line: 60005099 }, dateOf), [], 'a disabled line selects nothing');
  assert.deepEqual(selectStations(catalog, { operator: 50050 }, dateOf), [301230, 301231], 'the disabled 伏石 is never selected');
  assert.deepEqual(selectStations(catalog, { type: 1 }, dateOf), [201111, 201112, 202945]);
  assert.deepEqual(selectStations(catalog, { pref: 14 }, dateOf), [202945]);
  assert.deepEqual(selectStations(catalog, { kana: 'つ' }, dateOf), [201111, 300260, 301230, 301231]);
  assert.deepEqual(selectStations(catalog, { yomi: 'つ' }, dateOf), [201111, 300260, 301230], 'the 津 key: the three 津駅 only');
  assert.deepEqual(selectStations(catalog, { yomi: 'つし' }, dateOf), [301231]);
  assert.deepEqual(selectStations(catalog, { date: '2013' }, dateOf), [201111, 201112, 301231]);
  assert.deepEqual(selectStations(catalog, { date: '2013年 月日不明' }, dateOf), [201112], 'the keyword form');
  assert.deepEqual(selectStations(catalog, { date: '２０１３年９月' }, dateOf), [201111, 301231], 'full-width digits');
  assert.deepEqual(selectStations(catalog, { date: 'unknown' }, dateOf), [300260]);
  assert.deepEqual(selectStations(catalog, { date: 'none' }, dateOf), [202945, 300261, 301230]);
  assert.deepEqual(selectStations(catalog, { completion: 'completed', pref: 24 }, dateOf), [201111, 201112, 300260, 301231]);
  assert.deepEqual(selectStations(catalog, { line: 12036, completion: 'incomplete' }, dateOf), [202945]);
  assert.deepEqual(selectStations(catalog, { search: '津' }, dateOf), [201111, 300260, 301230, 301231]);
  assert.deepEqual(selectStations(catalog, { search: '名古屋', by: 'line' }, dateOf), [301230, 301231]);
  assert.deepEqual(selectStations(catalog, { search: '古屋', by: 'line' }, dateOf), [], '前方一致');
  assert.deepEqual(selectStations(catalog, { search: '古屋', by: 'line', match: 'partial' }, dateOf), [301230, 301231], '部分一致');
  assert.deepEqual(selectStations(catalog, { search: '  ', pref: 14 }, dateOf), [202945], 'an empty text is no condition');
});

test('the map\'s 全駅 / 済 / 未 applies on top', () => {
  const ids = selectStations(catalog, { line: 12036 }, dateOf);
  assert.deepEqual(shownBy(ids, 'all', dateOf), [201111, 201112, 202945]);
  assert.deepEqual(shownBy(ids, 'completed', dateOf), [201111, 201112]);
  assert.deepEqual(shownBy(ids, 'incomplete', dateOf), [202945]);
});

test('a line\'s stations in line order, each once, enabled only', () => {
  assert.deepEqual(lineStations(catalog, 12036).map((s) => s.id), [201112, 201111, 202945]);
  assert.equal(lineStations(catalog, 60005099), null);
  assert.equal(lineStations(catalog, 1), null);
});

test('every 統計 level offers the selection of exactly the stations it counts', () => {
  const engine = new StatisticsEngine(catalog, dateOf);
  const paths = {
    operators: [['1'], ['1', '10102'], ['1', '10102', '12036'], ['2', '50050'], ['5', '300023', '30002301']],
    prefectures: [['24'], ['14']],
    yomi: [['つ'], ['つ', 'つ'], ['つ', 'つし'], ['お', 'おだ']],
    dates: [['2013'], ['2013', '201309'], ['2013', '201300'], ['2013', '201309', '20130901'], ['2013', '201309', '20130900'], ['unknown'], ['incomplete']],
  };
  for (const [hierarchy, list] of Object.entries(paths)) {
    for (const path of list) {
      const level = engine.report(hierarchy, path);
      const filter = statsFilter(hierarchy, path);
      assert.ok(filter, `${hierarchy} ${path}`);
      const selected = selectStations(catalog, filter, dateOf);
      if (hierarchy === 'dates') {
        assert.equal(selected.length, level.counts.completed, `${hierarchy} ${path}: the group's size`);
      } else {
        const counted = level.stations ? level.stations.map((s) => s.station) : null;
        assert.equal(selected.length, level.counts.total, `${hierarchy} ${path}`);
        if (counted) assert.deepEqual(selected, [...counted].sort((a, b) => a - b), `${hierarchy} ${path}`);
      }
    }
    assert.equal(statsFilter(hierarchy, []), null, 'the top level is the whole map');
  }
  assert.deepEqual(statsFilter('dates', ['2013', '201300']), { date: '2013-unknown' });
  assert.deepEqual(statsFilter('dates', ['2013', '201309', '20130900']), { date: '2013-09-unknown' });
  assert.deepEqual(statsFilter('dates', ['incomplete']), { date: 'none' });
});

test('the chip names the selection in the app\'s language', () => {
  setLanguage('ja');
  assert.equal(filterLabel(catalog, { line: 60005003 }), '近畿日本鉄道 名古屋線');
  assert.equal(filterLabel(catalog, { pref: 24, completion: 'incomplete' }), '三重県 · 未乗下車');
  assert.equal(filterLabel(catalog, { yomi: 'つ' }), '読み「つ」');
  assert.equal(filterLabel(catalog, { search: '名古屋', by: 'line', match: 'partial' }), '路線名に「名古屋」を含む');
  assert.equal(filterLabel(catalog, { search: '津' }), '駅名・読みが「津」で始まる');
  assert.equal(filterLabel(catalog, { type: 5, operator: 300023 }), '伊勢鉄道 · 中小私鉄');
  for (const [text, ja, en] of [['2013', '2013年', '2013'], ['2013-9', '2013年9月', '2013-09'], ['2013-09-01', '2013年9月1日', '2013-09-01'],
    ['2013-unknown', '2013年 月日不明', '2013-unknown'], ['2013-09-unknown', '2013年9月 日付不明', '2013-09-unknown'],
    ['unknown', '年月日不明', 'unknown'], ['none', '未乗下車', 'none'], ['2013年9月', '2013年9月', '2013-09']]) {
    setLanguage('ja');
    assert.equal(dateFilterLabel(text), ja, text);
    setLanguage('en');
    assert.equal(dateFilterLabel(text), en, text);
  }
  assert.equal(filterLabel(catalog, { search: '名古屋', by: 'line' }), 'line name starts with “名古屋”');
  setLanguage('ja');
});

test('selections by date or completion are recomputed after edits', () => {
  assert.equal(dependsOnDates({ line: 1 }), false);
  assert.equal(dependsOnDates({ date: '2013' }), true);
  assert.equal(dependsOnDates({ search: '津', completion: 'completed' }), true);
});
