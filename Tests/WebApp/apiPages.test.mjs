// api.js decodes the sync answers once, where they arrive: a pull page's records decoded and
// validated, its cursor, version vector and digests; a push's counts and version vector. An
// answer that is not the API's shape is a MalformedAnswer, and nothing of it reaches the caller.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { Api, ApiError, MalformedAnswer } = await appModule('api.js');

const DEVICE = '8000000000000000';
const DIGEST = '0123456789abcdef0123456789abcdef';
const EDIT = `{"kind":"station_edit","device":"${DEVICE}","seq":2,"hlc":"114616487247872001","station":1130105,"comp_date":20130901,"origin":"user"}`;
const NAME = `{"kind":"device_name","device":"${DEVICE}","hlc":"114616487247872000","name":"Phone"}`;

/** An Api whose every request is answered with `text` (and `status`); the requests are kept. */
function answering(text, status = 200) {
  const requests = [];
  const api = new Api(async (url, init) => {
    requests.push({ url, body: init?.body });
    return new Response(text, { status });
  });
  return { api, requests };
}

const page = (fields) => `{"records":[${EDIT},${NAME}],"more":true,"cursor":18446744073709551615,"server_has":{"${DEVICE}":2},"server_digests":{"${DEVICE}":"${DIGEST}"}${fields}}`;

test('a pull page arrives decoded: records, cursor, what the server holds and its digests', async () => {
  const { api, requests } = answering(page(''));
  const decoded = await api.pull('token', { have: {}, have_digests: {}, limit: 10 });
  assert.equal(requests[0].url, '/v1/pull');
  assert.deepEqual(decoded.records, [
    { kind: 'station_edit', device: DEVICE, seq: 2n, hlc: 114616487247872001n, station: 1130105, compDate: 20130901, memo: null, origin: 'user' },
    { kind: 'device_name', device: DEVICE, seq: 0n, hlc: 114616487247872000n, name: 'Phone' },
  ]);
  assert.equal(decoded.more, true);
  assert.equal(decoded.cursor, 18446744073709551615n);
  assert.deepEqual(decoded.serverHas, new Map([[DEVICE, 2n]]));
  assert.deepEqual(decoded.serverDigests, new Map([[DEVICE, DIGEST]]));
});

test('a pull answer of another shape is a MalformedAnswer that says what is wrong', async () => {
  const bad = [
    ['not json', /not JSON/],
    ['[1]', /not a JSON object/],
    ['{"records":5,"more":false,"cursor":0,"server_has":{},"server_digests":{}}', /without records/],
    ['{"records":[],"cursor":0,"server_has":{},"server_digests":{}}', /without `more`/],
    ['{"records":[],"more":false,"cursor":-1,"server_has":{},"server_digests":{}}', /valid cursor/],
    ['{"records":[],"more":false,"cursor":0,"server_has":{"x":1},"server_digests":{}}', /server_has has a bad entry/],
    ['{"records":[],"more":false,"cursor":0,"server_has":{},"server_digests":[]}', /server_digests is not an object/],
    [`{"records":[${EDIT.replace('"station":1130105', '"station":0')}],"more":false,"cursor":0,"server_has":{},"server_digests":{}}`, /malformed record: .*positive station/],
  ];
  for (const [text, says] of bad) {
    await assert.rejects(answering(text).api.pull('token', {}), (error) => error instanceof MalformedAnswer && says.test(error.message), text);
  }
});

test('a push answer arrives decoded: the counts and what the server holds now', async () => {
  const { api, requests } = answering(`{"appended":3,"duplicates":1,"server_has":{"${DEVICE}":9007199254740993}}`);
  const reply = await api.push('token', { records: [] });
  assert.equal(requests[0].url, '/v1/push');
  assert.deepEqual(reply, { appended: 3, duplicates: 1, serverHas: new Map([[DEVICE, 9007199254740993n]]) });
});

test('a push answer without its counts or its version vector is a MalformedAnswer', async () => {
  for (const [text, says] of [['{"appended":3,"server_has":{}}', /without its counts/], ['{"appended":3,"duplicates":0}', /server_has is not an object/]]) {
    await assert.rejects(answering(text).api.push('token', { records: [] }), (error) => error instanceof MalformedAnswer && says.test(error.message), text);
  }
});

test('a refusal is still an ApiError, not decoded as a page', async () => {
  await assert.rejects(answering('{"error":"conflict","message":"gap"}', 409).api.pull('token', {}),
    (error) => error instanceof ApiError && error.status === 409 && error.code === 'conflict');
});
