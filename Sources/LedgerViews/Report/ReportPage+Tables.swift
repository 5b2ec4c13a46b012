import LedgerCatalog
import LedgerCore

/// The four hierarchies as tables with progress bars: operator types with their operators,
/// prefectures, first kana of the readings, years (a year's share of all completions).
extension ReportPage {
    func hierarchies(_ engine: StatisticsEngine) throws -> String {
        let types = try engine.report(.operators, path: [])
        var operatorRows: [String] = []
        for type in types.groups ?? [] {
            operatorRows.append(Self.row(type, group: true))
            for op in try engine.report(.operators, path: [type.key]).groups ?? [] {
                operatorRows.append(Self.row(op, group: false))
            }
        }
        let dates = try engine.report(.dates, path: [])
        return Self.section("operators", words.operators, types.counts, operatorRows)
            + Self.section("prefectures", words.prefectures, try engine.report(.prefectures, path: []))
            + Self.section("readings", words.readings, try engine.report(.yomi, path: []))
            + Self.section("years", words.years, dates, dates.groups?.filter { $0.key != "incomplete" } ?? [])
    }

    private static func section(_ id: String, _ title: String, _ report: StatsReport) -> String {
        section(id, title, report.counts, (report.groups ?? []).map { row($0, group: false) })
    }

    private static func section(_ id: String, _ title: String, _ report: StatsReport, _ groups: [StatsGroup]) -> String {
        section(id, title, report.counts, groups.map { row($0, group: false) })
    }

    private static func section(_ id: String, _ title: String, _ counts: StatsCounts, _ rows: [String]) -> String {
        ReportTemplate.render("hierarchy", ["id": id, "title": title, "total": total(counts), "rows": rows.joined(separator: "\n")])
    }

    private static func row(_ g: StatsGroup, group: Bool) -> String {
        ReportTemplate.render(group ? "hierarchy-group-row" : "hierarchy-row",
                              ["label": g.label, "bar": bar(g.counts), "total": total(g.counts)])
    }
}
