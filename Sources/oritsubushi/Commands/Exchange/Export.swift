import ArgumentParser
import LedgerCatalog
import LedgerCore
import LedgerViews

enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case tsv, jsonl, sqlite, geojson
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the current completions (one row per station with events).",
        discussion: """
            tsv is the original sync upload format and round-trips with 'import oritsubushi-tsv'; \
            jsonl has the keys station, comp_date, update_date, memo; sqlite writes the original \
            completions table to a new file (needs --output); geojson writes an RFC 7946 FeatureCollection \
            of the enabled stations (a Point each: station, name, yomi, operator, lines, pref, comp_date, \
            completed, memo) and, with --lines, the enabled lines (a LineString each through its stations \
            in s_sort order: line, name, operator, total, completed, ratio_permille).
            """)

    @OptionGroup var options: LedgerOptions
    @Option(help: "tsv, jsonl, sqlite or geojson.") var format: ExportFormat = .tsv
    @Option(help: "Write to this file instead of stdout.") var output: String?
    @Flag(help: "With --format geojson: also a LineString per enabled line.") var lines = false

    func validate() throws {
        if format == .sqlite && output == nil { throw ValidationError("--format sqlite needs --output FILE") }
        if lines && format != .geojson { throw ValidationError("--lines needs --format geojson") }
    }

    func run() throws {
        let ledger = try options.openForReading()
        defer { ledger.close() }
        let projection = try ProjectionUpdater.update(ledger)
        let rows = CompletionsFile.rows(projection)
        switch format {
        case .sqlite:
            try CompletionsFile.writeSQLite(rows, to: output!)
        case .tsv, .jsonl, .geojson:
            let text = switch format {
            case .tsv: CompletionsFile.tsv(rows)
            case .jsonl: try CompletionsFile.jsonl(rows)
            default: try CatalogExport.featureCollection(
                CatalogGeometry(snapshot: try CatalogSupport.requireCatalog(ledger).loadSnapshot()), lines: lines) {
                    projection.row($0).map { ($0.compDate, $0.memo) } ?? (0, "")
                }
            }
            if let output {
                try Environment.fileSystem().writeAtomically(output, Array(text.utf8))
            } else {
                fflushStdout()
                Terminal.write(fd: 1, text)
            }
        }
        if output != nil { Terminal.error("exported \(Plural.count(rows.count, "station")) to \(output!)") }
    }
}
