// The person's settings (settings.js: pin limit, language, 地図タイル, banners): kept in the
// replica's `settings` entry, committed strictly, read back after the app is opened again; a
// damaged or unknown value reads as the default (地図タイル on); a dismissed banner stays
// dismissed (per kind), a new failure of another kind shows.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { readSettings, loadSettings, saveSettings, isDismissed, withDismissed, PIN_LIMITS, DEFAULT_PIN_LIMIT } = await appModule('settings.js');
const { Ledger } = await appModule('ledger.js');
const { MemoryStore } = await appModule('store.js');

const open = (store) => Ledger.open(store, { now: Date.UTC(2024, 4, 3), newDevice: () => '0123456789abcdef', deviceName: 'test' });

test('defaults, and anything the app does not offer reads as the default', () => {
  assert.deepEqual(readSettings(undefined), { pinLimit: DEFAULT_PIN_LIMIT, language: null, tiles: true, dismissed: {} });
  assert.deepEqual(PIN_LIMITS, [50, 100, 150, 200, 300, 500, 0]);
  assert.equal(readSettings({ pinLimit: 0 }).pinLimit, 0, '無制限');
  assert.equal(readSettings({ pinLimit: 120 }).pinLimit, DEFAULT_PIN_LIMIT);
  assert.equal(readSettings({ pinLimit: '50' }).pinLimit, DEFAULT_PIN_LIMIT);
  assert.equal(readSettings({ language: 'fr' }).language, null);
  assert.equal(readSettings({ tiles: false }).tiles, false, '地図タイル off');
  assert.equal(readSettings({ tiles: 'no' }).tiles, true, 'on unless turned off');
  assert.deepEqual(readSettings({ dismissed: { persist: 'persist', bad: 3 } }).dismissed, { persist: 'persist' });
  assert.deepEqual(readSettings('garbage'), readSettings(undefined));
});

test('saved strictly with the replica and read back when the app opens again', async () => {
  const store = new MemoryStore();
  const ledger = await open(store);
  store.durabilities.length = 0;
  const saved = await saveSettings(ledger, { pinLimit: 300 });
  assert.equal(saved.pinLimit, 300);
  await saveSettings(ledger, { language: 'en' });
  await saveSettings(ledger, { tiles: false });
  assert.deepEqual(store.durabilities, ['strict', 'strict', 'strict']);
  assert.deepEqual(loadSettings(ledger), { pinLimit: 300, language: 'en', tiles: false, dismissed: {} }, 'one change keeps the others');
  const reopened = await open(store);
  assert.deepEqual(loadSettings(reopened), { pinLimit: 300, language: 'en', tiles: false, dismissed: {} });
});

test('a dismissed banner stays dismissed: standing advice by kind, a failure by its sentence', async () => {
  const store = new MemoryStore();
  const ledger = await open(store);
  let settings = loadSettings(ledger);
  assert.equal(isDismissed(settings, 'persist', 'このブラウザは…'), false);
  settings = await saveSettings(ledger, { dismissed: withDismissed(settings, 'persist', 'このブラウザは…') });
  settings = await saveSettings(ledger, { dismissed: withDismissed(settings, 'storage', 'いっぱい') });
  const reopened = loadSettings(await open(store));
  assert.equal(isDismissed(reopened, 'persist', 'このブラウザは…'), true);
  assert.equal(isDismissed(reopened, 'persist', 'This browser may…'), true, 'the same advice in another language');
  assert.equal(isDismissed(reopened, 'storage', 'いっぱい'), true);
  assert.equal(isDismissed(reopened, 'storage', '読めません'), false, 'another failure shows');
  assert.equal(isDismissed(reopened, 'signed-out', 'いっぱい'), false, 'another kind shows');
});
