import LedgerCore

/// The wording of the edit commands, `history`, `replay`, `conflicts`, `merge`, `sync` and `import` in one place,
/// in `ja` (the apps' words: 乗下車日, メモ) or `en` (`--lang`, `LanguageOptions`). Errors stay
/// in English; JSON never depends on the language.
struct Words {
    let language: OutputLanguage
    private var ja: Bool { language == .ja }

    init(_ language: OutputLanguage) { self.language = language }

    // Events (history, replay text).
    var station: String { ja ? "駅" : "station" }
    var date: String { ja ? "乗下車日" : "date" }
    var memo: String { ja ? "メモ" : "memo" }
    var catalogueVersion: String { ja ? "駅データ版" : "catalogue version" }
    var deviceName: String { ja ? "端末名" : "device name" }
    func knowledgeMark(_ devices: Int) -> String {
        ja ? "既知マーク (\(devices)台の端末の記録を反映済)" : "knowledge mark (has seen \(devices) devices' events)"
    }
    func time(_ hlc: HybridTimestamp) -> String { JapanTime.text(hlc, language) }
    /// The tag after a station edit: "(user)", "(import)", "(catalog)".
    func origin(_ origin: EventOrigin) -> String {
        guard ja else { return "(\(origin))" }
        switch origin {
        case .user: return "(入力)"
        case .import: return "(取り込み)"
        case .catalog: return "(駅データ更新)"
        }
    }

    // Edits.
    var memoSet: String { ja ? "メモ設定" : "memo set" }
    var memoCleared: String { ja ? "メモ消去" : "memo cleared" }
    var listSeparator: String { ja ? "、" : ", " }
    func event(_ device: DeviceID, _ seq: UInt64) -> String { ja ? " (記録 \(device)#\(seq))" : " (event \(device)#\(seq))" }
    var wouldBeRecorded: String { ja ? " (記録予定)" : " (would be recorded)" }
    func unchanged(date: CompletionDate, memoEmpty: Bool) -> String {
        ja ? "変更なし (乗下車日 \(date.label(language))、メモ\(memoEmpty ? "なし" : "は指定どおり"))。記録しませんでした"
           : "unchanged (date \(date.label(language)), memo \(memoEmpty ? "empty" : "as given")); nothing recorded"
    }
    func batchSummary(total: Int, changed: Int, dryRun: Bool) -> String {
        if ja {
            return "一括記録 \(total)駅: \(changed)駅を記録\(dryRun ? "予定" : "")、\(total - changed)駅は変更なし\(dryRun ? " (--dry-run: 何も書き込んでいません)" : "")"
        }
        let outcome = dryRun ? "\(changed) would be recorded" : "\(changed) recorded"
        return "\(Plural.count(total, "station")) in the batch: \(outcome), \(total - changed) unchanged\(dryRun ? "; nothing was written (--dry-run)" : "")"
    }

    // Conflicts and merge.
    func conflictField(_ field: String) -> String { field == "date" ? date : memo }
    func kept(_ winner: String, _ winnerWho: String, over loser: String, _ loserWho: String) -> String {
        ja ? "\(winner) (\(winnerWho)) を採用、\(loser) (\(loserWho)) は不採用" : "kept \(winner) (\(winnerWho)) over \(loser) (\(loserWho))"
    }
    func at(_ who: String, _ hlc: HybridTimestamp) -> String { ja ? "\(who) \(time(hlc))" : "\(who) at \(time(hlc))" }
    /// `conflicts resolve`: "201111  津  JR東海  紀勢本線: kept the current date and memo; 2 conflicts resolved".
    func resolved(_ station: String, fields: [String], count: Int) -> String {
        ja ? "\(station): 現在の\(fields.map(conflictField).joined(separator: "と"))を採用し、競合 \(count)件を解決しました"
           : "\(station): kept the current \(fields.joined(separator: " and ")); \(Plural.count(count, "conflict")) resolved"
    }
    var noConflicts: String { ja ? "競合はありません" : "no conflicts" }
    func conflictCount(_ n: Int) -> String { ja ? "競合 \(n)件" : Plural.count(n, "conflict") }
    func moreConflicts(_ n: Int) -> String {
        ja ? "… ほか\(n)件: `oritsubushi conflicts` で表示" : "… and \(n) more: run `oritsubushi conflicts`"
    }
    func synced(with server: String, pulled: Int, pushed: Int, newConflicts: Int, catalogueVersion: UInt32?, retries: Int = 0) -> String {
        let version = catalogueVersion.map { ja ? "。\(self.catalogueVersion) \($0)" : "; \(self.catalogueVersion) \($0)" } ?? ""
        let again = retries == 0 ? "" : ja ? "（接続が切れたため \(retries)件の要求を再送）" : " (\(Plural.count(retries, "request")) sent again after the server closed the connection)"
        return ja ? "\(server) と同期しました: \(pulled)件を受信、\(pushed)件を送信。新しい競合 \(newConflicts)件\(version)\(again)"
                  : "synced with \(server): pulled \(Plural.count(pulled, "event")), pushed \(pushed); \(Plural.count(newConflicts, "new conflict"))\(version)\(again)"
    }
    // Import (`import oritsubushi-tsv|sqlite`).
    func importPlanned(rows: Int, events: Int, unchanged: Int) -> String {
        ja ? "試行: \(rows)行を取り込む予定 (記録 \(events)件を追加、\(unchanged)行は変更なし)。何も書き込んでいません"
           : "dry run: would import \(Plural.count(rows, "row")): \(Plural.count(events, "event")) to append, \(Plural.count(unchanged, "row")) unchanged; nothing was written"
    }
    func imported(rows: Int, events: Int, unchanged: Int) -> String {
        ja ? "\(rows)行を取り込みました (記録 \(events)件を追加、\(unchanged)行は変更なし)"
           : "imported \(Plural.count(rows, "row")): \(Plural.count(events, "event")) appended, \(Plural.count(unchanged, "row")) unchanged"
    }
    func carryOversAppended(_ events: Int) -> String {
        ja ? "新しい駅IDへの引き継ぎ: 記録 \(events)件を追加" : "carry-overs: \(Plural.count(events, "event")) appended"
    }
    func merged(events: Int, from other: String, batches: Int, duplicates: Int, newConflicts: Int) -> String {
        ja ? "\(other) から \(events)件の記録を取り込みました (\(batches)回に分けて、\(duplicates)件は既に保持)。新しい競合 \(newConflicts)件"
           : "merged \(Plural.count(events, "event")) from \(other) in \(Plural.count(batches, "batch", plural: "batches")) (\(duplicates) already held); \(Plural.count(newConflicts, "new conflict"))"
    }
}
