// The app's words stand in one table, js/messages.json, [Japanese, English] under each key: every
// key has both languages, each a non-empty text with the same {0}, {1}… placeholders; loadMessages
// fetches it beside i18n.js, and `t` gives the text of the language chosen, its placeholders filled.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appMessages, appModule } from './support/paths.mjs';

const { t, isKey, setLanguage, chooseLanguage, loadMessages, useMessages, MESSAGES_URL } = await appModule('i18n.js');
const words = appMessages();

/** @param {string} text */
const placeholders = (text) => [...new Set(text.match(/\{\d\}/g) ?? [])].sort();

test('every key has a Japanese and an English text with the same placeholders', () => {
  const keys = Object.keys(words);
  assert.ok(keys.length > 300, `${keys.length} keys`);
  for (const key of keys) {
    const pair = words[key];
    assert.ok(Array.isArray(pair) && pair.length === 2, `${key} holds two languages`);
    const [ja, en] = pair;
    assert.ok(typeof ja === 'string' && ja.length > 0, `${key} has Japanese`);
    assert.ok(typeof en === 'string' && en.length > 0, `${key} has English`);
    assert.deepEqual(placeholders(en), placeholders(ja), `${key}: the same placeholders`);
  }
});

test('loadMessages fetches messages.json beside i18n.js and t reads it; a refused fetch loads nothing', async () => {
  try {
    assert.equal(MESSAGES_URL, 'js/messages.json');
    await loadMessages(async (url) => {
      assert.equal(url, MESSAGES_URL);
      return new Response(JSON.stringify({ 'sync.now': ['いま', 'now'] }));
    });
    assert.equal(t('sync.now'), 'いま');
    assert.equal(isKey('tab.map'), false);
    await assert.rejects(loadMessages(async () => new Response('gone', { status: 404 })), /HTTP 404/);
    assert.equal(t('sync.now'), 'いま');
  } finally {
    useMessages(words);
  }
  assert.equal(t('sync.now'), '今すぐ同期');
});

test('t gives the chosen language, placeholders filled, and the key for an unknown one', () => {
  try {
    setLanguage('ja');
    assert.equal(t('sync.now'), '今すぐ同期');
    assert.equal(t('search.count', 12), '12駅');
    setLanguage('en');
    assert.equal(t('sync.now'), 'Sync now');
    assert.equal(t('batch.done', 3, '2013-09-01'), 'Recorded 2013-09-01 for 3 stations.');
    assert.equal(t('server.busy', 30), 'Too many requests to the sync server; try again in 30 seconds.');
    assert.equal(t(/** @type {any} */ ('no.such.key')), 'no.such.key');
    assert.equal(isKey('no.such.key'), false);
  } finally {
    setLanguage('ja');
  }
});

test('the language is English only when English comes before Japanese', () => {
  assert.equal(chooseLanguage(['en-GB', 'ja']), 'en');
  assert.equal(chooseLanguage(['fr', 'ja-JP', 'en']), 'ja');
  assert.equal(chooseLanguage(['fr']), 'ja');
});
