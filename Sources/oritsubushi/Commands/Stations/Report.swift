import ArgumentParser
import LedgerCatalog
import LedgerCore
import LedgerViews
import LedgerSync

/// `oritsubushi report`: the progress as one self-contained HTML page (ReportPage).
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write your progress as one self-contained HTML page (map, tables, charts).",
        discussion: """
            The page needs no network: a map of Japan drawn from the catalogue (every enabled line \
            through its stations in s_sort order; completed stations and fully completed lines in \
            red; drag, wheel or pinch to move and zoom; point at or tap a station for its name, \
            operator, lines, date and memo), the four hierarchies with progress bars \
            (N駅中 M駅 R.r%), completions per year and per prefecture, the latest 20 events and \
            the number of open conflicts. With --as-of, everything (events and conflicts too) is \
            as of that time. About 0.7 MB for the full catalogue.
            """)

    @OptionGroup var options: LedgerOptions
    @Option(help: ArgumentHelp("Write the page here.", valueName: "file.html"))
    var output = "oritsubushi-report.html"
    @Option(help: "Answer as of this time (ISO 8601, Japan time without an offset, or Unix seconds).")
    var asOf: String?
    @OptionGroup var language: LanguageOptions

    func validate() throws {
        _ = try asOf.map { time throws(ValidationError) in try CatalogSupport.parseTime(time, option: "--as-of") }
        guard !output.isEmpty else { throw ValidationError("--output needs a file name") }
    }

    func run() throws {
        // A directory would fail only at the final rename, after a temporary file was written
        // beside it; refuse it first so nothing is left on disk.
        let fileSystem = try Environment.fileSystem()
        if fileSystem.directoryExists(output) { throw LedgerError(.io, "cannot write \(output): it is a directory") }
        let ledger = try options.openForReading()
        defer { ledger.close() }
        let store = try CatalogSupport.requireCatalog(ledger)
        let snapshot = try store.loadSnapshot()
        let projection = try CatalogSupport.projection(ledger, asOf: asOf)
        let limit = try asOf.map { try CatalogSupport.parseTime($0, option: "--as-of") }
        var page = ReportPage(snapshot: snapshot, projection: projection)
        page.asOf = limit.map { JapanTime.text($0, language.language, precision: .minutes) }
        page.language = language.language
        // One scan for the latest events and the conflicts, both bounded by --as-of.
        let names = ledger.deviceNameTable
        var detector = ConflictDetector(deduplicates: false)
        try ledger.forEachRecord { view, _ in
            if let limit, view.hlc > limit { return }
            detector.add(view)
            if view.kind == .stationEdit {
                page.activity.add(ReportEvent(view, deviceName: names[view.device] ?? view.device.description))
            }
        }
        page.activity.openConflicts = detector.conflicts().count
        let html = try page.html()
        try fileSystem.writeAtomically(output, Array(html.utf8))
        Terminal.error("wrote \(output) (\(html.utf8.count) bytes)")
    }
}
