import ArgumentParser
import LedgerCatalog
import LedgerCore

struct StationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "station",
        abstract: "Find stations in the catalogue and show one station.",
        subcommands: [StationFind.self, StationShow.self])
}

enum MatchMode: String, EnumerableFlag {
    case prefix, partial

    static func help(for value: MatchMode) -> ArgumentHelp? {
        switch value {
        case .prefix: return "Match the start of the text (前方一致; the default)."
        case .partial: return "Match anywhere in the text (部分一致)."
        }
    }
}

enum SearchBy: String, ExpressibleByArgument, CaseIterable {
    case name, yomi, line
    var field: CatalogStore.SearchField { CatalogStore.SearchField(rawValue: rawValue)! }
}

struct StationFind: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find",
        abstract: "Find enabled stations by name (including 駅), reading, or line name.",
        discussion: "Prints one station per line: s_id, name, reading, operator, lines, completion date.")

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The text to look for.") var text: String
    @Option(help: "What to search: name, yomi or line.") var by: SearchBy = .name
    @Flag var match: MatchMode = .prefix
    @Flag(help: "Also list disabled (abolished or superseded) stations.") var includeDisabled = false
    @Flag(help: "Print JSON Lines.") var json = false

    func run() throws {
        let ledger = try options.open()
        defer { ledger.close() }
        let catalog = try CatalogSupport.requireCatalog(ledger)
        let ids = try catalog.find(text, by: by.field, partial: match == .partial, includeDisabled: includeDisabled)
        guard !ids.isEmpty else {
            Terminal.error("no station matches '\(text)'")
            return
        }
        let snapshot = try catalog.loadSnapshot()
        let projection = try ProjectionUpdater.update(ledger)
        var out = OutputBuffer()
        for id in ids {
            guard let s = snapshot.station(id) else { continue }
            let op = snapshot.operator(s.operatorID)?.name ?? ""
            let lines = snapshot.lines(of: id).filter(\.enabled).map(\.name)
            let date = projection.row(id)?.completionDate ?? .notCompleted
            if json {
                out.writeLine("{\"station\":\(id),\"name\":\(JSONText.quoted(s.name)),\"yomi\":\(JSONText.quoted(s.yomi)),\"operator\":\(JSONText.quoted(op)),\"lines\":[\(lines.map(JSONText.quoted).joined(separator: ","))],\"enabled\":\(s.enabled),\"comp_date\":\(date.code)}")
            } else {
                out.writeLine("\(id)  \(s.name)  \(s.yomi)  \(op)  \(lines.joined(separator: ","))  \(date)\(s.enabled ? "" : "  (disabled)")")
            }
        }
        out.flush()
    }
}

struct StationShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a station: catalogue data, lines, completion, memo, last update, history count.")

    @OptionGroup var options: LedgerOptions
    @OptionGroup var stationArgument: StationArgument
    @Option(help: "Answer as of this time (ISO 8601, Japan time without an offset, or Unix seconds).")
    var asOf: String?
    @Flag(help: "Print as JSON.") var json = false

    func validate() throws {
        _ = try asOf.map { time throws(ValidationError) in try CatalogSupport.parseTime(time, option: "--as-of") }
    }

    func run() throws {
        let ledger = try options.open()
        defer { ledger.close() }
        let station = try stationArgument.resolve(in: ledger)
        guard station > 0 else { throw LedgerError(.badInput, "station 0 is not a station id") }
        try CatalogSupport.requireKnownStation(station, ledger: ledger)
        let snapshot = try CatalogStore.open(ledgerDirectory: ledger.directory)?.loadSnapshot()
        let projection = try CatalogSupport.projection(ledger, asOf: asOf)
        let row = projection.row(station) ?? ProjectedStation()
        let s = snapshot?.station(station)
        let op = s.flatMap { snapshot?.operator($0.operatorID) }
        let lines = snapshot?.lines(of: station) ?? []
        if json {
            print(try JSONOutput.line(StationShowOutput(station: station, row: row, catalogued: s, operator: op,
                                                                    lines: lines)))
            return
        }
        if let s {
            print("station     \(station) \(s.name) (\(s.yomi))\(s.enabled ? "" : "  [disabled: counted nowhere]")")
            print("operator    \(s.operatorID) \(op?.name ?? "?") (\(CatalogNames.operatorType(op?.type ?? 0)))")
            print("prefecture  \(s.pref) \(CatalogNames.prefecture(s.pref)), \(s.address)")
            print("lines       \(lines.isEmpty ? "none" : lines.map { "\($0.id) \($0.name)\($0.enabled ? "" : " (disabled)")" }.joined(separator: ", "))")
        } else {
            print("station     \(station) (no catalogue imported)")
        }
        let date = row.completionDate
        print("completion  \(date.isCompleted ? "\(date)" : "not completed") (comp_date \(row.compDate))")
        print("memo        \(row.memo.isEmpty ? "(none)" : JSONText.quoted(row.memo))")
        print("updated     \(CatalogSupport.japanTime(row.updateDate)) (update_date \(row.updateDate))")
        print("history     \(row.events) event\(row.events == 1 ? "" : "s")\(asOf.map { " as of \($0)" } ?? "")")
    }
}
