// The app's sentences for why something could not be done that is not the person's doing, as
// [Japanese, English] under one key (i18n.js merges them into its table): why a sync stopped, the
// server's refusals by their code or status, and the browser's storage refusing a write. refusals.js
// picks them by cause, never by a message's text.

export const refusals = /** @type {const} */ ({
  // Why a sync stopped (SyncFailure.kind and its cause: refusals.js).
  'failure.offline': ['同期サーバーに接続できません。記録はこの端末に保存されており、次の同期で送信します。', 'The sync server cannot be reached; your edits are saved on this device and are sent at the next sync.'],
  'failure.signed-out': ['この端末はサインアウトされました（トークンが無効になりました）。もう一度ペアリングしてください。未送信の記録は残っています。', 'This device was signed out (its token is no longer valid); pair it again. Unsent edits are kept.'],
  'failure.clock': ['この端末の時計が進んでいるため、同期サーバーが記録を受け付けませんでした。時計を正しく合わせてください。記録は残っています。', "This device's clock is fast, so the sync server refused its edits; set the clock right. The edits are kept."],
  'failure.damaged': ['サーバーに保存されたこのアカウントのデータが損傷しています。しばらくしてから同期してください（管理者が修復します）。記録はこの端末に残っています。', "The server's data for this account is damaged; sync again later (its operator repairs it). Your edits stay on this device."],
  'failure.fork': ['この端末の記録が、コピーされた別の端末の記録と食い違っているため、同期できません。何も変更していません。', "This device holds records of a copied device that differ from the server's, so it cannot sync; nothing was changed."],
  'failure.malformed': ['同期サーバーの応答が正しくないため、何も保存しませんでした。しばらくしてからやり直してください。', "The sync server's answer was not right, so nothing of it was saved; try again later."],
  'failure.kept': ['{0}記録はこの端末に残っています。', '{0} Your edits stay on this device.'],
  'failure.stopped': ['同期が途中で止まりました。しばらくしてからやり直してください。記録はこの端末に残っています。', 'The sync stopped; try again later. Your edits stay on this device.'],
  'merge.gap': ['同期サーバーから届いた記録に抜けがあるため、何も保存しませんでした。', 'The records from the sync server skip some, so nothing was saved.'],
  'merge.differs': ['同期サーバーから届いた記録が、この端末にある同じ番号の記録と違うため（壊れたか偽の複製）、何も保存しませんでした。', 'A record from the sync server differs from the one this device holds under the same number (a damaged or forged copy), so nothing was saved.'],
  'merge.ahead': ['同期サーバーから届いた記録の日時がこの端末の時計より1日以上先のため、何も保存しませんでした。この端末の時計が遅れていれば、合わせてから同期してください。', "Records from the sync server are dated more than a day after this device's clock, so nothing was saved; if this device's clock is slow, set it right and sync again."],
  // The server's refusals, by their `error` code or status (refusals.js), never its English message.
  'server.malformed': ['同期サーバーがこのアプリの要求を読めませんでした。ページを読み込み直してからやり直してください。', "The sync server could not read the app's request; reload the page and try again."],
  'server.unauthorized': ['同期サーバーがこの端末のトークンを受け付けませんでした。もう一度ペアリングしてください。', "The sync server did not accept this device's token; pair it again."],
  'server.forbidden': ['同期サーバーが、この端末の記録を別のユーザーのものとして受け付けませんでした。', "The sync server refused this device's records as another user's."],
  'server.notFound': ['同期サーバーがこのアプリの要求に対応していません（サーバーがアプリより古い可能性があります）。', 'The sync server does not offer what the app asked for (it may be older than the app).'],
  'server.conflict': ['同期サーバーに保存されている記録と食い違うため、受け付けられませんでした。', 'The sync server refused it: it does not match the records the server holds.'],
  'server.tooLarge': ['送る内容が大きすぎるか、このアカウントの保存容量の上限を超えるため、同期サーバーが受け付けませんでした。', "The sync server refused it as too large, or as beyond this account's storage limit."],
  'server.invalid': ['同期サーバーが内容を受け付けませんでした（サーバーの規則に合いません）。', "The sync server refused the content: it breaks one of the server's rules."],
  'server.unavailable': ['サーバーに保存されたこのアカウントのデータが損傷しています。しばらくしてからやり直してください（管理者が修復します）。', "The server's data for this account is damaged; try again later (its operator repairs it)."],
  'server.gone': ['期限切れか、すでに使われています。', 'It has expired or was used already.'],
  'server.busy': ['同期サーバーへの要求が多すぎます。{0}秒後にもう一度試してください。', 'Too many requests to the sync server; try again in {0} seconds.'],
  'server.internal': ['同期サーバーで障害が起きました（HTTP {0}）。しばらくしてからやり直してください。', 'The sync server failed (HTTP {0}); try again later.'],
  'server.status': ['同期サーバーが受け付けませんでした（HTTP {0}）。', 'The sync server refused it (HTTP {0}).'],
  // The browser's storage (StoreError.reason).
  'storage.full': ['端末の空き容量が足りないため、保存できませんでした。写真や使わないアプリを削除して空き容量を増やしてから、やり直してください。', 'This device is out of free space, so nothing was saved; free some space (delete photos or apps you do not use) and try again.'],
  'failure.full': ['端末の空き容量が足りないため、同期を途中で止めました（この端末の記録は何も消えていません）。空き容量を増やしてから、もう一度同期してください。', 'This device is out of free space, so the sync stopped (nothing on this device was lost); free some space, then sync again.'],
  'storage.refused': ['ブラウザがこのアプリのデータを保存しなかったため、保存できませんでした。', "The browser refused to save the app's data, so the change was not saved."],
  'storage.missing': ['このブラウザはこの端末に記録を保存できません（プライベートブラウズでは保存できないことがあります）。', 'This browser cannot save records on this device (private browsing may prevent it).'],
  'storage.unreadable': ['この端末に保存してある記録を読み込めませんでした。ページを読み込み直してください。', 'The app could not read the records saved on this device; reload the page.'],
});
