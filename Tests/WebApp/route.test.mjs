import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { parseRoute, formatRoute, parseFilter, formatFilter, opensOnTheWholeMap } = await appModule('route.js');

test('tabs, a station, a line: each hash names one screen', () => {
  for (const tab of ['map', 'nearby', 'search', 'station', 'stats', 'sync']) {
    assert.deepEqual(parseRoute(`#/${tab}`), { screen: tab });
    assert.equal(formatRoute({ screen: tab }), `#/${tab}`);
  }
  assert.deepEqual(parseRoute('#/station/202758'), { screen: 'station', station: 202758 });
  assert.deepEqual(parseRoute('#/line/5011021'), { screen: 'line', line: 5011021 });
  assert.equal(formatRoute({ screen: 'station', station: 202758 }), '#/station/202758');
  assert.equal(formatRoute({ screen: 'line', line: 5011021 }), '#/line/5011021');
  assert.deepEqual(parseRoute('/line/12083'), { screen: 'line', line: 12083 }, 'the # is optional');
});

test('what is not a route is null: the pairing link, unknown screens, bad ids', () => {
  for (const hash of ['', '#', '#/', '#pair=K3QZ8M2T', '#/pair=K3QZ8M2T', '#/trains', '#/station/', '#/station/abc',
    '#/station/0', '#/station/-3', '#/station/4294967296', '#/station/12345678901', '#/line/1/2', '#/stats?x=1', '#/line/12?x=1']) {
    assert.equal(parseRoute(hash), null, hash);
  }
  assert.deepEqual(parseRoute('#/station/4294967295'), { screen: 'station', station: 4294967295 });
});

test('the map with a selection: every key, percent-encoded values, a fixed key order', () => {
  assert.deepEqual(parseRoute('#/map?line=5011021'), { screen: 'map', filter: { line: 5011021 } });
  assert.deepEqual(parseRoute('#/map?pref=24'), { screen: 'map', filter: { pref: 24 } });
  const filter = { line: 12036, operator: 10102, type: 1, pref: 24, kana: 'つ', yomi: 'つ', date: '2013-09', completion: 'completed', search: '名古屋 線', by: 'line', match: 'partial' };
  const hash = formatRoute({ screen: 'map', filter });
  assert.equal(hash, '#/map?line=12036&operator=10102&type=1&pref=24&kana=%E3%81%A4&yomi=%E3%81%A4&date=2013-09&completion=completed&search=%E5%90%8D%E5%8F%A4%E5%B1%8B%20%E7%B7%9A&by=line&match=partial');
  assert.deepEqual(parseRoute(hash), { screen: 'map', filter });
  assert.deepEqual(parseFilter('search=%E6%B4%A5+%E9%A7%85'), { search: '津 駅' }, 'a + is a space, as forms write it');
  assert.deepEqual(parseFilter('date=2013%E5%B9%B4%209%E6%9C%88'), { date: '2013年 9月' }, "the originals' keywords are date groups");
  assert.deepEqual(parseFilter('date=none'), { date: 'none' });
  assert.deepEqual(parseFilter('date=unknown&pref=13'), { date: 'unknown', pref: 13 });
  assert.deepEqual(parseFilter('line=12036&utm_source=x'), { line: 12036 }, 'an unknown key is ignored');
  assert.deepEqual(parseFilter('search='), { search: '' }, 'an empty search text with no other condition selects by nothing but is a selection');
  assert.equal(formatRoute({ screen: 'map', filter: null }), '#/map');
  assert.equal(formatFilter({ by: 'line', pref: 3 }), 'pref=3', 'by and match belong to a search');
});

test('a refused value makes no selection', () => {
  for (const query of ['line=abc', 'line=0', 'pref=48', 'pref=0', 'type=11', 'kana=つい', 'yomi=つしん', 'yomi=', 'date=2013-13',
    'date=soon', 'completion=done', 'by=station&search=x', 'match=any&search=x', 'by=line', 'search=%E0%A4%A', '', 'x=1']) {
    assert.equal(parseFilter(query), null, query);
  }
  assert.deepEqual(parseRoute('#/map?pref=48'), { screen: 'map', filter: null });
  assert.equal(parseFilter(`search=${'あ'.repeat(201)}`), null, 'at most 200 characters of search text');
});

test('the whole map opens first for no route and for 地図 without a selection, not for a pairing link', () => {
  for (const hash of ['', '#', '#/map', '#/nowhere', '#/map?unknown=1']) assert.equal(opensOnTheWholeMap(hash), true, hash);
  for (const hash of ['#pair=ABCD-EFGH', '#/sync', '#/station/1130105', '#/line/11302', '#/map?line=11302', '#/stats']) {
    assert.equal(opensOnTheWholeMap(hash), false, hash);
  }
});
