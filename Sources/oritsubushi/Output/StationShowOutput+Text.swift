import LedgerCatalog
import LedgerCore

extension StationShowOutput {
    /// `station show` without `--json`: one labelled line per fact. `en` keeps the tool's
    /// wording; `ja` uses the apps' words (乗下車, 最終更新日時 yyyy/MM/dd HH:mm:ss JST,
    /// 「(一度も更新されていません)」) and their date labels.
    func text(_ language: OutputLanguage, asOf: String?) -> String {
        let ja = language == .ja
        var rows: [(String, String)] = []
        if let s = catalogued {
            let disabled = ja ? "  [無効: どこにも数えません]" : "  [disabled: counted nowhere]"
            rows.append((ja ? "駅" : "station", "\(station) \(s.name) (\(s.yomi))\(s.enabled ? "" : disabled)"))
            rows.append((ja ? "事業者" : "operator",
                         "\(s.operator.id) \(s.operator.name.isEmpty ? "?" : s.operator.name) (\(CatalogNames.operatorType(s.operator.type)))"))
            rows.append((ja ? "都道府県" : "prefecture", "\(s.pref) \(CatalogNames.prefecture(s.pref)), \(s.address)"))
            let lineList = s.lines.map { "\($0.id) \($0.name)\($0.enabled ? "" : ja ? " (無効)" : " (disabled)")" }
            rows.append((ja ? "路線" : "lines", lineList.isEmpty ? (ja ? "なし" : "none") : lineList.joined(separator: ", ")))
            rows.append((ja ? "ウィキペディア" : "wikipedia", s.wikipediaURL))
        } else {
            rows.append((ja ? "駅" : "station", "\(station) (\(ja ? "駅データ未取り込み" : "no catalogue imported"))"))
        }
        let date = (try? CompletionDate(code: compDate)) ?? .notCompleted
        let dateText = ja ? date.label(.ja) : date.isCompleted ? "\(date)" : "not completed"
        rows.append((ja ? "乗下車" : "completion", "\(dateText) (comp_date \(compDate))"))
        rows.append((ja ? "メモ" : "memo", memo.isEmpty ? (ja ? "(なし)" : "(none)") : JSONText.quoted(memo)))
        let updated = updateDate > 0 ? JapanTime.text(milliseconds: updateDate * 1000, language) : ja ? "(一度も更新されていません)" : "never"
        rows.append((ja ? "最終更新日時" : "updated", "\(updated) (update_date \(updateDate))"))
        let history = ja ? "\(self.history)件\(asOf.map { " (\($0) 時点)" } ?? "")"
                         : "\(self.history) event\(self.history == 1 ? "" : "s")\(asOf.map { " as of \($0)" } ?? "")"
        rows.append((ja ? "履歴" : "history", history))
        let width = ja ? 16 : 12
        return rows.map { DisplayWidth.pad($0.0, width) + $0.1 }.joined(separator: "\n")
    }
}
