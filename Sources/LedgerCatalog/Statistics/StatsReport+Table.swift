import LedgerCore

/// `stats` without `--json`. Every language prints a title, this level's own counts, then one
/// row per group or per station.
///
/// - `en`, ordinary hierarchies: the columns `total / completed / rate / remaining`, key, label.
/// - `en`, dates: `stations / share / out of` — a date group is a number of stations and its share
///   of the level above (all completions for a year or 年月日不明, all stations for 未乗下車), so
///   the table never reads 未乗下車 as "all done".
/// - `ja`: the apps' description `N駅中 M駅 R.r% 残りK駅` after key and label; date groups
///   drop 「残り」 (Schemas/domain-rules.md §18) and get a 駅数 column of their own.
extension StatsReport {
    package func table(_ language: OutputLanguage = .en) -> String {
        var lines = [title(language)]
        switch language {
        case .en: lines += hierarchy == .dates ? englishDates() : englishCounts()
        case .ja: lines += japanese()
        }
        return lines.joined(separator: "\n")
    }

    private func title(_ language: OutputLanguage) -> String {
        switch language {
        case .en:
            return "\(hierarchy.rawValue): " + (path.isEmpty ? "all" : pathLabels.joined(separator: " › "))
        case .ja:
            let names: [StatsHierarchy: String] = [.operators: "全事業者", .prefectures: "全都道府県", .yomi: "読み", .dates: "乗下車日"]
            return ([names[hierarchy]!] + pathLabels).joined(separator: " › ")
        }
    }

    /// A header of slash-separated words and the values right-aligned where each word ends.
    private static func columns(_ header: String) -> (String, ([String]) -> String) {
        var ends: [Int] = [], offset = 0
        for word in header.split(separator: " / ") {
            offset += (ends.isEmpty ? 0 : 3) + word.count
            ends.append(offset)
        }
        return (header, { values in
            var line = ""
            for (value, end) in zip(values, ends) {
                line += String(repeating: " ", count: max(line.isEmpty ? 0 : 1, end - line.count - value.count)) + value
            }
            return line
        })
    }

    private func englishCounts() -> [String] {
        let (header, row) = Self.columns("total / completed / rate / remaining")
        return englishRows(header) { row(["\($0.total)", "\($0.completed)", $0.rateText, "\($0.remaining)"]) }
    }

    private func englishDates() -> [String] {
        let (header, row) = Self.columns("stations / share / out of")
        return englishRows(header) { row(["\($0.completed)", $0.rateText, "\($0.total)"]) }
    }

    private func englishRows(_ header: String, _ numbers: (StatsCounts) -> String) -> [String] {
        var lines: [String] = []
        if let groups {
            let keyWidth = max(3, groups.map { DisplayWidth.of($0.key) }.max() ?? 0)
            lines.append(header + "  " + DisplayWidth.pad("key", keyWidth) + "  label")
            lines.append(numbers(counts) + "  " + DisplayWidth.pad("", keyWidth) + "  (this level)")
            for g in groups {
                lines.append(numbers(g.counts) + "  " + DisplayWidth.pad(g.key, keyWidth) + "  " + g.label)
            }
        } else {
            lines.append(header)
            lines.append(numbers(counts))
            lines.append("station  comp_date  name  memo")
            for s in stations ?? [] {
                lines.append(DisplayWidth.pad("\(s.station)", 7) + "  " + DisplayWidth.pad("\(s.compDate)", 9) + "  " + s.name + Self.memo(s))
            }
        }
        return lines
    }

    private static func memo(_ s: StatsStation) -> String {
        s.memo.isEmpty ? "" : "  " + JSONText.quoted(s.memo)
    }

    /// `N駅中 M駅 R.r% 残りK駅`; without 「残り」 for date groups.
    private static func description(_ c: StatsCounts, dateGroup: Bool) -> String {
        "\(c.total)駅中 \(c.completed)駅 \(c.rateText)" + (dateGroup ? "" : " 残り\(c.remaining)駅")
    }

    private func japanese() -> [String] {
        let dates = hierarchy == .dates
        // The dates hierarchy's own header is 「全体」 (all stations), an ordinary group.
        var lines = [Self.description(counts, dateGroup: dates && !path.isEmpty)]
        if let groups {
            let keyWidth = max(4, groups.map { DisplayWidth.of($0.key) }.max() ?? 0)
            let labelWidth = max(4, groups.map { DisplayWidth.of($0.label) }.max() ?? 0)
            let countWidth = max(4, groups.map { "\($0.counts.completed)".count }.max() ?? 0)
            let count: (StatsGroup?) -> String = { g in
                dates ? DisplayWidth.padLeft(g.map { "\($0.counts.completed)" } ?? "駅数", countWidth) + "  " : ""
            }
            lines.append(DisplayWidth.pad("キー", keyWidth) + "  " + DisplayWidth.pad("名前", labelWidth) + "  " + count(nil) + "統計")
            for g in groups {
                lines.append(DisplayWidth.pad(g.key, keyWidth) + "  " + DisplayWidth.pad(g.label, labelWidth) + "  " + count(g)
                             + Self.description(g.counts, dateGroup: dates))
            }
        } else {
            let list = stations ?? []
            let labels = list.map { ((try? CompletionDate(code: $0.compDate)) ?? .notCompleted).label(.ja) }
            let dateWidth = max(8, labels.map(DisplayWidth.of).max() ?? 0)
            lines.append("s_id    " + DisplayWidth.pad("乗下車日", dateWidth) + "  駅名  メモ")
            for (s, label) in zip(list, labels) {
                lines.append(DisplayWidth.pad("\(s.station)", 6) + "  " + DisplayWidth.pad(label, dateWidth) + "  " + s.name + Self.memo(s))
            }
        }
        return lines
    }
}
