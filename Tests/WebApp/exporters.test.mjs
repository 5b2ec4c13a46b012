import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { Ledger } = await appModule('ledger.js');
const { MemoryStore } = await appModule('store.js');
const { deviceEventsJsonl, completionsTsv, quoteJson, replayLine } = await appModule('exporters.js');
const { fromWire } = await appModule('records.js');

const NOW = Date.UTC(2013, 8, 1, 3, 4, 5, 123);

test('JSON quoting as JSONText.quoted', () => {
  assert.equal(quoteJson('a"b\\c\nd\re\tf\u0001g\u007f津🚃'), '"a\\"b\\\\c\\nd\\re\\tf\\u0001g\u007f津🚃"');
});

test('this device\'s events as `replay --format jsonl` lines', async () => {
  const ledger = await Ledger.open(new MemoryStore(), { now: NOW, newDevice: () => 'c95d5f7510fab281', deviceName: 'iPhone "Safari"' });
  await ledger.edit(300260, { compDate: 20130901 }, NOW);
  await ledger.edit(300260, { memo: '伊勢鉄道\n2回目' }, NOW + 1000);
  await ledger.receive([fromWire({ kind: 'station_edit', device: '00000000000000aa', seq: 1, hlc: '1', station: 5, comp_date: 1 })], NOW);
  const hlc1 = (BigInt(NOW) << 16n) + 1n; // the name record took NOW itself
  assert.equal(deviceEventsJsonl(ledger),
    `{"device":"c95d5f7510fab281","device_name":"iPhone \\"Safari\\"","seq":1,"hlc":${hlc1},"time":"2013-09-01T03:04:05.123Z","station":300260,"comp_date":20130901,"origin":"user"}\n` +
    `{"device":"c95d5f7510fab281","device_name":"iPhone \\"Safari\\"","seq":2,"hlc":${BigInt(NOW + 1000) << 16n},"time":"2013-09-01T03:04:06.123Z","station":300260,"memo":"伊勢鉄道\\n2回目","origin":"user"}\n`);
  assert.equal(replayLine({ kind: 'station_edit', device: '0000000000000001', seq: 9n, hlc: 0n, station: 1, compDate: null, memo: '', origin: 'import' }, ''),
    '{"device":"0000000000000001","device_name":"","seq":9,"hlc":0,"time":"1970-01-01T00:00:00.000Z","station":1,"memo":"","origin":"import"}');
});

test('completions as oritsubushi-tsv, every station with events, in s_id order', async () => {
  const ledger = await Ledger.open(new MemoryStore(), { now: NOW, newDevice: () => 'c95d5f7510fab281', deviceName: 'phone' });
  await ledger.edit(300260, { compDate: 20130901 }, NOW);
  await ledger.edit(300260, { memo: 'a\\b\nc\td' }, NOW + 2000);
  await ledger.edit(120004, { memo: 'memo only' }, NOW + 3000);
  assert.equal(completionsTsv(ledger),
    `120004\t0\t${Math.floor((NOW + 3000) / 1000)}\tmemo only\n` +
    `300260\t20130901\t${Math.floor((NOW + 2000) / 1000)}\ta\\\\b\\nc\td\n`);
});
