// The app's words in Japanese (the default) and English (when the browser prefers English): every
// text a screen shows, refusals included (refusals.js picks them by cause, never by a message's
// text). Station, operator and line names, and statistics labels, stay as the catalogue and the
// Swift code write them.

/** @typedef {'ja' | 'en'} Lang */

const ja = {
  // Why a sync stopped (SyncFailure.kind and its cause: refusals.js).
  'failure.offline': '同期サーバーに接続できません。記録はこの端末に保存されており、次の同期で送信します。',
  'failure.signed-out': 'この端末はサインアウトされました（トークンが無効になりました）。もう一度ペアリングしてください。未送信の記録は残っています。',
  'failure.clock': 'この端末の時計が進んでいるため、同期サーバーが記録を受け付けませんでした。時計を正しく合わせてください。記録は残っています。',
  'failure.damaged': 'サーバーに保存されたこのアカウントのデータが損傷しています。しばらくしてから同期してください（管理者が修復します）。記録はこの端末に残っています。',
  'failure.fork': 'この端末の記録が、コピーされた別の端末の記録と食い違っているため、同期できません。何も変更していません。',
  'failure.malformed': '同期サーバーの応答が正しくないため、何も保存しませんでした。しばらくしてからやり直してください。',
  'failure.kept': '{0}記録はこの端末に残っています。',
  'failure.stopped': '同期が途中で止まりました。しばらくしてからやり直してください。記録はこの端末に残っています。',
  'merge.gap': '同期サーバーから届いた記録に抜けがあるため、何も保存しませんでした。',
  'merge.differs': '同期サーバーから届いた記録が、この端末にある同じ番号の記録と違うため（壊れたか偽の複製）、何も保存しませんでした。',
  'merge.ahead': '同期サーバーから届いた記録の日時がこの端末の時計より1日以上先のため、何も保存しませんでした。この端末の時計が遅れていれば、合わせてから同期してください。',
  // The server's refusals, by their `error` code or status (refusals.js), never its English message.
  'server.malformed': '同期サーバーがこのアプリの要求を読めませんでした。ページを読み込み直してからやり直してください。',
  'server.unauthorized': '同期サーバーがこの端末のトークンを受け付けませんでした。もう一度ペアリングしてください。',
  'server.forbidden': '同期サーバーが、この端末の記録を別のユーザーのものとして受け付けませんでした。',
  'server.notFound': '同期サーバーがこのアプリの要求に対応していません（サーバーがアプリより古い可能性があります）。',
  'server.conflict': '同期サーバーに保存されている記録と食い違うため、受け付けられませんでした。',
  'server.tooLarge': '送る内容が大きすぎるか、このアカウントの保存容量の上限を超えるため、同期サーバーが受け付けませんでした。',
  'server.invalid': '同期サーバーが内容を受け付けませんでした（サーバーの規則に合いません）。',
  'server.unavailable': 'サーバーに保存されたこのアカウントのデータが損傷しています。しばらくしてからやり直してください（管理者が修復します）。',
  'server.gone': '期限切れか、すでに使われています。',
  'server.busy': '同期サーバーへの要求が多すぎます。{0}秒後にもう一度試してください。',
  'server.internal': '同期サーバーで障害が起きました（HTTP {0}）。しばらくしてからやり直してください。',
  'server.status': '同期サーバーが受け付けませんでした（HTTP {0}）。',
  // The browser's storage (StoreError.reason).
  'storage.full': 'この端末の保存領域がいっぱいのため、保存できませんでした。空き容量を増やしてから（または保存を許可してから）やり直してください。',
  'storage.refused': 'ブラウザがこのアプリのデータを保存しなかったため、保存できませんでした。',
  'storage.missing': 'このブラウザはこの端末に記録を保存できません（プライベートブラウズでは保存できないことがあります）。',
  'storage.unreadable': 'この端末に保存してある記録を読み込めませんでした。ページを読み込み直してください。',
  // Edits: the ledger's refusals (EditError.reason) and the memo's limit, counted in characters.
  'edit.badStation': 'この駅には記録できません。何も保存しませんでした。',
  'edit.badDate': '乗下車日が正しくないため、保存しませんでした。',
  'edit.future': '{0}は未来の日付なので記録できません（日本の今日は{1}です）。',
  'memo.left': '残り {0} 文字', 'memo.over': '上限（日本語で{0}文字）を超えています',
  'memo.tooLong': 'メモが長すぎます（日本語で{0}文字まで、英数字なら{1}文字まで）。保存しませんでした。',
  'error.unexpected': '処理できませんでした。ページを読み込み直してからやり直してください。',
  'app.failed': 'アプリを起動できませんでした。ページを読み込み直してください。',
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
  'nearby.noFix': '現在地を特定できませんでした。空の見える場所でもう一度試してください。',
  'nearby.timeout': '現在地の取得に時間がかかりすぎました。もう一度試してください。',
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
  'edit.keptToRetry': '編集は消えていません。アプリを開いたままにしてください：自動で保存を再試行します。',
  'edit.retriedSaved': '保存できなかった編集を、この端末に保存しました。',
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
  'pair.ok': 'ペアリングしました（{0}）。', 'pair.unknown': 'このペアリングコードは登録されていません。',
  'pair.used': 'このペアリングコードは使用済みか期限切れです。新しいコードを発行してください。',
  'pair.rate': '試行回数が多すぎます。{0}秒後にもう一度試してください。',
  'pair.offline': '同期サーバーに接続できません。ネットワークを確認してください。',
  'pair.malformed': '同期サーバーの応答が正しくないため、ペアリングできませんでした。',
  'banner.persist': 'このブラウザは空き容量が少なくなると保存した記録を消すことがあります。ホーム画面に追加すると保存が保護されます。',
  'banner.close': '閉じる',
  'catalog.failed': '駅データを取得できませんでした。{0}', 'catalog.damaged': '同期サーバーから届いた駅データが正しくありません。',
  'failure.revoked': 'この端末はサインアウトされています（別の端末またはサーバー管理者が取り消しました）。もう一度ペアリングしてください。',
  'sync.pairName': 'この端末の名前', 'pair.okNamed': 'ペアリングしました（{0}）。この端末の名前は「{1}」です。',
  'history.onDevice': 'この端末に保存済み', 'history.onServer': 'サーバーに保存済み',
  'origin.import': '取り込み', 'origin.catalog': '駅データ更新',
  'devices.title': '端末', 'devices.thisDevice': 'この端末', 'devices.unnamed': '名前のない端末',
  'devices.lastSync': '前回の同期 {0}', 'devices.neverSynced': '未同期', 'devices.loading': '端末の一覧を読み込んでいます…',
  'devices.revoke': 'サインアウトさせる', 'devices.revokeQuestion': '「{0}」をサインアウトさせますか？その端末はもう同期できなくなります（記録はその端末に残ります）。',
  'devices.revokeConfirm': 'はい、サインアウトさせる', 'devices.cancel': 'やめる',
  'devices.revoked': '「{0}」をサインアウトさせました。', 'devices.revokeGone': 'その端末はすでにサインアウトしています。一覧を読み込み直しました。',
  'devices.nameLabel': 'この端末の名前', 'devices.rename': '名前を変更', 'devices.renamed': 'この端末の名前を「{0}」に変更しました。',
  'devices.nameEmpty': '名前を入力してください。', 'devices.nameTooLong': '名前が長すぎます（日本語で{0}文字まで、英数字なら{1}文字まで）。',
  'devices.nameTaken': 'ほかの端末がすでにこの名前を使っています。別の名前にしてください。',
  'devices.nameRefused': '同期サーバーがこの名前を受け付けませんでした。空白だけでない、日本語で{0}文字（英数字なら{1}文字）までの名前にしてください。',
  'devices.link': '別の端末を追加', 'devices.linkHelp': '追加する端末でこのQRコードを読み取るか、リンクを開くか、「同期」でコードを入力してください。',
  'devices.linkExpires': '{0}まで有効（1回だけ使えます）', 'devices.linkQr': 'ペアリング用のQRコード',
  'devices.linkRefused': '同期サーバーがペアリングコードを発行しませんでした。',
  'devices.offline': '同期サーバーに接続できないため、端末の一覧を表示・変更できません。',
  'devices.malformed': '同期サーバーの応答が正しくないため、何も変更しませんでした。',
  'devices.busy': '要求が多すぎます。{0}秒後にもう一度試してください。',
  'devices.failed': '同期サーバーが処理できませんでした（HTTP {0}）。しばらくしてからやり直してください。',
  'signOut.button': 'ログアウト', 'signOut.question': 'この端末を同期サーバーからログアウトしますか？',
  'signOut.unsent': '未送信の記録が{0}件あります。ログアウトすると、この端末にしかない記録はサーバーに送られません。',
  'signOut.erase': 'この端末の記録も消去する', 'signOut.confirm': 'ログアウトする', 'signOut.cancel': 'やめる',
  'signOut.done': 'ログアウトしました。記録はこの端末に残っています。', 'signOut.erased': 'ログアウトし、この端末の記録を消去しました。',
  'signOut.offline': '同期サーバーに接続できないため、ログアウトしませんでした。ネットワークを確認してやり直すか、この端末だけでログアウトしてください（サーバーではこの端末が有効なまま残るので、別の端末の「サインアウトさせる」で取り消せます）。',
  'signOut.local': 'この端末だけでログアウト',
  // Importing the original apps' records (oritsubushi-tsv: importReport.js).
  'import.title': '元のアプリの記録を取り込む',
  'import.help': 'i降りつぶし・降りつぶしroid・降りつぶし.net の同期用ファイル（TSV）を選ぶと、取り込む前に内容を表示します。',
  'import.choose': 'ファイルを選ぶ', 'import.apply': '取り込む',
  'import.noCatalog': '駅データがまだないため取り込めません。先にペアリングして駅データを取得してください。',
  'import.unreadable': 'ファイルを読めませんでした。もう一度選んでください。',
  'import.summary': '{0}行を読みました。{1}駅の記録を取り込みます（記録済みと同じ行 {2}、取り込めない行 {3}）。',
  'import.nothing': '{0}行を読みました。取り込む記録はありません（記録済みと同じ行 {1}、取り込めない行 {2}）。',
  'import.unknownDates': '乗下車日が 2〜18999999 の{0}行は「日付不明」として取り込みます（元のアプリの表示と同じです）。',
  'import.clamped': '更新日時が今より後の{0}行は、今の時刻の記録として取り込みます。',
  'import.raised': '更新日時が2000年より前の{0}行は、2000年1月1日の記録として取り込みます（同期サーバーはそれより前の記録を受け付けません）。',
  'import.refusedTitle': '取り込めない行（飛ばします）', 'import.recordTitle': '取り込む記録',
  'import.more': 'ほか{0}件', 'import.line': '{0}行目: {1}', 'import.station': '{0}（{1}）', 'import.draft': '{0}: {1}',
  'import.done': '{0}駅の記録を取り込みました（記録 {1}件、飛ばした行 {2}）。',
  'import.noneRecorded': '取り込む記録はありませんでした。何も記録していません。',
  'import.fieldStation': '駅ID', 'import.fieldDate': '乗下車日', 'import.fieldUpdated': '更新日時',
  'import.notUtf8': 'UTF-8 の文字として読めません', 'import.empty': '空の行です',
  'import.fields': 'タブで区切られた4つの項目（駅ID・乗下車日・更新日時・メモ）がありません',
  'import.notNumber': '{0}「{1}」が0以上の整数ではありません', 'import.stationId': '駅ID {0} は駅IDの範囲外です',
  'import.compDateRange': '乗下車日 {0} は範囲外です', 'import.updateDateRange': '更新日時 {0} は範囲外です',
  'import.loneBackslash': 'メモが「\\」1文字で終わっています',
  'import.unknownEscape': 'メモに使えないエスケープがあります（使えるのは「\\\\」と「\\n」だけです）',
  'import.invalidDate': '乗下車日 {0} は正しい日付ではありません', 'import.futureDate': '乗下車日 {0}（{1}）は未来の日付です',
  'import.memoTooLong': 'メモが長すぎます（日本語で{0}文字まで、英数字なら{1}文字まで）',
  'import.unknownStation': '駅ID {0} は駅データにありません',
};

/** @type {Record<keyof typeof ja, string>} */
const en = {
  'failure.offline': 'The sync server cannot be reached; your edits are saved on this device and are sent at the next sync.',
  'failure.signed-out': 'This device was signed out (its token is no longer valid); pair it again. Unsent edits are kept.',
  'failure.clock': "This device's clock is fast, so the sync server refused its edits; set the clock right. The edits are kept.",
  'failure.damaged': "The server's data for this account is damaged; sync again later (its operator repairs it). Your edits stay on this device.",
  'failure.fork': "This device holds records of a copied device that differ from the server's, so it cannot sync; nothing was changed.",
  'failure.malformed': "The sync server's answer was not right, so nothing of it was saved; try again later.",
  'failure.kept': '{0} Your edits stay on this device.',
  'failure.stopped': 'The sync stopped; try again later. Your edits stay on this device.',
  'merge.gap': 'The records from the sync server skip some, so nothing was saved.',
  'merge.differs': 'A record from the sync server differs from the one this device holds under the same number (a damaged or forged copy), so nothing was saved.',
  'merge.ahead': "Records from the sync server are dated more than a day after this device's clock, so nothing was saved; if this device's clock is slow, set it right and sync again.",
  'server.malformed': "The sync server could not read the app's request; reload the page and try again.",
  'server.unauthorized': "The sync server did not accept this device's token; pair it again.",
  'server.forbidden': "The sync server refused this device's records as another user's.",
  'server.notFound': 'The sync server does not offer what the app asked for (it may be older than the app).',
  'server.conflict': 'The sync server refused it: it does not match the records the server holds.',
  'server.tooLarge': "The sync server refused it as too large, or as beyond this account's storage limit.",
  'server.invalid': "The sync server refused the content: it breaks one of the server's rules.",
  'server.unavailable': "The server's data for this account is damaged; try again later (its operator repairs it).",
  'server.gone': 'It has expired or was used already.',
  'server.busy': 'Too many requests to the sync server; try again in {0} seconds.',
  'server.internal': 'The sync server failed (HTTP {0}); try again later.',
  'server.status': 'The sync server refused it (HTTP {0}).',
  'storage.full': "This device's storage for the app is full, so the change was not saved; free some space (or allow more storage) and try again.",
  'storage.refused': "The browser refused to save the app's data, so the change was not saved.",
  'storage.missing': 'This browser cannot save records on this device (private browsing may prevent it).',
  'storage.unreadable': 'The app could not read the records saved on this device; reload the page.',
  'edit.badStation': 'Nothing can be recorded for this station; nothing was saved.',
  'edit.badDate': 'That is not a valid date, so nothing was saved.',
  'edit.future': '{0} is in the future (today is {1} in Japan), so it cannot be recorded.',
  'memo.left': '{0} characters left', 'memo.over': 'Over the limit of {0} Japanese characters',
  'memo.tooLong': 'The memo is too long: at most {0} Japanese characters, or {1} letters and digits; nothing was saved.',
  'error.unexpected': 'It could not be done; reload the page and try again.',
  'app.failed': 'The app could not start; reload the page.',
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
  'nearby.noFix': 'The location could not be found; try again where the sky is visible.',
  'nearby.timeout': 'Finding the location took too long; try again.',
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
  'edit.keptToRetry': 'The edit is not lost: keep the app open, and saving is retried automatically.',
  'edit.retriedSaved': 'The edits that could not be saved are now saved on this device.',
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
  'pair.ok': 'Paired ({0}).', 'pair.unknown': 'This pairing code is not known.',
  'pair.used': 'This pairing code was used already or has expired; make a new one.',
  'pair.rate': 'Too many attempts; try again in {0} seconds.',
  'pair.offline': 'The sync server cannot be reached; check the network.',
  'pair.malformed': "The sync server's answer was not right, so this device is not paired.",
  'banner.persist': 'This browser may delete the saved edits when storage runs low; add the app to the home screen to protect them.',
  'banner.close': 'Close',
  'catalog.failed': 'The station data could not be downloaded. {0}', 'catalog.damaged': 'The station data from the sync server is not right.',
  'failure.revoked': "This device is signed out (from another device or by the server's operator); pair it again.",
  'sync.pairName': "This device's name", 'pair.okNamed': 'Paired ({0}); this device is named “{1}”.',
  'history.onDevice': 'Saved on this device', 'history.onServer': 'Saved on the server',
  'origin.import': 'import', 'origin.catalog': 'station data update',
  'devices.title': 'Devices', 'devices.thisDevice': 'This device', 'devices.unnamed': 'Unnamed device',
  'devices.lastSync': 'Last sync {0}', 'devices.neverSynced': 'Not synced yet', 'devices.loading': 'Loading the devices…',
  'devices.revoke': 'Sign out', 'devices.revokeQuestion': 'Sign “{0}” out? It can no longer sync (its records stay on it).',
  'devices.revokeConfirm': 'Yes, sign it out', 'devices.cancel': 'Cancel',
  'devices.revoked': '“{0}” is signed out.', 'devices.revokeGone': 'That device was signed out already; the list is reloaded.',
  'devices.nameLabel': "This device's name", 'devices.rename': 'Rename', 'devices.renamed': 'This device is now named “{0}”.',
  'devices.nameEmpty': 'Enter a name.', 'devices.nameTooLong': 'The name is too long: at most {0} Japanese characters, or {1} letters and digits.',
  'devices.nameTaken': 'Another of your devices has this name already; choose another.',
  'devices.nameRefused': 'The sync server refused this name: give one that is not only spaces, of at most {0} Japanese characters ({1} letters and digits).',
  'devices.link': 'Add another device', 'devices.linkHelp': 'On the new device, scan this QR code, open the link, or enter the code under Sync.',
  'devices.linkExpires': 'Valid once, until {0}', 'devices.linkQr': 'QR code for pairing',
  'devices.linkRefused': 'The sync server did not make a pairing code.',
  'devices.offline': 'The sync server cannot be reached, so the devices cannot be shown or changed.',
  'devices.malformed': 'The sync server sent an answer that is not right, so nothing was changed.',
  'devices.busy': 'Too many requests; try again in {0} seconds.',
  'devices.failed': 'The sync server could not do it (HTTP {0}); try again later.',
  'signOut.button': 'Sign out', 'signOut.question': 'Sign this device out of the sync server?',
  'signOut.unsent': 'Records not yet sent: {0}. If you sign out, the records that exist only on this device are not sent to the server.',
  'signOut.erase': "Also erase this device's records", 'signOut.confirm': 'Sign out', 'signOut.cancel': 'Cancel',
  'signOut.done': 'Signed out; the records stay on this device.', 'signOut.erased': "Signed out, and this device's records are erased.",
  'signOut.offline': 'The sync server cannot be reached, so this device is not signed out. Check the network and try again, or sign out on this device only (the server keeps this device active; another device can sign it out with “Sign out”).',
  'signOut.local': 'Sign out on this device only',
  'import.title': "Import the original apps' records",
  'import.help': "Choose the sync file (TSV) of i降りつぶし, 降りつぶしroid or 降りつぶし.net: the app shows what it holds before importing it.",
  'import.choose': 'Choose a file', 'import.apply': 'Import',
  'import.noCatalog': 'There is no station data yet, so nothing can be imported: pair this device first to download it.',
  'import.unreadable': 'The file could not be read; choose it again.',
  'import.summary': 'Lines read: {0}. Stations to record: {1} (lines already recorded: {2}; lines that cannot be imported: {3}).',
  'import.nothing': 'Lines read: {0}. Nothing to import (lines already recorded: {1}; lines that cannot be imported: {2}).',
  'import.unknownDates': 'Lines with a date code from 2 to 18999999, imported as “date unknown” (as the original apps show them): {0}.',
  'import.clamped': 'Lines updated later than now, imported at the present time: {0}.',
  'import.raised': 'Lines updated before 2000, imported as of 2000-01-01 (the sync server takes no earlier record): {0}.',
  'import.refusedTitle': 'Lines that cannot be imported (skipped)', 'import.recordTitle': 'Records to import',
  'import.more': '{0} more', 'import.line': 'line {0}: {1}', 'import.station': '{0} ({1})', 'import.draft': '{0}: {1}',
  'import.done': 'Imported. Stations recorded: {0} (events: {1}; lines skipped: {2}).',
  'import.noneRecorded': 'There was nothing to import; nothing was recorded.',
  'import.fieldStation': 'station id', 'import.fieldDate': 'date', 'import.fieldUpdated': 'update time',
  'import.notUtf8': 'it is not UTF-8 text', 'import.empty': 'the line is empty',
  'import.fields': 'it lacks the four TAB-separated fields (station id, date, update time, memo)',
  'import.notNumber': 'the {0} “{1}” is not a whole number', 'import.stationId': 'station id {0} is out of range',
  'import.compDateRange': 'date {0} is out of range', 'import.updateDateRange': 'update time {0} is out of range',
  'import.loneBackslash': 'the memo ends with a lone backslash',
  'import.unknownEscape': 'the memo has an escape other than \\\\ and \\n',
  'import.invalidDate': 'date {0} is not a date', 'import.futureDate': 'date {0} ({1}) is in the future',
  'import.memoTooLong': 'the memo is too long (at most {0} Japanese characters, or {1} letters and digits)',
  'import.unknownStation': 'station id {0} is not in the station data',
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

/**
 * A whole number as people read it, thousands separated by commas in both languages: 1,365.
 * @param {number} n
 */
export function formatCount(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
