// The app's words in Japanese (the default) and English (when the browser prefers English), side by
// side under one key: every text a screen shows, refusals included (refusals.js picks them by cause,
// never by a message's text). Station, operator and line names, and statistics labels, stay as the
// catalogue and the Swift code write them.

import { refusals } from './i18nRefusals.js';

/** @typedef {'ja' | 'en'} Lang */

/** Each key's text as [Japanese, English]. */
export const words = /** @type {const} */ ({
  // Why a sync stopped, the server's refusals, the browser's storage (i18nRefusals.js).
  ...refusals,
  // Edits: the ledger's refusals (EditError.reason) and the memo's limit, counted in characters.
  'edit.badStation': ['この駅には記録できません。何も保存しませんでした。', 'Nothing can be recorded for this station; nothing was saved.'],
  'edit.badDate': ['乗下車日が正しくないため、保存しませんでした。', 'That is not a valid date, so nothing was saved.'],
  'edit.future': ['{0}は未来の日付なので記録できません（日本の今日は{1}です）。', '{0} is in the future (today is {1} in Japan), so it cannot be recorded.'],
  'memo.left': ['残り {0} 文字', '{0} characters left'], 'memo.over': ['上限（日本語で{0}文字）を超えています', 'Over the limit of {0} Japanese characters'],
  'memo.tooLong': ['メモが長すぎます（日本語で{0}文字まで、英数字なら{1}文字まで）。保存しませんでした。', 'The memo is too long: at most {0} Japanese characters, or {1} letters and digits; nothing was saved.'],
  'error.unexpected': ['処理できませんでした。ページを読み込み直してからやり直してください。', 'It could not be done; reload the page and try again.'],
  'app.failed': ['アプリを起動できませんでした。ページを読み込み直してください。', 'The app could not start; reload the page.'],
  'tab.map': ['地図', 'Map'], 'tab.nearby': ['現在地', 'Nearby'], 'tab.search': ['検索', 'Search'], 'tab.station': ['駅', 'Station'],
  'tab.stats': ['統計', 'Stats'], 'tab.sync': ['同期', 'Sync'],
  'today': ['今日、乗下車しました！', 'I got on or off here today!'],
  'unknown': ['不明', 'unknown'],
  'notCompleted': ['未乗下車', 'not completed'],
  'show.all': ['全駅', 'All'], 'show.completed': ['済', 'Done'], 'show.incomplete': ['未', 'To do'],
  'noCatalog': ['駅データがまだありません。「同期」でこの端末をペアリングすると取得します。', 'No station data yet: pair this device under Sync to download it.'],
  'map.position': ['現在位置', 'Your position'], 'map.locate': ['現在位置に移動', 'Go to your position'],
  'map.labels': ['地図に名前が書かれている駅', 'Stations named on the map'],
  'map.attribution': ['地図データ: GSHHG（LGPL-3.0）、japanmap（Apache-2.0）', 'Map data: GSHHG (LGPL-3.0), japanmap (Apache-2.0)'],
  'map.locating': ['現在位置を取得しています…', 'Finding your position…'],
  'map.locateDenied': ['位置情報の利用が許可されていないため、現在位置を表示できません（ブラウザの設定で許可できます）。', 'Location access is not allowed, so your position cannot be shown (the browser settings can allow it).'],
  'map.locateUnsupported': ['この端末では現在位置を取得できないため、現在位置を表示できません。', 'This device cannot tell its location, so your position cannot be shown.'],
  'map.locateUnavailable': ['現在位置を特定できませんでした。空の見える場所でもう一度試してください。', 'Your position could not be found; try again where the sky is visible.'],
  'map.locateTimeout': ['現在位置の取得に時間がかかりすぎました。もう一度試してください。', 'Finding your position took too long; try again.'],
  'map.labelState': ['{0}（{1}）', '{0} ({1})'], 'map.stateAll': ['乗下車済', 'done'], 'map.stateSome': ['一部乗下車済', 'partly done'],
  'map.stateNone': ['未乗下車', 'not done'],
  'nearby.locate': ['現在地を取得', 'Find my location'],
  'nearby.locating': ['現在地を取得しています…', 'Finding your location…'],
  'nearby.unavailable': ['この端末では現在地を取得できません。', 'This device cannot tell its location.'],
  'nearby.denied': ['位置情報の利用が許可されていません。ブラウザの設定で許可してください。', 'Location access is not allowed; allow it in the browser settings.'],
  'nearby.noFix': ['現在地を特定できませんでした。空の見える場所でもう一度試してください。', 'The location could not be found; try again where the sky is visible.'],
  'nearby.timeout': ['現在地の取得に時間がかかりすぎました。もう一度試してください。', 'Finding the location took too long; try again.'],
  'nearby.at': ['現在地から近い順（精度 約{0} m）', 'Nearest first (accuracy about {0} m)'],
  'nearby.nearestIncomplete': ['最寄りの未乗下車駅: {0}（{1}）', 'Nearest station not yet done: {0} ({1})'],
  'nearby.allDone': ['近くの駅はすべて乗下車済みです。', 'Every station nearby is done.'],
  'nearby.choose': ['駅を選んでください。', 'Choose a station.'],
  'open': ['開く', 'Open'],
  'search.placeholder': ['駅名・読み（例: 津、つ、コマガネ）', 'Name or reading (津, つ, コマガネ)'],
  'search.allPrefs': ['全都道府県', 'All prefectures'], 'search.date': ['日付（2013年9月、2013-09、不明）', 'Date (2013-09, 2013年9月, unknown)'],
  'search.any': ['済・未', 'Done or not'], 'search.completed': ['乗下車済', 'Done'], 'search.incomplete': ['未乗下車', 'Not done'],
  'search.count': ['{0}駅', '{0} stations'], 'search.more': ['ほか{0}駅（条件を絞ってください）', '{0} more (narrow the search)'],
  'search.badDate': ['日付は 2013年9月、2013年9月1日、2013年、2013年 月日不明、不明（または 2013-09、2013-09-01）のように入力してください。', 'Write the date as 2013, 2013-09, 2013-09-01, unknown or 2013-unknown (or 2013年9月, 2013年 月日不明, 不明).'],
  'station.none': ['地図・現在地・検索から駅を選んでください。', 'Choose a station on the map, under Nearby or in Search.'],
  'station.completion': ['乗下車', 'Got on or off'], 'station.memo': ['メモ', 'Memo'], 'station.save': ['保存', 'Save'],
  'station.uncomplete': ['未乗下車に戻す', 'Mark as not completed'],
  'station.wiki': ['この駅をウィキペディアで見る', 'Wikipedia article'], 'station.onMap': ['この駅を地図の中心に表示', 'Show on the map'],
  'station.history': ['履歴', 'History'], 'station.noHistory': ['まだ記録がありません。', 'Nothing recorded yet.'], 'station.year': ['年', 'Year'],
  'station.month': ['月', 'Month'], 'station.day': ['日', 'Day'],
  'station.disabled': ['（廃止・無効）', '(closed)'], 'station.updated': ['最終更新日時 {0}', 'Last updated {0}'],
  'saved': ['保存しました。', 'Saved.'], 'unchanged': ['変更はありません（記録しませんでした）。', 'Nothing changed, so nothing was recorded.'],
  'edit.stale': ['この駅の記録は表示中に別の端末で変わったため、保存しませんでした。新しい内容を確認して、もう一度保存してください。', 'This station changed on another device while it was shown, so nothing was saved; check the new values and save again.'],
  'edit.keptToRetry': ['編集は消えていません。アプリを開いたままにしてください：自動で保存を再試行します。', 'The edit is not lost: keep the app open, and saving is retried automatically.'],
  'edit.fullKept': ['端末の空き容量が足りないため、この編集はまだ保存できていませんが、消えてはいません：アプリを開いたまま空き容量を増やすと（写真や使わないアプリを削除するなど）、自動で保存します。', 'This device is out of free space, so the edit is not saved yet, but it is not lost: keep the app open and free some space (delete photos or apps you do not use), and it is saved automatically.'],
  'edit.retriedSaved': ['保存できなかった編集を、この端末に保存しました。', 'The edits that could not be saved are now saved on this device.'],
  'station.changedElsewhere': ['別の端末での変更を同期したので、新しい内容を表示しています。', 'An edit from another device arrived by sync and is shown now.'],
  'station.changedWhileEditing': ['入力中に別の端末でこの駅の記録が変わりました。保存する前に新しい内容を確認してください。', 'This station changed on another device while you were editing; check the new values before saving.'],
  'nearby.tooFar': ['最寄りの駅（{0}）まで{1}あり、現在地で記録できる駅はありません。', 'The nearest station ({0}) is {1} away, so there is no station to record here.'],
  'nearby.outOfReach': ['{0}は現在地から{1}離れているため、ここでは今日の乗下車を記録できません。', '{0} is {1} from your position, so today cannot be recorded for it here.'],
  'history.date': ['日付 {0}', 'date {0}'], 'history.memo': ['メモ「{0}」', 'memo “{0}”'], 'history.memoCleared': ['メモを消去', 'memo cleared'],
  'stats.operators': ['全事業者', 'Operators'], 'stats.prefectures': ['全都道府県', 'Prefectures'], 'stats.yomi': ['読み', 'Readings'],
  'stats.dates': ['乗下車日', 'Dates'], 'stats.back': ['戻る', 'Back'],
  'sync.now': ['今すぐ同期', 'Sync now'], 'sync.local': ['この端末に保存', 'On this device'], 'sync.server': ['サーバーに保存', 'On the server'],
  'sync.pending': ['未送信', 'Not yet sent'],
  'sync.last': ['前回の同期', 'Last sync'], 'sync.never': ['なし', 'never'], 'sync.events': ['{0}件', '{0} events'], 'sync.storage': ['保存領域', 'Storage'],
  'storage.persistent': ['保護されています（ブラウザが消すことはありません）。', 'Protected (the browser will not delete it).'],
  'storage.evictable': ['保護されていません。ホーム画面に追加すると、ブラウザが記録を消さなくなります。', 'Not protected: add the app to the home screen so that the browser keeps the records.'],
  'storage.unknown': ['このブラウザは保存領域の状態を知らせません。', 'This browser does not tell how it keeps the storage.'],
  'storage.usage': ['使用 {0}／上限 {1}', 'Using {0} of {1}'],
  'storage.unsaved': ['まだ保存できていない編集が{0}件あります（アプリを開いたままにしてください）。', 'Edits not saved yet: {0} (keep the app open).'],
  'sync.exportJsonl': ['この端末の記録を書き出す（JSONL）', "Export this device's events (JSONL)"],
  'sync.exportTsv': ['乗下車記録を書き出す（TSV）', 'Export completions (TSV)'],
  'sync.pairTitle': ['ペアリング', 'Pairing'], 'sync.pairCode': ['ペアリングコード', 'Pairing code'], 'sync.pair': ['ペアリング', 'Pair'],
  'sync.device': ['この端末: {0}（{1}）', 'This device: {0} ({1})'], 'sync.user': ['ユーザー: {0}', 'User: {0}'],
  'status.unpaired': ['この端末は同期サーバーとペアリングされていません。ペアリングコードを入力してください。', 'This device is not paired with a sync server: enter a pairing code.'],
  'status.syncing': ['同期しています…', 'Syncing…'], 'status.ok': ['同期しました。', 'Synced.'], 'status.idle': ['同期の準備ができています。', 'Ready to sync.'],
  'status.offline': ['オフラインです。記録はこの端末に保存され、次の同期で送信されます。', 'Offline: edits are saved on this device and sent at the next sync.'],
  'status.failed': ['同期できませんでした。理由は下のとおりです。', 'The sync did not finish; the reason is below.'],
  'status.unreachable': ['サーバーに接続できません。しばらくしてから自動で再試行します。', 'Cannot reach the server; retrying automatically.'],
  'sync.receiving': ['受信中… {0}件', 'Receiving… {0} events'],
  'pair.ok': ['ペアリングしました（{0}）。', 'Paired ({0}).'], 'pair.unknown': ['このペアリングコードは登録されていません。', 'This pairing code is not known.'],
  'pair.used': ['このペアリングコードは使用済みか期限切れです。新しいコードを発行してください。', 'This pairing code was used already or has expired; make a new one.'],
  'pair.rate': ['試行回数が多すぎます。{0}秒後にもう一度試してください。', 'Too many attempts; try again in {0} seconds.'],
  'pair.offline': ['同期サーバーに接続できません。ネットワークを確認してください。', 'The sync server cannot be reached; check the network.'],
  'pair.malformed': ['同期サーバーの応答が正しくないため、ペアリングできませんでした。', "The sync server's answer was not right, so this device is not paired."],
  'banner.persist': ['このブラウザは空き容量が少なくなると保存した記録を消すことがあります。ホーム画面に追加すると保存が保護されます。', 'This browser may delete the saved edits when storage runs low; add the app to the home screen to protect them.'],
  'banner.close': ['閉じる', 'Close'],
  'catalog.failed': ['駅データを取得できませんでした。{0}', 'The station data could not be downloaded. {0}'],
  'catalog.damaged': ['同期サーバーから届いた駅データが正しくありません。', 'The station data from the sync server is not right.'],
  'failure.revoked': ['この端末はサインアウトされています（別の端末またはサーバー管理者が取り消しました）。もう一度ペアリングしてください。', "This device is signed out (from another device or by the server's operator); pair it again."],
  'sync.pairName': ['この端末の名前', "This device's name"],
  'pair.okNamed': ['ペアリングしました（{0}）。この端末の名前は「{1}」です。', 'Paired ({0}); this device is named “{1}”.'],
  'history.onDevice': ['この端末に保存済み', 'Saved on this device'], 'history.onServer': ['サーバーに保存済み', 'Saved on the server'],
  'origin.import': ['取り込み', 'import'], 'origin.catalog': ['駅データ更新', 'station data update'],
  'history.lost': ['競合で負けた編集', 'Edit that lost a conflict'], 'history.lostField.date': ['日付', 'date'], 'history.lostField.memo': ['メモ', 'memo'],
  'conflict.resolve': ['競合を解決（現在の値を残す）', 'Resolve the conflict (keep the current values)'],
  'conflict.resolved': ['競合を解決しました。現在の値を残しました。', 'The conflict is resolved; the current values are kept.'],
  'conflict.none': ['この駅には解決する競合がありません。', 'This station has no conflict to resolve.'],
  'conflict.note': ['別の端末と同時に編集された記録があります。現在の値（履歴で負けていない編集の値）を残すと、競合は解決します。', 'This station was edited on another device at the same time. Keeping the current values (those of the edits that did not lose) resolves the conflict.'],
  'devices.title': ['端末', 'Devices'], 'devices.thisDevice': ['この端末', 'This device'], 'devices.unnamed': ['名前のない端末', 'Unnamed device'],
  'devices.lastSync': ['前回の同期 {0}', 'Last sync {0}'], 'devices.neverSynced': ['未同期', 'Not synced yet'],
  'devices.loading': ['端末の一覧を読み込んでいます…', 'Loading the devices…'],
  'devices.revoke': ['サインアウトさせる', 'Sign out'],
  'devices.revokeQuestion': ['「{0}」をサインアウトさせますか？その端末はもう同期できなくなります（記録はその端末に残ります）。', 'Sign “{0}” out? It can no longer sync (its records stay on it).'],
  'devices.revokeConfirm': ['はい、サインアウトさせる', 'Yes, sign it out'], 'devices.cancel': ['やめる', 'Cancel'],
  'devices.revoked': ['「{0}」をサインアウトさせました。', '“{0}” is signed out.'],
  'devices.revokeGone': ['その端末はすでにサインアウトしています。一覧を読み込み直しました。', 'That device was signed out already; the list is reloaded.'],
  'devices.nameLabel': ['この端末の名前', "This device's name"], 'devices.rename': ['名前を変更', 'Rename'],
  'devices.renamed': ['この端末の名前を「{0}」に変更しました。', 'This device is now named “{0}”.'],
  'devices.nameEmpty': ['名前を入力してください。', 'Enter a name.'],
  'devices.nameTooLong': ['名前が長すぎます（日本語で{0}文字まで、英数字なら{1}文字まで）。', 'The name is too long: at most {0} Japanese characters, or {1} letters and digits.'],
  'devices.nameTaken': ['ほかの端末がすでにこの名前を使っています。別の名前にしてください。', 'Another of your devices has this name already; choose another.'],
  'devices.nameRefused': ['同期サーバーがこの名前を受け付けませんでした。空白だけでない、日本語で{0}文字（英数字なら{1}文字）までの名前にしてください。', 'The sync server refused this name: give one that is not only spaces, of at most {0} Japanese characters ({1} letters and digits).'],
  'devices.link': ['別の端末を追加', 'Add another device'],
  'devices.linkHelp': ['追加する端末でこのQRコードを読み取るか、リンクを開くか、「同期」でコードを入力してください。', 'On the new device, scan this QR code, open the link, or enter the code under Sync.'],
  'devices.linkExpires': ['{0}まで有効（1回だけ使えます）', 'Valid once, until {0}'], 'devices.linkQr': ['ペアリング用のQRコード', 'QR code for pairing'],
  'devices.linkRefused': ['同期サーバーがペアリングコードを発行しませんでした。', 'The sync server did not make a pairing code.'],
  'devices.offline': ['同期サーバーに接続できないため、端末の一覧を表示・変更できません。', 'The sync server cannot be reached, so the devices cannot be shown or changed.'],
  'devices.malformed': ['同期サーバーの応答が正しくないため、何も変更しませんでした。', 'The sync server sent an answer that is not right, so nothing was changed.'],
  'devices.busy': ['要求が多すぎます。{0}秒後にもう一度試してください。', 'Too many requests; try again in {0} seconds.'],
  'devices.failed': ['同期サーバーが処理できませんでした（HTTP {0}）。しばらくしてからやり直してください。', 'The sync server could not do it (HTTP {0}); try again later.'],
  'signOut.button': ['ログアウト', 'Sign out'], 'signOut.question': ['この端末を同期サーバーからログアウトしますか？', 'Sign this device out of the sync server?'],
  'signOut.unsent': ['未送信の記録が{0}件あります。ログアウトすると、この端末にしかない記録はサーバーに送られません。', 'Records not yet sent: {0}. If you sign out, the records that exist only on this device are not sent to the server.'],
  'signOut.erase': ['この端末の記録も消去する', "Also erase this device's records"], 'signOut.confirm': ['ログアウトする', 'Sign out'],
  'signOut.cancel': ['やめる', 'Cancel'],
  'signOut.done': ['ログアウトしました。記録はこの端末に残っています。', 'Signed out; the records stay on this device.'],
  'signOut.erased': ['ログアウトし、この端末の記録を消去しました。', "Signed out, and this device's records are erased."],
  'signOut.offline': ['同期サーバーに接続できないため、ログアウトしませんでした。ネットワークを確認してやり直すか、この端末だけでログアウトしてください（サーバーではこの端末が有効なまま残るので、別の端末の「サインアウトさせる」で取り消せます）。', 'The sync server cannot be reached, so this device is not signed out. Check the network and try again, or sign out on this device only (the server keeps this device active; another device can sign it out with “Sign out”).'],
  'signOut.local': ['この端末だけでログアウト', 'Sign out on this device only'],
  // Importing the original apps' records (oritsubushi-tsv: importReport.js).
  'import.title': ['元のアプリの記録を取り込む', "Import the original apps' records"],
  'import.help': ['i降りつぶし・降りつぶしroid・降りつぶし.net の同期用ファイル（TSV）を選ぶと、取り込む前に内容を表示します。', 'Choose the sync file (TSV) of i降りつぶし, 降りつぶしroid or 降りつぶし.net: the app shows what it holds before importing it.'],
  'import.choose': ['ファイルを選ぶ', 'Choose a file'], 'import.apply': ['取り込む', 'Import'],
  'import.noCatalog': ['駅データがまだないため取り込めません。先にペアリングして駅データを取得してください。', 'There is no station data yet, so nothing can be imported: pair this device first to download it.'],
  'import.unreadable': ['ファイルを読めませんでした。もう一度選んでください。', 'The file could not be read; choose it again.'],
  'import.summary': ['{0}行を読みました。{1}駅の記録を取り込みます（記録済みと同じ行 {2}、取り込めない行 {3}）。', 'Lines read: {0}. Stations to record: {1} (lines already recorded: {2}; lines that cannot be imported: {3}).'],
  'import.nothing': ['{0}行を読みました。取り込む記録はありません（記録済みと同じ行 {1}、取り込めない行 {2}）。', 'Lines read: {0}. Nothing to import (lines already recorded: {1}; lines that cannot be imported: {2}).'],
  'import.unknownDates': ['乗下車日が 2〜18999999 の{0}行は「日付不明」として取り込みます（元のアプリの表示と同じです）。', 'Lines with a date code from 2 to 18999999, imported as “date unknown” (as the original apps show them): {0}.'],
  'import.clamped': ['更新日時が今より後の{0}行は、今の時刻の記録として取り込みます。', 'Lines updated later than now, imported at the present time: {0}.'],
  'import.raised': ['更新日時が2000年より前の{0}行は、2000年1月1日の記録として取り込みます（同期サーバーはそれより前の記録を受け付けません）。', 'Lines updated before 2000, imported as of 2000-01-01 (the sync server takes no earlier record): {0}.'],
  'import.refusedTitle': ['取り込めない行（飛ばします）', 'Lines that cannot be imported (skipped)'], 'import.recordTitle': ['取り込む記録', 'Records to import'],
  'import.more': ['ほか{0}件', '{0} more'], 'import.line': ['{0}行目: {1}', 'line {0}: {1}'], 'import.station': ['{0}（{1}）', '{0} ({1})'],
  'import.draft': ['{0}: {1}', '{0}: {1}'],
  'import.done': ['{0}駅の記録を取り込みました（記録 {1}件、飛ばした行 {2}）。', 'Imported. Stations recorded: {0} (events: {1}; lines skipped: {2}).'],
  'import.noneRecorded': ['取り込む記録はありませんでした。何も記録していません。', 'There was nothing to import; nothing was recorded.'],
  'import.fieldStation': ['駅ID', 'station id'], 'import.fieldDate': ['乗下車日', 'date'], 'import.fieldUpdated': ['更新日時', 'update time'],
  'import.notUtf8': ['UTF-8 の文字として読めません', 'it is not UTF-8 text'], 'import.empty': ['空の行です', 'the line is empty'],
  'import.fields': ['タブで区切られた4つの項目（駅ID・乗下車日・更新日時・メモ）がありません', 'it lacks the four TAB-separated fields (station id, date, update time, memo)'],
  'import.notNumber': ['{0}「{1}」が0以上の整数ではありません', 'the {0} “{1}” is not a whole number'],
  'import.stationId': ['駅ID {0} は駅IDの範囲外です', 'station id {0} is out of range'],
  'import.compDateRange': ['乗下車日 {0} は範囲外です', 'date {0} is out of range'],
  'import.updateDateRange': ['更新日時 {0} は範囲外です', 'update time {0} is out of range'],
  'import.loneBackslash': ['メモが「\\」1文字で終わっています', 'the memo ends with a lone backslash'],
  'import.unknownEscape': ['メモに使えないエスケープがあります（使えるのは「\\\\」と「\\n」だけです）', 'the memo has an escape other than \\\\ and \\n'],
  'import.invalidDate': ['乗下車日 {0} は正しい日付ではありません', 'date {0} is not a date'],
  'import.futureDate': ['乗下車日 {0}（{1}）は未来の日付です', 'date {0} ({1}) is in the future'],
  'import.memoTooLong': ['メモが長すぎます（日本語で{0}文字まで、英数字なら{1}文字まで）', 'the memo is too long (at most {0} Japanese characters, or {1} letters and digits)'],
  'import.unknownStation': ['駅ID {0} は駅データにありません', 'station id {0} is not in the station data'],
  // An approximate fix, progress over time, milestones, sharing, settings (nearestCandidates.js,
  // progress.js, milestones.js, progressCard.js, settings.js).
  'nearby.approximate': ['位置がおおよそ（精度 {0}）のため、最寄り駅を1つに決められません。候補：', 'The position is approximate (accuracy {0}), so no one station can be called the nearest. Candidates:'],
  'nearby.candidatesMore': ['ほか{0}駅（下の一覧）', '{0} more (in the list below)'],
  'progress.title': ['乗下車駅数の推移', 'Stations completed over time'],
  'progress.label': ['乗下車駅数の推移（累計 {0}駅）', 'Stations completed over time ({0} in all)'],
  'progress.none': ['日付のある乗下車記録はまだありません。', 'No completion with a date yet.'],
  'progress.total': ['累計 {0}駅', '{0} stations in all'], 'progress.undated': ['（日付不明の{0}駅は含みません）', ' (not counting {0} of unknown date)'],
  'completed.title': ['制覇した路線・事業者・都道府県', 'Lines, operators and prefectures completed'],
  'completed.none': ['まだ制覇した路線・事業者・都道府県はありません。', 'No line, operator or prefecture completed yet.'],
  'completed.lines': ['路線（{0}）', 'Lines ({0})'], 'completed.operators': ['事業者（{0}）', 'Operators ({0})'],
  'completed.prefectures': ['都道府県（{0}）', 'Prefectures ({0})'],
  'milestone.completed': ['{0}を制覇しました！', 'You have completed {0}!'],
  'share.button': ['進捗を共有', 'Share progress'], 'share.shared': ['進捗を共有しました。', 'Progress shared.'],
  'share.downloaded': ['進捗の画像（{0}）を保存しました。', 'The progress image ({0}) was saved.'],
  'share.failed': ['進捗の画像を作れませんでした。', 'The progress image could not be made.'],
  'card.title': ['降りつぶし 乗下車の記録', '降りつぶし: stations got on or off at'], 'card.totals': ['{0}駅 / {1}駅（{2}）', '{0} of {1} stations ({2})'],
  'card.completed': ['制覇 路線 {0}・事業者 {1}・都道府県 {2}', 'Completed: {0} lines, {1} operators, {2} prefectures'],
  'card.leading': ['進んでいる都道府県', 'Leading prefectures'], 'card.asOf': ['{0}現在', 'As of {0}'],
  'settings.title': ['設定', 'Settings'], 'settings.pinLimit': ['地図のピンの数', 'Pins on the map'],
  'settings.pinLimitHelp': ['多いほど地図の表示が遅くなります。', 'More pins draw the map more slowly.'],
  'settings.pins': ['{0}個以内', 'up to {0}'], 'settings.unlimited': ['無制限（遅くなります）', 'unlimited (slow)'], 'settings.language': ['言語', 'Language'],
  'settings.saved': ['設定を保存しました。', 'Settings saved.'], 'settings.tiles': ['地図タイル', 'Map tiles'], 'settings.tilesOn': ['表示する', 'Show'],
  'settings.tilesOff': ['表示しない', 'Hide'],
  'settings.tilesHelp': ['見た範囲のタイルは50 MBまでこの端末に保存され、オフラインでも表示されます。', 'Tiles you have seen are kept on this device (up to 50 MB) and shown offline.'],
  'settings.languageNextTime': ['言語を保存しました。保存を再試行中の編集があるため、次にアプリを開いたときに切り替わります。', 'The language is saved; it changes the next time the app opens, because an edit is still being saved.'],
  'pair.nextStep': ['地図の駅をタップして乗下車を記録するか、「現在地」で今いる駅を記録してください。', 'Tap a station on the map to record it, or record the station you are at under Nearby.'],
  // 地図選択, a line's screen, まとめて記録, the search's kinds (mapSelection.js, batchText.js).
  'mapSelect': ['地図選択', 'Show on map'], 'mapSelect.clear': ['絞り込みを解除', 'Clear the filter'],
  'mapSelect.none': ['この絞り込みに当てはまる駅はありません。', 'No station fits this filter.'],
  'filter.yomi': ['読み「{0}」', 'reading “{0}”'], 'filter.unknownLine': ['路線 {0}', 'line {0}'],
  'filter.by.any': ['駅名・読み', 'name or reading'], 'filter.by.name': ['駅名', 'name'], 'filter.by.yomi': ['読み', 'reading'],
  'filter.by.line': ['路線名', 'line name'],
  'filter.prefix': ['{0}が「{1}」で始まる', '{0} starts with “{1}”'], 'filter.partial': ['{0}に「{1}」を含む', '{0} contains “{1}”'],
  'search.type.any': ['駅名・読み', 'Name/reading'], 'search.type.name': ['駅名', 'Name'], 'search.type.yomi': ['読み', 'Reading'],
  'search.type.line': ['路線', 'Line'],
  'search.match.prefix': ['前方一致', 'Starts with'], 'search.match.partial': ['部分一致', 'Contains'],
  'search.placeholderLine': ['路線名（例: 名古屋線、山手）', 'Line name (名古屋線, 山手)'],
  'line.back': ['戻る', 'Back'], 'line.unknown': ['この路線は駅データにありません（廃止された路線かもしれません）。', 'This line is not in the station data (it may have closed).'],
  'picks.check': ['{0}をまとめて記録に加える', 'Add {0} to the batch'],
  'batch.count': ['{0}駅を選択中', '{0} stations picked'], 'batch.record': ['まとめて記録', 'Record them all'], 'batch.clear': ['選択を解除', 'Clear the picks'],
  'batch.done': ['{0}駅に「{1}」を記録しました。', 'Recorded {1} for {0} stations.'],
  'batch.doneSome': ['{0}駅に「{1}」を記録しました（{2}駅はすでにこの日付なので記録していません）。', 'Recorded {1} for {0} stations ({2} already had this date and were left as they are).'],
  'batch.nothing': ['選んだ{0}駅はすべてすでに「{1}」なので、何も記録しませんでした。', 'All {0} stations picked already have {1}, so nothing was recorded.'],
  'batch.empty': ['まとめて記録する駅を選んでください。', 'Pick the stations to record first.'],
  'batch.unknownStations': ['駅データにない駅があるため（{0}）、何も記録しませんでした。', 'Some stations are not in the station data ({0}), so nothing was recorded.'],
  'batch.duplicate': ['同じ駅が二度選ばれているため（{0}）、何も記録しませんでした。', 'A station was picked twice ({0}), so nothing was recorded.'],
  'batch.stale': ['{0}の記録が表示中に別の端末で変わったため、何も記録しませんでした。新しい内容を確認して、もう一度記録してください。', 'The record of {0} changed on another device while it was shown, so nothing was recorded; check the new values and record again.'],
  'station.completed': ['乗下車済', 'Completed'],
});

/**
 * The table as `t` reads it: tsc refuses a key here unless it has both languages.
 * @type {Readonly<Record<string, readonly [string, string]>>}
 */
const pairs = words;

/** @typedef {keyof typeof words} Key */

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
  const text = pairs[key]?.[current === 'en' ? 1 : 0] ?? key;
  return text.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ''));
}

/**
 * Whether a string is a known key.
 * @param {string} key @returns {key is Key}
 */
export function isKey(key) {
  return key in words;
}

/**
 * A whole number as people read it, thousands separated by commas in both languages: 1,365.
 * @param {number} n
 */
export function formatCount(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
