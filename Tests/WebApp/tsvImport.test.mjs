// Importing an oritsubushi-tsv file on 同期: the reader and the plan on the Swift tests' sample
// files, the import recorded as this device's events in one strict commit (and nothing the second
// time), what the dry run and the result say in Japanese, and the times the sync server would
// refuse. The rules the CLI shares are checked case by case in conformance.test.mjs
// (Conformance/tsv-import.jsonl).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appModule, repo } from './support/paths.mjs';
import { FakeServer } from './support/fakeServer.mjs';
import { smallCatalogDoc } from './support/smallCatalog.mjs';

const { App } = await appModule('app.js');
const { Catalog } = await appModule('catalog.js');
const { MemoryStore } = await appModule('store.js');
const { setLanguage, t } = await appModule('i18n.js');
const { parseTsv } = await appModule('tsvImport.js');
const { EARLIEST_EVENT_MS } = await appModule('importPlan.js');
const { importOptions, previewImport } = await appModule('ledgerImport.js');
const { draftText, noteTexts, refusedLineText, summaryText } = await appModule('importReport.js');
const { completionsTsv } = await appModule('exporters.js');

setLanguage('ja');
const NOW = Date.UTC(2024, 4, 3, 3, 0, 0);
const encode = (text) => new TextEncoder().encode(text);
const fuzzFile = (name) => new Uint8Array(readFileSync(path.join(repo, 'Tests/Fuzz', name)));

async function pairedApp(store = new MemoryStore()) {
  const server = new FakeServer({ now: () => NOW });
  const app = new App({ store, fetch: server.fetch, now: () => NOW, newDevice: () => '0123456789abcdef', deviceName: 'iPhone Safari' });
  await app.start();
  app.catalog = new Catalog(smallCatalogDoc());
  return { app, server, store };
}

test('the Swift tests\' sample files read as the CLI reads them', () => {
  const rows = parseTsv(fuzzFile('corpus/tsv/rows.tsv'));
  assert.deepEqual(rows.refused, []);
  assert.deepEqual(rows.rows.map((r) => [r.line, r.station, r.compDate, r.updateDate, r.memo]), [
    [1, 1130101, 20130901, 1378000000, 'first visit'],
    [2, 1130102, 1, 1378000001, ''],
    [3, 1130103, 20130000, 1378000002, 'line\nbreak and \\ backslash\tand a tab'],
    [4, 2, 0, 0, '🚉'],
  ]);
  assert.deepEqual(parseTsv(fuzzFile('corpus/tsv/one.tsv')).rows.map((r) => r.compDate), [20000229]);
  assert.deepEqual(parseTsv(fuzzFile('corpus/tsv/bad-date.tsv')).rows.map((r) => r.compDate), [19000229], 'the plan refuses it, not the reader');
  const crs = parseTsv(fuzzFile('regressions/tsv/memo-of-trailing-crs.tsv'));
  assert.deepEqual(crs.rows.map((r) => [r.station, r.compDate, r.updateDate, r.memo]), [[5, 3, 0, '']], 'the CRs before the end belong to it');
});

test('the original apps\' upload line (domain.md §6) and this app\'s own export read back', async () => {
  const { app } = await pairedApp();
  const parsed = parseTsv(encode('202945\t20130901\t1378040000\t新幹線ホーム\\n8番線\n'));
  assert.deepEqual(parsed.rows, [{ line: 1, station: 202945, compDate: 20130901, updateDate: 1378040000, memo: '新幹線ホーム\n8番線' }]);
  const answer = await app.importRows(parsed.rows, 0);
  assert.equal(answer.message, '1駅の記録を取り込みました（記録 1件、飛ばした行 0）。');
  await app.edit(201111, { compDate: 20240503, memo: '津\\駅' });
  const exported = completionsTsv(app.replica);
  assert.equal((await app.importRows(parseTsv(encode(exported)).rows, 0)).message, t('import.noneRecorded'), 'an export imported back records nothing');
});

test('取り込む records the rows as this device\'s import events in one strict commit, and nothing the second time', async () => {
  const { app, server, store } = await pairedApp();
  const file = encode('201111\t20130901\t1378040000\t北口\n300260\t15\t1378040001\t\n999999\t1\t5\t\nnot a row\n202945\t0\t0\t\n');
  const parsed = parseTsv(file);
  const before = store.durabilities.length;
  const seq = app.replica.identity.nextSeq;
  const answer = await app.importRows(parsed.rows, parsed.refused.length);
  assert.deepEqual(answer, { ok: true, recorded: 2, message: '2駅の記録を取り込みました（記録 2件、飛ばした行 2）。' });
  assert.deepEqual(store.durabilities.slice(before), ['strict'], 'one commit, strict');
  const own = app.replica.byDevice.get(app.replica.device).slice(Number(seq) - 1);
  assert.deepEqual(own.map((e) => [e.seq, e.station, e.compDate, e.memo, e.origin, Number(e.hlc >> 16n)]), [
    [seq, 201111, 20130901, '北口', 'import', 1378040000000],
    [seq + 1n, 300260, 1, null, 'import', 1378040001000],
  ]);
  assert.equal(app.compDate(201111), 20130901);
  assert.equal(app.replica.fold.updateSeconds(201111), 1378040000, 'update_date is the row\'s');
  const again = await app.importRows(parsed.rows, parsed.refused.length);
  assert.deepEqual(again, { ok: true, recorded: 0, message: '取り込む記録はありませんでした。何も記録していません。' });
  assert.deepEqual(store.durabilities.slice(before), ['strict'], 'nothing written the second time');
  // The sync sends them as any edit (scheduled after the import).
  clearTimeout(app.timer);
  await app.replica.setMeta({ token: 'secret' });
  await app.syncNow();
  assert.equal(app.state, 'ok');
  assert.ok(server.byDevice.get(app.replica.device).some((e) => e.origin === 'import' && e.station === 300260));
});

test('the dry run lists what would be recorded and each refused line in Japanese', async () => {
  const { app } = await pairedApp();
  await app.edit(300261, { compDate: 20200101 });
  const file = encode([
    '201111\t20130901\t1378040000\t北口', '300260\t15\t1378040001\t', '999999\t1\t5\t', 'not a row', '202945\t0\t0\t',
    '301230\t20130230\t5\t', '301231\t20990101\t5\t', `306100\t1\t5\t${'あ'.repeat(1366)}`, 'x\t1\t5\t', '300261\t20200101\t5\t',
    '201112\t1\t0\tmemo', '202945\t20240101\t1900000000\t',
  ].join('\n') + '\n');
  const parsed = parseTsv(file);
  const plan = previewImport(app.replica, parsed.rows, importOptions(app.catalog, NOW));
  const refused = [...parsed.refused, ...plan.refused].sort((a, b) => a.line - b.line);
  assert.equal(summaryText(plan, refused), '12行を読みました。4駅の記録を取り込みます（記録済みと同じ行 2、取り込めない行 6）。');
  assert.deepEqual(refused.map(refusedLineText), [
    '3行目: 駅ID 999999 は駅データにありません',
    '4行目: タブで区切られた4つの項目（駅ID・乗下車日・更新日時・メモ）がありません',
    '6行目: 乗下車日 20130230 は正しい日付ではありません',
    '7行目: 乗下車日 20990101（2099年1月1日）は未来の日付です',
    '8行目: メモが長すぎます（日本語で1,365文字まで、英数字なら4,096文字まで）',
    '9行目: 駅ID「x」が0以上の整数ではありません',
  ]);
  assert.deepEqual(noteTexts(plan), [
    '乗下車日が 2〜18999999 の1行は「日付不明」として取り込みます（元のアプリの表示と同じです）。',
    '更新日時が今より後の1行は、今の時刻の記録として取り込みます。',
    '更新日時が2000年より前の1行は、2000年1月1日の記録として取り込みます（同期サーバーはそれより前の記録を受け付けません）。',
  ]);
  assert.deepEqual(plan.drafts.map((d) => draftText(d, app.catalog)), [
    '津駅（東海旅客鉄道）: 日付 2013年9月1日 · メモ「北口」',
    '津駅（伊勢鉄道）: 日付 乗下車済 (日付不明)',
    '一身田駅（東海旅客鉄道）: 日付 乗下車済 (日付不明) · メモ「memo」',
    '小田原駅（東海旅客鉄道）: 日付 2024年1月1日',
  ]);
  assert.equal(plan.drafts[2].ms, EARLIEST_EVENT_MS, 'a time before 2000 is raised to the server\'s bound');
  assert.equal(plan.drafts[3].ms, NOW, 'a time after now is clamped to now');
  for (const text of [...refused.map(refusedLineText), ...noteTexts(plan)]) assert.doesNotMatch(text, /バイト|byte/);
});

test('without the station data nothing is imported; a failed commit records nothing and says why', async () => {
  const { app, store } = await pairedApp();
  const rows = parseTsv(encode('201111\t1\t5\t\n')).rows;
  app.catalog = null;
  assert.deepEqual(await app.importRows(rows, 0), { ok: false, recorded: 0, message: t('import.noCatalog') });
  app.catalog = new Catalog(smallCatalogDoc());
  const banners = [];
  app.on('storage', (m) => banners.push(m));
  store.failWith = Object.assign(new Error('quota'), { name: 'QuotaExceededError' });
  const failed = await app.importRows(rows, 0);
  assert.deepEqual(failed, { ok: false, recorded: 0, message: t('storage.full') });
  assert.deepEqual(banners, [t('storage.full')]);
  assert.equal(app.compDate(201111), 0);
  store.failWith = null;
  assert.equal((await app.importRows(rows, 0)).recorded, 1, 'the same rows once the storage has room');
});

test('in English the dry run speaks English', async () => {
  setLanguage('en');
  try {
    const { app } = await pairedApp();
    const parsed = parseTsv(encode('201111\t1\t5\t\n1\t1\t5\t\\x\n'));
    const plan = previewImport(app.replica, parsed.rows, importOptions(app.catalog, NOW));
    assert.equal(summaryText(plan, parsed.refused), 'Lines read: 2. Stations to record: 1 (lines already recorded: 0; lines that cannot be imported: 1).');
    assert.equal(refusedLineText(parsed.refused[0]), 'line 2: the memo has an escape other than \\\\ and \\n');
  } finally {
    setLanguage('ja');
  }
});
