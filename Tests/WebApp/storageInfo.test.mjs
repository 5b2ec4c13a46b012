import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { readStorage, describeStorage, formatBytes } = await appModule('storageInfo.js');

test('bytes are shown as phones show storage', () => {
  assert.equal(formatBytes(980), '980 B');
  assert.equal(formatBytes(12_345), '12.3 KB');
  assert.equal(formatBytes(4_500_000), '4.5 MB');
  assert.equal(formatBytes(2_000_000_000), '2.0 GB');
});

test('同期 says whether the records are protected, what they use, and what to do when they are not', async () => {
  const persistent = await readStorage({ persisted: async () => true, estimate: async () => ({ usage: 1_200_000, quota: 2_000_000_000 }) });
  assert.deepEqual(persistent, { persisted: true, usage: 1_200_000, quota: 2_000_000_000 });
  assert.equal(describeStorage(persistent), '保護されています（ブラウザが消すことはありません）。 使用 1.2 MB／上限 2.0 GB');
  const evictable = describeStorage({ persisted: false, usage: null, quota: null });
  assert.match(evictable, /保護されていません。ホーム画面に追加すると/);
  const none = await readStorage(undefined);
  assert.deepEqual(none, { persisted: null, usage: null, quota: null });
  assert.match(describeStorage(none), /知らせません/);
  const failing = await readStorage({ persisted: () => Promise.reject(new Error('no')), estimate: () => Promise.reject(new Error('no')) });
  assert.deepEqual(failing, { persisted: null, usage: null, quota: null });
});

test('同期 counts the edits the storage refused that wait in memory, with what to do', () => {
  const state = { persisted: true, usage: 1_200_000, quota: 2_000_000_000 };
  assert.equal(describeStorage(state, 0), '保護されています（ブラウザが消すことはありません）。 使用 1.2 MB／上限 2.0 GB');
  assert.equal(describeStorage(state, 2),
    '保護されています（ブラウザが消すことはありません）。 使用 1.2 MB／上限 2.0 GB まだ保存できていない編集が2件あります（アプリを開いたままにしてください）。');
});
