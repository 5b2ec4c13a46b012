import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { fold, foldStationName, foldReading, number } = await appModule('nameFolding.js');

test('ｹ, ヶ, ヵ and ケ are one letter; full width folds', () => {
  assert.equal(fold('駒ヶ根'), '駒ケ根');
  assert.equal(fold('駒ヵ根'), '駒ケ根');
  assert.equal(fold('駒ｹ根'), '駒ケ根');
  assert.equal(fold('ＪＲ'), 'jr');
  assert.equal(fold('  龍谷大前深草駅 '), '龍谷大前深草駅');
  assert.equal(fold('\u3000津\t'), '津');
});

test('a trailing 駅 is optional in station names', () => {
  assert.equal(foldStationName('津駅'), '津');
  assert.equal(foldStationName('津'), '津');
  assert.equal(foldStationName('駅'), '駅');
  assert.equal(foldStationName('高岡駅駅'), '高岡駅');
});

test('katakana and half-width katakana read as hiragana', () => {
  assert.equal(foldReading('コマガネ'), 'こまがね');
  assert.equal(foldReading('ｺﾏｶﾞﾈ'), 'こまがね');
  assert.equal(foldReading('ヴ'), 'ゔ');
  assert.equal(foldReading('ヶ'), 'け', 'ヶ folds to ケ first');
  assert.equal(foldReading('ー'), 'ー', 'the long sound mark is outside U+30A1…U+30F6');
});

test('numbers are ASCII digits after folding', () => {
  assert.equal(number(fold('１２３')), 123);
  assert.equal(number('12a'), null);
  assert.equal(number(''), null);
});
