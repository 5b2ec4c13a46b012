import LedgerCore

/// The four hierarchies of the original apps (domain.md §4).
package enum StatsHierarchy: String, Sendable, CaseIterable {
    case operators, prefectures, yomi, dates
}

/// The common statistics of a group (domain.md §4.1).
package struct StatsCounts: Sendable, Equatable {
    package var total: Int
    package var completed: Int
    package init(total: Int, completed: Int) {
        self.total = total
        self.completed = completed
    }
    package var remaining: Int { total - completed }
    /// `completed × 1000 ÷ total`, truncated; −1 when the total is 0.
    package var ratioPermille: Int { total == 0 ? -1 : completed * 1000 / total }
    /// `R.r%`, truncated as the apps show it.
    package var rateText: String { total == 0 ? "-" : "\(ratioPermille / 10).\(ratioPermille % 10)%" }
}

package struct StatsGroup: Sendable, Equatable {
    package var key: String
    package var label: String
    package var counts: StatsCounts
}

package struct StatsStation: Sendable, Equatable, Encodable {
    package var station: UInt32
    package var name: String
    package var compDate: UInt32
    package var memo: String

    enum CodingKeys: String, CodingKey {
        case station, name, compDate = "comp_date", memo
    }
}

/// One level of a hierarchy: its own counts, then either its groups or, at the last level, its
/// stations in the original order. Encoded as `stats --json` (Schemas/stats.schema.json,
/// `StatsReport+Encodable.swift`).
package struct StatsReport: Sendable, Equatable {
    package var hierarchy: StatsHierarchy
    package var path: [String]
    /// A human title of each path element.
    package var pathLabels: [String]
    package var counts: StatsCounts
    package var groups: [StatsGroup]?
    package var stations: [StatsStation]?

    /// The aligned table: a title, the header line `total / completed / rate / remaining`
    /// followed by key and label, this level's own counts, then one row per group (numbers
    /// right-aligned under their header words) or one row per station.
    package func table() -> String {
        let header = "total / completed / rate / remaining"
        // Column where each header word ends.
        let ends = [5, 17, 24, 36]
        func numbers(_ c: StatsCounts) -> String {
            var line = ""
            for (value, end) in zip(["\(c.total)", "\(c.completed)", c.rateText, "\(c.remaining)"], ends) {
                let pad = max(1, end - line.count - value.count)
                line += String(repeating: " ", count: line.isEmpty ? max(0, end - value.count) : pad) + value
            }
            return line
        }
        var lines: [String] = []
        let title = path.isEmpty ? "\(hierarchy.rawValue): all" : "\(hierarchy.rawValue): " + pathLabels.joined(separator: " › ")
        lines.append(title)
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
                let memo = s.memo.isEmpty ? "" : "  " + JSONText.quoted(s.memo)
                lines.append(DisplayWidth.pad("\(s.station)", 7) + "  " + DisplayWidth.pad("\(s.compDate)", 9) + "  " + s.name + memo)
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// Terminal column widths (East Asian wide characters take two columns).
package enum DisplayWidth {
    package static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width($1) }
    }

    static func width(_ s: Unicode.Scalar) -> Int {
        switch s.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    package static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - of(text)))
    }
}
