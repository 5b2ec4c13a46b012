import LedgerCore

/// The four hierarchies of the original apps (Schemas/domain-rules.md §19–§22).
package enum StatsHierarchy: String, Sendable, CaseIterable {
    case operators, prefectures, yomi, dates
}

/// The common statistics of a group (Schemas/domain-rules.md §18).
package struct StatsCounts: Sendable, Equatable {
    package var total: Int
    package var completed: Int
    package init(total: Int, completed: Int) {
        (self.total, self.completed) = (total, completed)
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
/// `StatsReport+Encodable.swift`); printed as a table by `StatsReport+Table.swift`.
package struct StatsReport: Sendable, Equatable {
    package var hierarchy: StatsHierarchy
    package var path: [String]
    /// A human title of each path element.
    package var pathLabels: [String]
    package var counts: StatsCounts
    package var groups: [StatsGroup]?
    package var stations: [StatsStation]?

    /// Goes down to the group `id` at path element `level`: the path keeps its canonical key,
    /// the labels "id name" (an operator, a line or a prefecture: docs/ledger-cli.md "stats").
    mutating func enter(level: Int, id: Int64, name: String) {
        path[level] = String(id)
        pathLabels.append("\(id) \(name)")
    }
}
