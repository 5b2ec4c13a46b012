import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { parse, stringify, toUnsigned, JsonSyntaxError } = await appModule('bigjson.js');

test('integers beyond 2^53 stay exact as BigInt', () => {
  const v = parse('{"server_has":{"0123456789abcdef":9007199254740993},"max":18446744073709551615,"small":42,"neg":-9007199254740993}');
  assert.equal(v.server_has['0123456789abcdef'], 9007199254740993n);
  assert.equal(v.max, 18446744073709551615n);
  assert.equal(v.small, 42);
  assert.equal(typeof v.small, 'number');
  assert.equal(v.neg, -9007199254740993n);
});

test('hlc strings stay strings, exactly', () => {
  const v = parse('{"hlc":"17999999999999999999"}');
  assert.equal(v.hlc, '17999999999999999999');
  assert.equal(BigInt(v.hlc), 17999999999999999999n);
});

test('stringify writes BigInt as bare integers and round-trips', () => {
  const text = stringify({ have: { a: 9007199254740993n }, list: [1, 2.5, 'x\n"y"', null, true], skip: undefined });
  assert.equal(text, '{"have":{"a":9007199254740993},"list":[1,2.5,"x\\n\\"y\\"",null,true]}');
  assert.deepEqual(parse(text), { have: { a: 9007199254740993n }, list: [1, 2.5, 'x\n"y"', null, true] });
});

test('strings, escapes and numbers as JSON.parse reads them', () => {
  for (const text of ['"\\u6d25\\u99c5 \\ud83d\\ude83"', '[0, -0.5, 1e3, 2E-2, 9007199254740991]', '{"a":{"b":[[]]}}', ' true ', '"\\/\\b\\f\\r\\t"']) {
    assert.deepEqual(parse(text), JSON.parse(text));
  }
});

test('malformed JSON is refused', () => {
  for (const text of ['', '{', '{"a":1,}', '[1 2]', '01', '"\u0001"', 'nul', '{"a":1} x', '"\\x"', '1.', '-']) {
    assert.throws(() => parse(text), JsonSyntaxError, text);
  }
});

test('__proto__ keys are plain own properties', () => {
  const v = parse('{"__proto__":{"polluted":1}}');
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.deepEqual(Object.keys(v), ['__proto__']);
  assert.equal({}.polluted, undefined);
});

test('toUnsigned accepts only non-negative integers', () => {
  assert.equal(toUnsigned(5), 5n);
  assert.equal(toUnsigned(18446744073709551615n), 18446744073709551615n);
  for (const v of [-1, 1.5, '5', null, -1n]) assert.equal(toUnsigned(v), null);
});

test('text without a large integer reads as JSON.parse reads it; quoted and embedded digit runs are strings', () => {
  const page = '{"records":[{"kind":"station_edit","device":"0000000000000001","seq":12,"hlc":"114112000000000000","memo":"電話 12345678901234567 まで"}],"more":false,"cursor":9007199254740991}';
  assert.deepEqual(parse(page), JSON.parse(page));
  assert.equal(parse('{"seq":9007199254740993,"hlc":"114112000000000000"}').seq, 9007199254740993n, 'a bare run after a quoted one');
  assert.equal(parse('[1234567890123456789]')[0], 1234567890123456789n);
  assert.throws(() => parse('{"a":"x"12345678901234567}'), JsonSyntaxError);
});
