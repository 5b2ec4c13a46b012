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
///
/// Dates are labels in both languages (`en`: the date groups `station find --date` takes, such
/// as 2013-09 or 2013-unknown; never a raw comp_date code), and a station list names each
/// station as `station find` does (`StationLabel`: s_id, name, operator, lines), so that three
/// 新宿駅 read apart.
extension StatsReport {
    package func table(_ language: OutputLanguage = .en, labels: StationLabel? = nil) -> String {
        var lines = [title(language)]
        switch language {
        case .en: lines += hierarchy == .dates ? englishDates() : englishCounts()
        case .ja: lines += japanese()
        }
        if groups == nil { lines += stationList(language, labels) }
        return lines.joined(separator: "\n")
    }

    private func title(_ language: OutputLanguage) -> String {
        switch language {
        case .en:
            let labels = hierarchy == .dates ? path.map(Self.englishDateLabel) : pathLabels
            return "\(hierarchy.rawValue): " + (path.isEmpty ? "all" : labels.joined(separator: " › "))
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
                let label = hierarchy == .dates ? Self.englishDateLabel(g.key) : g.label
                lines.append(numbers(g.counts) + "  " + DisplayWidth.pad(g.key, keyWidth) + "  " + label)
            }
        } else {
            lines.append(header)
            lines.append(numbers(counts))
        }
        return lines
    }

    /// A dates KEY in English: the date group `station find --date` takes for it (2013, 2013-09,
    /// 2013-unknown, 2013-09-01, 2013-09-unknown, unknown) or "not completed".
    private static func englishDateLabel(_ key: String) -> String {
        let digits = Array(key)
        func part(_ range: Range<Int>) -> String { String(digits[range]) }
        switch (key, digits.count) {
        case ("incomplete", _): return "not completed"
        case (_, 6): return part(0..<4) + "-" + (part(4..<6) == "00" ? "unknown" : part(4..<6))
        case (_, 8): return part(0..<4) + "-" + part(4..<6) + "-" + (part(6..<8) == "00" ? "unknown" : part(6..<8))
        default: return key
        }
    }

    /// The stations of a last level: date label, station label (or s_id and name without a
    /// catalogue), memo.
    private func stationList(_ language: OutputLanguage, _ labels: StationLabel?) -> [String] {
        let list = stations ?? []
        let dates = list.map { ((try? CompletionDate(code: $0.compDate)) ?? .notCompleted).label(language) }
        let dateHeader = language == .ja ? "乗下車日" : "date"
        let dateWidth = max(DisplayWidth.of(dateHeader), dates.map(DisplayWidth.of).max() ?? 0)
        var lines = [DisplayWidth.pad(dateHeader, dateWidth) + (language == .ja ? "  s_id  駅名  事業者  路線  メモ" : "  s_id  name  operator  lines  memo")]
        for (s, date) in zip(list, dates) {
            let station = labels?.text(s.station) ?? "\(s.station)  \(s.name)"
            lines.append(DisplayWidth.pad(date, dateWidth) + "  " + station + Self.memo(s))
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
        }
        return lines
    }
}
