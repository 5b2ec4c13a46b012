import LedgerCatalog
import LedgerCore

/// The four hierarchies as tables with progress bars: operator types with their operators,
/// prefectures, first kana of the readings, years (a year's share of all completions).
extension ReportPage {
    func hierarchies(_ engine: StatisticsEngine) throws -> String {
        let types = try engine.report(.operators, path: [])
        var operatorRows: [String] = []
        for type in types.groups ?? [] {
            operatorRows.append(row(words.operatorType(type), group: true))
            for op in try engine.report(.operators, path: [type.key]).groups ?? [] {
                operatorRows.append(row(op, group: false))
            }
        }
        let dates = try engine.report(.dates, path: [])
        let prefectures = try engine.report(.prefectures, path: [])
        return section("operators", words.operators, types.counts, operatorRows)
            + section("prefectures", words.prefectures, prefectures, (prefectures.groups ?? []).map(words.prefecture))
            + section("readings", words.readings, try engine.report(.yomi, path: []))
            + section("years", words.years, dates, (dates.groups ?? []).filter { $0.key != "incomplete" }.map(words.year))
    }

    private func section(_ id: String, _ title: String, _ report: StatsReport) -> String {
        section(id, title, report.counts, (report.groups ?? []).map { row($0, group: false) })
    }

    private func section(_ id: String, _ title: String, _ report: StatsReport, _ groups: [StatsGroup]) -> String {
        section(id, title, report.counts, groups.map { row($0, group: false) })
    }

    private func section(_ id: String, _ title: String, _ counts: StatsCounts, _ rows: [String]) -> String {
        ReportTemplate.render("hierarchy", ["id": id, "title": title, "total": words.total(counts), "rows": rows.joined(separator: "\n")])
    }

    private func row(_ g: StatsGroup, group: Bool) -> String {
        ReportTemplate.render(group ? "hierarchy-group-row" : "hierarchy-row",
                              ["label": g.label, "bar": Self.bar(g.counts), "total": words.total(g.counts)])
    }
}
