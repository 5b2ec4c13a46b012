import ArgumentParser
import LedgerCatalog
import LedgerCore

enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
    case tsv, jsonl, sqlite
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the current completions (one row per station with events).",
        discussion: """
            tsv is the original sync upload format and round-trips with 'import oritsubushi-tsv'; \
            jsonl has the keys station, comp_date, update_date, memo; sqlite writes the original \
            completions table to a new file (needs --output).
            """)

    @OptionGroup var options: LedgerOptions
    @Option(help: "tsv, jsonl or sqlite.") var format: ExportFormat = .tsv
    @Option(help: "Write to this file instead of stdout.") var output: String?

    func validate() throws {
        if format == .sqlite && output == nil { throw ValidationError("--format sqlite needs --output FILE") }
    }

    func run() throws {
        let ledger = try options.open()
        defer { ledger.close() }
        let rows = CompletionsFile.rows(try ProjectionUpdater.update(ledger))
        switch format {
        case .sqlite:
            try CompletionsFile.writeSQLite(rows, to: output!)
        case .tsv, .jsonl:
            let text = format == .tsv ? CompletionsFile.tsv(rows) : CompletionsFile.jsonl(rows)
            if let output {
                try Environment.fileSystem().writeAtomically(output, Array(text.utf8))
            } else {
                fflushStdout()
                Terminal.write(fd: 1, text)
            }
        }
        if output != nil { Terminal.error("exported \(rows.count) stations to \(output!)") }
    }
}
