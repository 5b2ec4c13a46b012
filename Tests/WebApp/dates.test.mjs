import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const d = await appModule('dates.js');

test('valid codes are those CompletionDate(code:) accepts', () => {
  for (const c of [0, 1, 19000000, 20130000, 20130900, 20130901, 20000229, 20241231]) assert.ok(d.isValidCode(c), String(c));
  for (const c of [2, 18991231, 18990000, 19000229, 20130230, 20131300, 20130001, 20130032, 20230229, -1, 1.5, 4294967296]) {
    assert.ok(!d.isValidCode(c), String(c));
  }
});

test('labels are the Swift labels', () => {
  const cases = [
    [0, '未乗下車', 'none'], [1, '乗下車済 (日付不明)', 'unknown'], [20130000, '2013年頃', '2013'],
    [20130900, '2013年9月頃', '2013-09'], [20130901, '2013年9月1日', '2013-09-01'], [19870401, '1987年4月1日', '1987-04-01'],
  ];
  for (const [code, ja, en] of cases) {
    assert.equal(d.labelJa(code), ja);
    assert.equal(d.labelEn(code), en);
  }
});

test('today in Japan is UTC+9 without daylight saving', () => {
  assert.deepEqual(d.tokyoDay(Date.UTC(2013, 8, 1, 14, 59, 59, 999)), { year: 2013, month: 9, day: 1 });
  assert.deepEqual(d.tokyoDay(Date.UTC(2013, 8, 1, 15, 0, 0)), { year: 2013, month: 9, day: 2 });
  assert.equal(d.todayCode(Date.UTC(2024, 11, 31, 15, 0, 0)), 20250101);
  assert.deepEqual(d.tokyoDay(-1), { year: 1970, month: 1, day: 1 });
});

test('dates after today in Japan are refused', () => {
  const now = Date.UTC(2013, 8, 1, 3, 0, 0); // 2013-09-01 12:00 JST
  assert.equal(d.dateProblem(20130901, now), null);
  assert.equal(d.dateProblem(20130900, now), null);
  assert.equal(d.dateProblem(20130000, now), null);
  assert.equal(d.dateProblem(1, now), null);
  assert.equal(d.dateProblem(20130902, now), 'future');
  assert.equal(d.dateProblem(20131000, now), 'future');
  assert.equal(d.dateProblem(20140000, now), 'future');
  assert.equal(d.dateProblem(20130230, now), 'invalid');
});

test('the fuzzy picker composes codes as iOS does', () => {
  assert.equal(d.compose(null, 9, 1), 1);
  assert.equal(d.compose(2013, null, 5), 20130000);
  assert.equal(d.compose(2013, 9, null), 20130900);
  assert.equal(d.compose(2013, 2, 30), 20130200, 'a day beyond the month reads as day unknown');
  assert.equal(d.compose(2012, 2, 29), 20120229);
});

test('date groups follow CompletionDateGroup', () => {
  assert.deepEqual(d.parseDateGroup('2013'), { low: 20130000, high: 20131231 });
  assert.deepEqual(d.parseDateGroup('2013-9'), { low: 20130900, high: 20130931 });
  assert.deepEqual(d.parseDateGroup('2013-09-01'), { low: 20130901, high: 20130901 });
  assert.deepEqual(d.parseDateGroup('unknown'), { low: 1, high: 1 });
  assert.deepEqual(d.parseDateGroup('2013-unknown'), { low: 20130000, high: 20130000 });
  assert.deepEqual(d.parseDateGroup('2013-09-UNKNOWN'), { low: 20130900, high: 20130900 });
  for (const t of ['13', '2013-13', '2013-02-30', '1899', '2013-09-01-unknown', 'x', '', '2013--1']) assert.equal(d.parseDateGroup(t), null, t);
});

test('times read as the apps show them, in JST', () => {
  assert.equal(d.formatJst(Date.UTC(2013, 8, 1, 15, 4, 5)), '2013/09/02 00:04:05 JST');
});

test('the remembered date: a completed date not after today in Japan, else none', async () => {
  const { rememberedDate } = await appModule('dates.js');
  const now = Date.UTC(2024, 4, 3, 3, 0, 0); // 2024-05-03 in Japan
  assert.equal(rememberedDate(20130901, now), 20130901);
  assert.equal(rememberedDate(1, now), 1);
  assert.equal(rememberedDate(20240500, now), 20240500);
  assert.equal(rememberedDate(20240503, now), 20240503);
  assert.equal(rememberedDate(20240504, now), 0, 'later than today');
  assert.equal(rememberedDate(0, now), 0);
  assert.equal(rememberedDate(undefined, now), 0);
  assert.equal(rememberedDate('x', now), 0);
  assert.equal(rememberedDate(20130230, now), 0, 'not a date');
});
