import ArgumentParser
import LedgerCatalog
import LedgerCore

extension StatsHierarchy: ExpressibleByArgument {}

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Completion statistics: operators, prefectures, yomi (reading) or dates.",
        discussion: """
            With no KEY the top level; each KEY descends one level — operators: type code, o_id, \
            l_id; prefectures: pref code; yomi: one kana, then two; dates: a year (2013), unknown or \
            incomplete, then YYYYMM (YYYY00: month unknown), then YYYYMMDD (YYYYMM00: day unknown). \
            The last level lists the stations, each named as 'station find' does \
            (s_id, name, operator, lines). Only enabled stations count (and, at the operator \
            levels, enabled operators; at the line level, enabled lines); rates are truncated \
            per-mille. --json follows Schemas/stats.schema.json; --lang ja prints the apps' \
            「N駅中 M駅 R.r% 残りK駅」. The dates table shows each date group as a number of stations \
            and its share of the level above (stations / share / out of).
            """)

    @OptionGroup var options: LedgerOptions
    @Argument(help: "operators, prefectures, yomi or dates.") var hierarchy: StatsHierarchy
    @Argument(help: "Keys descending the hierarchy.") var keys: [String] = []
    @Flag(help: "Print one JSON object.") var json = false
    @OptionGroup var time: AsOfOptions
    @OptionGroup var language: LanguageOptions

    func run() throws {
        let ledger = try options.openForReading()
        defer { ledger.close() }
        let catalog = try CatalogSupport.requireCatalog(ledger)
        let projection = try time.projection(ledger)
        let snapshot = try catalog.loadSnapshot()
        let engine = StatisticsEngine(catalog: snapshot, projection: projection)
        let report = try engine.report(hierarchy, path: keys)
        print(json ? try JSONOutput.line(report) : report.table(language.language, labels: StationLabel(snapshot)))
    }
}
