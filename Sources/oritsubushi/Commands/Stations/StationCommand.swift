import ArgumentParser
import LedgerCatalog
import LedgerCore

struct StationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "station",
        abstract: "Find stations in the catalogue and show one station.",
        subcommands: [StationFind.self, StationShow.self])
}

extension StationQuery.Completion: EnumerableFlag {
    package static func help(for value: StationQuery.Completion) -> ArgumentHelp? {
        switch value {
        case .completed: return "Only completed stations (comp_date > 0; 済)."
        case .incomplete: return "Only stations not completed yet (comp_date = 0; 未)."
        }
    }
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
        abstract: "Find enabled stations by name (including 駅), reading or line name, by prefecture, date or completion.",
        discussion: """
            TEXT and the filters combine (all must hold); with neither, every enabled station is listed. \
            --date takes the apps' date groups: YYYY (every date in that year, fuzzy or not), YYYY-MM, \
            YYYY-MM-DD, unknown (date unknown), YYYY-unknown (month unknown), YYYY-MM-unknown (day unknown). \
            TEXT begins the name or reading (anywhere in it with --partial), folded as STATION arguments \
            are (readings in hiragana or katakana, full- and half-width alike); a typed 駅 ends the name, \
            as the apps' search did (津駅 finds the three 津駅, 津 also 津新町駅); --by line matches any part of a line's name or its \
            l_id, as --line does. Prints one station per line: s_id, name, reading, operator, lines, \
            completion date.
            """)

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The text to look for (optional).") var text: String?
    @Option(help: "What to search: name, yomi or line (default: the name or the reading).") var by: SearchBy?
    @Flag var match: MatchMode?
    @Option(help: ArgumentHelp("A prefecture: its code 1–47 or the start of its name (三重, 東京).", valueName: "pref"))
    var pref: String?
    @Option(help: ArgumentHelp("A completion date group: YYYY, YYYY-MM, YYYY-MM-DD, unknown, YYYY-unknown or YYYY-MM-unknown.",
                               valueName: "date"))
    var date: String?
    @Flag(help: "Only completed (comp_date > 0) or only not completed (comp_date = 0) stations.")
    var completion: StationQuery.Completion?
    @Flag(help: "Also list disabled (abolished or superseded) stations.") var includeDisabled = false
    @Flag(help: "Print JSON Lines.") var json = false
    @OptionGroup var language: LanguageOptions

    func validate() throws {
        if text == nil, by != nil || match != nil {
            throw ValidationError("--by, --prefix and --partial need TEXT to search for")
        }
        if let pref, StationResolver.prefectureCodes(matching: pref) == nil {
            throw ValidationError("--pref '\(pref)' is not a prefecture code (1–47) or the start of a prefecture's name")
        }
        if let date {
            do { _ = try CompletionDateGroup(parsing: date) } catch { throw ValidationError(error.description) }
            if completion == .incomplete { throw ValidationError("--date selects completed stations, so it cannot be combined with --incomplete") }
        }
    }

    /// The query the arguments describe (validate() has checked them).
    var query: StationQuery {
        StationQuery(text: text, field: by?.field ?? .any, partial: match == .partial, includeDisabled: includeDisabled,
                     prefectures: pref.map { StationResolver.prefectureCodes(matching: $0) ?? [] },
                     dateGroup: date.flatMap { try? CompletionDateGroup(parsing: $0) }, completion: completion)
    }

    func run() throws {
        let view = try CatalogView.open(options)
        defer { view.close() }
        let (catalog, projection) = (view.catalog, view.projection)
        let ids = try catalog.stations(query) { projection.row($0)?.compDate ?? 0 }
        guard !ids.isEmpty else {
            Terminal.error(text.map { "no station matches '\($0)'\(pref != nil || date != nil || completion != nil ? " with these filters" : "")" }
                           ?? "no station matches these filters")
            return
        }
        let snapshot = try catalog.loadSnapshot()
        let lang = language.language
        let labels = StationLabel(snapshot)
        var out = OutputBuffer()
        for id in ids {
            guard let s = snapshot.station(id) else { continue }
            let op = snapshot.operator(s.operatorID)?.name ?? ""
            let lines = snapshot.lines(of: id).filter(\.enabled).map(\.name)
            let date = projection.row(id)?.completionDate ?? .notCompleted
            if json {
                out.writeLine(try StationMatchOutput(station: id, name: s.name, yomi: s.yomi, operator: op, lines: lines,
                                                     enabled: s.enabled, comp_date: date.code).line())
            } else {
                let disabled = s.enabled ? "" : lang == .ja ? "  (無効)" : "  (disabled)"
                out.writeLine("\(labels.text(id, reading: true))  \(date.label(lang))\(disabled)")
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
    @OptionGroup var time: AsOfOptions
    @Flag(help: "Print as JSON.") var json = false
    @OptionGroup var language: LanguageOptions

    func run() throws {
        let ledger = try options.openForReading()
        defer { ledger.close() }
        let station = try stationArgument.resolve(in: ledger)
        guard station > 0 else { throw LedgerError(.badInput, "station 0 is not a station id") }
        try CatalogSupport.requireKnownStation(station, ledger: ledger)
        let snapshot = try CatalogStore.open(ledgerDirectory: ledger.directory)?.loadSnapshot()
        let projection = try time.projection(ledger)
        let row = projection.row(station) ?? ProjectedStation()
        let s = snapshot?.station(station)
        let op = s.flatMap { snapshot?.operator($0.operatorID) }
        let lines = snapshot?.lines(of: station) ?? []
        let output = StationShowOutput(station: station, row: row, catalogued: s, operator: op, lines: lines)
        print(json ? try JSONOutput.line(output) : output.text(language.language, asOf: time.asOf))
    }
}
