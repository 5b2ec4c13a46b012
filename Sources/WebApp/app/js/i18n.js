// The app's words in Japanese (the default) and English (when the browser prefers English).
// Station, operator and line names, and statistics labels, stay as the catalogue and the Swift
// code write them.

/** @typedef {'ja' | 'en'} Lang */

const ja = {
  // Why a sync stopped (SyncFailure.kind); {0} is the detailed sentence in English.
  'failure.offline': '同期サーバーに接続できません。記録はこの端末に保存されており、次の同期で送信します。',
  'failure.signed-out': 'この端末はサインアウトされました（トークンが無効になりました）。もう一度ペアリングしてください。未送信の記録は残っています。',
  'failure.clock': 'この端末の時計が進んでいるため、同期サーバーが記録を受け付けませんでした。時計を正しく合わせてください。記録は残っています。',
  'failure.damaged': 'サーバーに保存されたこのアカウントのデータが損傷しています。しばらくしてから同期してください（管理者が修復します）。記録はこの端末に残っています。',
  'failure.refused': '同期サーバーが受け付けませんでした: {0}',
  'failure.server': '同期できませんでした。しばらくしてからやり直してください。記録はこの端末に残っています（{0}）。',
  'failure.malformed': '同期サーバーの応答が正しくないため、何も保存しませんでした（{0}）。',
  'failure.fork': 'この端末の記録が別の端末のコピーと食い違っています: {0}',
  'failure.storage': 'この端末に保存できませんでした: {0}',
  'tab.map': '地図', 'tab.nearby': '現在地', 'tab.search': '検索', 'tab.station': '駅', 'tab.stats': '統計', 'tab.sync': '同期',
  'today': '今日、乗下車しました！',
  'unknown': '不明',
  'notCompleted': '未乗下車',
  'show.all': '全駅', 'show.completed': '済', 'show.incomplete': '未',
  'noCatalog': '駅データがまだありません。「同期」でこの端末をペアリングすると取得します。',
  'nearby.locate': '現在地を取得',
  'nearby.locating': '現在地を取得しています…',
  'nearby.unavailable': 'この端末では現在地を取得できません。',
  'nearby.denied': '位置情報の利用が許可されていません。ブラウザの設定で許可してください。',
  'nearby.failed': '現在地を取得できませんでした（{0}）。',
  'nearby.at': '現在地から近い順（精度 約{0} m）',
  'nearby.nearestIncomplete': '最寄りの未乗下車駅: {0}（{1}）',
  'nearby.allDone': '近くの駅はすべて乗下車済みです。',
  'nearby.choose': '駅を選んでください。',
  'open': '開く',
  'search.placeholder': '駅名・読み（例: 津、つ、コマガネ）',
  'search.allPrefs': '全都道府県', 'search.date': '日付（2013、2013-09、unknown）',
  'search.any': '済・未', 'search.completed': '乗下車済', 'search.incomplete': '未乗下車',
  'search.count': '{0}駅', 'search.more': 'ほか{0}駅（条件を絞ってください）', 'search.badDate': '日付は 2013、2013-09、2013-09-01、unknown、2013-unknown のように入力してください。',
  'station.none': '地図・現在地・検索から駅を選んでください。',
  'station.completion': '乗下車', 'station.memo': 'メモ', 'station.save': '保存', 'station.uncomplete': '未乗下車に戻す',
  'station.lastDate': '前回の日付: {0}', 'station.wiki': 'この駅をウィキペディアで見る', 'station.onMap': 'この駅を地図の中心に表示',
  'station.history': '履歴', 'station.noHistory': 'まだ記録がありません。', 'station.year': '年', 'station.month': '月', 'station.day': '日',
  'station.disabled': '（廃止・無効）', 'station.updated': '最終更新日時 {0}',
  'saved': '保存しました。', 'unchanged': '変更はありません（記録しませんでした）。',
  'edit.stale': 'この駅の記録は表示中に別の端末で変わったため、保存しませんでした。新しい内容を確認して、もう一度保存してください。',
  'station.changedElsewhere': '別の端末での変更を同期したので、新しい内容を表示しています。',
  'station.changedWhileEditing': '入力中に別の端末でこの駅の記録が変わりました。保存する前に新しい内容を確認してください。',
  'nearby.tooFar': '最寄りの駅（{0}）まで{1}あり、現在地で記録できる駅はありません。',
  'nearby.outOfReach': '{0}は現在地から{1}離れているため、ここでは今日の乗下車を記録できません。',
  'history.date': '日付 {0}', 'history.memo': 'メモ「{0}」', 'history.memoCleared': 'メモを消去',
  'stats.operators': '全事業者', 'stats.prefectures': '全都道府県', 'stats.yomi': '読み', 'stats.dates': '乗下車日', 'stats.back': '戻る',
  'sync.now': '今すぐ同期', 'sync.local': 'この端末に保存', 'sync.server': 'サーバーに保存', 'sync.pending': '未送信',
  'sync.last': '前回の同期', 'sync.never': 'なし', 'sync.events': '{0}件', 'sync.storage': '保存領域',
  'storage.persistent': '保護されています（ブラウザが消すことはありません）。',
  'storage.evictable': '保護されていません。ホーム画面に追加すると、ブラウザが記録を消さなくなります。',
  'storage.unknown': 'このブラウザは保存領域の状態を知らせません。', 'storage.usage': '使用 {0}／上限 {1}',
  'sync.exportJsonl': 'この端末の記録を書き出す（JSONL）', 'sync.exportTsv': '乗下車記録を書き出す（TSV）',
  'sync.pairTitle': 'ペアリング', 'sync.pairCode': 'ペアリングコード', 'sync.pair': 'ペアリング',
  'sync.device': 'この端末: {0}（{1}）', 'sync.user': 'ユーザー: {0}',
  'status.unpaired': 'この端末は同期サーバーとペアリングされていません。ペアリングコードを入力してください。',
  'status.syncing': '同期しています…', 'status.ok': '同期しました。', 'status.idle': '同期の準備ができています。',
  'status.offline': 'オフラインです。記録はこの端末に保存され、次の同期で送信されます。',
  'status.failed': '同期できませんでした。理由は下のとおりです。',
  'status.unreachable': 'サーバーに接続できません。しばらくしてから自動で再試行します。',
  'failure.unreachable': 'サーバーに接続できません。しばらくしてから自動で再試行します。',
  'sync.receiving': '受信中… {0}件',
  'pair.ok': 'ペアリングしました（{0}）。', 'pair.unknown': 'このペアリングコードは登録されていません。',
  'pair.used': 'このペアリングコードは使用済みか期限切れです。新しいコードを発行してください。',
  'pair.rate': '試行回数が多すぎます。{0}秒後にもう一度試してください。',
  'pair.offline': '同期サーバーに接続できません。ネットワークを確認してください。',
  'banner.persist': 'このブラウザは空き容量が少なくなると保存した記録を消すことがあります。ホーム画面に追加すると保存が保護されます。',
  'banner.close': '閉じる',
  'catalog.failed': '駅データを取得できませんでした: {0}',
  'failure.revoked': 'この端末はサインアウトされています（別の端末またはサーバー管理者が取り消しました）。もう一度ペアリングしてください。',
  'sync.pairName': 'この端末の名前', 'pair.okNamed': 'ペアリングしました（{0}）。この端末の名前は「{1}」です。',
  'history.onDevice': 'この端末に保存済み', 'history.onServer': 'サーバーに保存済み',
  'history.lost': '競合で負けた編集', 'history.lostField.date': '日付', 'history.lostField.memo': 'メモ',
  'conflict.resolve': '競合を解決（現在の値を残す）',
  'conflict.note': '別の端末と同時に編集された記録があります。現在の値（履歴で負けていない編集の値）を残すと、競合は解決します。',
  'conflict.resolved': '競合を解決しました。現在の値を残しました。',
  'conflict.none': 'この駅には解決する競合がありません。',
  'devices.title': '端末', 'devices.thisDevice': 'この端末', 'devices.unnamed': '名前のない端末',
  'devices.lastSync': '前回の同期 {0}', 'devices.neverSynced': '未同期', 'devices.loading': '端末の一覧を読み込んでいます…',
  'devices.revoke': 'サインアウトさせる', 'devices.revokeQuestion': '「{0}」をサインアウトさせますか？その端末はもう同期できなくなります（記録はその端末に残ります）。',
  'devices.revokeConfirm': 'はい、サインアウトさせる', 'devices.cancel': 'やめる',
  'devices.revoked': '「{0}」をサインアウトさせました。', 'devices.revokeGone': 'その端末はすでにサインアウトしています。一覧を読み込み直しました。',
  'devices.nameLabel': 'この端末の名前', 'devices.rename': '名前を変更', 'devices.renamed': 'この端末の名前を「{0}」に変更しました。',
  'devices.nameEmpty': '名前を入力してください。', 'devices.nameTooLong': '名前が長すぎます（UTF-8で{0}バイトまで）。',
  'devices.nameTaken': 'ほかの端末がすでにこの名前を使っています。別の名前にしてください。',
  'devices.nameRefused': '同期サーバーがこの名前を受け付けませんでした。空白だけでない、UTF-8で{0}バイトまでの名前にしてください。',
  'devices.link': '別の端末を追加', 'devices.linkHelp': '追加する端末でこのQRコードを読み取るか、リンクを開くか、「同期」でコードを入力してください。',
  'devices.linkExpires': '{0}まで有効（1回だけ使えます）', 'devices.linkQr': 'ペアリング用のQRコード',
  'devices.linkRefused': '同期サーバーがペアリングコードを発行しませんでした。',
  'devices.offline': '同期サーバーに接続できないため、端末の一覧を表示・変更できません。',
  'devices.malformed': '同期サーバーの応答が正しくないため、何も変更しませんでした。',
  'devices.busy': '要求が多すぎます。{0}秒後にもう一度試してください。',
  'devices.failed': '同期サーバーが処理できませんでした（HTTP {0}）。しばらくしてからやり直してください。',
  'devices.error': '処理できませんでした（{0}）。',
  'signOut.button': 'ログアウト', 'signOut.question': 'この端末を同期サーバーからログアウトしますか？',
  'signOut.unsent': '未送信の記録が{0}件あります。ログアウトすると、この端末にしかない記録はサーバーに送られません。',
  'signOut.erase': 'この端末の記録も消去する', 'signOut.confirm': 'ログアウトする', 'signOut.cancel': 'やめる',
  'signOut.done': 'ログアウトしました。記録はこの端末に残っています。', 'signOut.erased': 'ログアウトし、この端末の記録を消去しました。',
  'signOut.offline': '同期サーバーに接続できないため、ログアウトしませんでした。ネットワークを確認してやり直すか、この端末だけでログアウトしてください（サーバーではこの端末が有効なまま残るので、別の端末の「サインアウトさせる」で取り消せます）。',
  'signOut.local': 'この端末だけでログアウト',
};

/** @type {Record<keyof typeof ja, string>} */
const en = {
  'failure.offline': '{0}', 'failure.signed-out': '{0}', 'failure.clock': '{0}', 'failure.damaged': '{0}',
  'failure.refused': '{0}', 'failure.server': '{0}', 'failure.malformed': '{0}', 'failure.fork': '{0}', 'failure.storage': '{0}',
  'tab.map': 'Map', 'tab.nearby': 'Nearby', 'tab.search': 'Search', 'tab.station': 'Station', 'tab.stats': 'Stats', 'tab.sync': 'Sync',
  'today': 'I got on or off here today!',
  'unknown': 'unknown',
  'notCompleted': 'not completed',
  'show.all': 'All', 'show.completed': 'Done', 'show.incomplete': 'To do',
  'noCatalog': 'No station data yet: pair this device under Sync to download it.',
  'nearby.locate': 'Find my location',
  'nearby.locating': 'Finding your location…',
  'nearby.unavailable': 'This device cannot tell its location.',
  'nearby.denied': 'Location access is not allowed; allow it in the browser settings.',
  'nearby.failed': 'The location could not be found ({0}).',
  'nearby.at': 'Nearest first (accuracy about {0} m)',
  'nearby.nearestIncomplete': 'Nearest station not yet done: {0} ({1})',
  'nearby.allDone': 'Every station nearby is done.',
  'nearby.choose': 'Choose a station.',
  'open': 'Open',
  'search.placeholder': 'Name or reading (津, つ, コマガネ)',
  'search.allPrefs': 'All prefectures', 'search.date': 'Date (2013, 2013-09, unknown)',
  'search.any': 'Done or not', 'search.completed': 'Done', 'search.incomplete': 'Not done',
  'search.count': '{0} stations', 'search.more': '{0} more (narrow the search)', 'search.badDate': 'Write the date as 2013, 2013-09, 2013-09-01, unknown or 2013-unknown.',
  'station.none': 'Choose a station on the map, under Nearby or in Search.',
  'station.completion': 'Got on or off', 'station.memo': 'Memo', 'station.save': 'Save', 'station.uncomplete': 'Mark as not completed',
  'station.lastDate': 'Last date: {0}', 'station.wiki': 'Wikipedia article', 'station.onMap': 'Show on the map',
  'station.history': 'History', 'station.noHistory': 'Nothing recorded yet.', 'station.year': 'Year', 'station.month': 'Month', 'station.day': 'Day',
  'station.disabled': '(closed)', 'station.updated': 'Last updated {0}',
  'saved': 'Saved.', 'unchanged': 'Nothing changed, so nothing was recorded.',
  'edit.stale': 'This station changed on another device while it was shown, so nothing was saved; check the new values and save again.',
  'station.changedElsewhere': 'An edit from another device arrived by sync and is shown now.',
  'station.changedWhileEditing': 'This station changed on another device while you were editing; check the new values before saving.',
  'nearby.tooFar': 'The nearest station ({0}) is {1} away, so there is no station to record here.',
  'nearby.outOfReach': '{0} is {1} from your position, so today cannot be recorded for it here.',
  'history.date': 'date {0}', 'history.memo': 'memo “{0}”', 'history.memoCleared': 'memo cleared',
  'stats.operators': 'Operators', 'stats.prefectures': 'Prefectures', 'stats.yomi': 'Readings', 'stats.dates': 'Dates', 'stats.back': 'Back',
  'sync.now': 'Sync now', 'sync.local': 'On this device', 'sync.server': 'On the server', 'sync.pending': 'Not yet sent',
  'sync.last': 'Last sync', 'sync.never': 'never', 'sync.events': '{0} events', 'sync.storage': 'Storage',
  'storage.persistent': 'Protected (the browser will not delete it).',
  'storage.evictable': 'Not protected: add the app to the home screen so that the browser keeps the records.',
  'storage.unknown': 'This browser does not tell how it keeps the storage.', 'storage.usage': 'Using {0} of {1}',
  'sync.exportJsonl': "Export this device's events (JSONL)", 'sync.exportTsv': 'Export completions (TSV)',
  'sync.pairTitle': 'Pairing', 'sync.pairCode': 'Pairing code', 'sync.pair': 'Pair',
  'sync.device': 'This device: {0} ({1})', 'sync.user': 'User: {0}',
  'status.unpaired': 'This device is not paired with a sync server: enter a pairing code.',
  'status.syncing': 'Syncing…', 'status.ok': 'Synced.', 'status.idle': 'Ready to sync.',
  'status.offline': 'Offline: edits are saved on this device and sent at the next sync.',
  'status.failed': 'The sync did not finish; the reason is below.',
  'status.unreachable': 'Cannot reach the server; retrying automatically.',
  'failure.unreachable': '{0}',
  'sync.receiving': 'Receiving… {0} events',
  'pair.ok': 'Paired ({0}).', 'pair.unknown': 'This pairing code is not known.',
  'pair.used': 'This pairing code was used already or has expired; make a new one.',
  'pair.rate': 'Too many attempts; try again in {0} seconds.',
  'pair.offline': 'The sync server cannot be reached; check the network.',
  'banner.persist': 'This browser may delete the saved edits when storage runs low; add the app to the home screen to protect them.',
  'banner.close': 'Close',
  'catalog.failed': 'The station data could not be downloaded: {0}',
  'failure.revoked': '{0}',
  'sync.pairName': "This device's name", 'pair.okNamed': 'Paired ({0}); this device is named “{1}”.',
  'history.onDevice': 'Saved on this device', 'history.onServer': 'Saved on the server',
  'history.lost': 'Edit that lost a conflict', 'history.lostField.date': 'date', 'history.lostField.memo': 'memo',
  'conflict.resolve': 'Resolve the conflict (keep the current values)',
  'conflict.note': 'This station was edited on another device at the same time. Keeping the current values (those of the edits that did not lose) resolves the conflict.',
  'conflict.resolved': 'The conflict is resolved; the current values are kept.',
  'conflict.none': 'This station has no conflict to resolve.',
  'devices.title': 'Devices', 'devices.thisDevice': 'This device', 'devices.unnamed': 'Unnamed device',
  'devices.lastSync': 'Last sync {0}', 'devices.neverSynced': 'Not synced yet', 'devices.loading': 'Loading the devices…',
  'devices.revoke': 'Sign out', 'devices.revokeQuestion': 'Sign “{0}” out? It can no longer sync (its records stay on it).',
  'devices.revokeConfirm': 'Yes, sign it out', 'devices.cancel': 'Cancel',
  'devices.revoked': '“{0}” is signed out.', 'devices.revokeGone': 'That device was signed out already; the list is reloaded.',
  'devices.nameLabel': "This device's name", 'devices.rename': 'Rename', 'devices.renamed': 'This device is now named “{0}”.',
  'devices.nameEmpty': 'Enter a name.', 'devices.nameTooLong': 'The name is too long ({0} bytes of UTF-8 at most).',
  'devices.nameTaken': 'Another of your devices has this name already; choose another.',
  'devices.nameRefused': 'The sync server refused this name: give one that is not only spaces, of {0} bytes of UTF-8 at most.',
  'devices.link': 'Add another device', 'devices.linkHelp': 'On the new device, scan this QR code, open the link, or enter the code under Sync.',
  'devices.linkExpires': 'Valid once, until {0}', 'devices.linkQr': 'QR code for pairing',
  'devices.linkRefused': 'The sync server did not make a pairing code.',
  'devices.offline': 'The sync server cannot be reached, so the devices cannot be shown or changed.',
  'devices.malformed': 'The sync server sent an answer that is not right, so nothing was changed.',
  'devices.busy': 'Too many requests; try again in {0} seconds.',
  'devices.failed': 'The sync server could not do it (HTTP {0}); try again later.',
  'devices.error': 'It could not be done ({0}).',
  'signOut.button': 'Sign out', 'signOut.question': 'Sign this device out of the sync server?',
  'signOut.unsent': 'Records not yet sent: {0}. If you sign out, the records that exist only on this device are not sent to the server.',
  'signOut.erase': "Also erase this device's records", 'signOut.confirm': 'Sign out', 'signOut.cancel': 'Cancel',
  'signOut.done': 'Signed out; the records stay on this device.', 'signOut.erased': "Signed out, and this device's records are erased.",
  'signOut.offline': 'The sync server cannot be reached, so this device is not signed out. Check the network and try again, or sign out on this device only (the server keeps this device active; another device can sign it out with “Sign out”).',
  'signOut.local': 'Sign out on this device only',
};

/** @typedef {keyof typeof ja} Key */

/**
 * English when the browser's first Japanese-or-English preference is English, else Japanese.
 * @param {readonly string[]} languages navigator.languages
 * @returns {Lang}
 */
export function chooseLanguage(languages) {
  for (const l of languages) {
    const tag = l.toLowerCase();
    if (tag.startsWith('ja')) return 'ja';
    if (tag.startsWith('en')) return 'en';
  }
  return 'ja';
}

/** @type {Lang} */
let current = 'ja';

/** @param {Lang} lang */
export function setLanguage(lang) {
  current = lang;
}

export function language() {
  return current;
}

/**
 * The text of `key` in the current language, with {0}, {1}… replaced.
 * @param {Key} key
 * @param {...(string | number)} args
 */
export function t(key, ...args) {
  const text = (current === 'en' ? en : ja)[key] ?? key;
  return text.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ''));
}

/**
 * Whether a string is a known key.
 * @param {string} key @returns {key is Key}
 */
export function isKey(key) {
  return key in ja;
}
