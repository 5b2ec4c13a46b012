import Foundation
import LedgerCatalog
import LedgerCore

/// `complete --batch FILE`: reads the file (or stdin), lets `BatchLines` check every line
/// (docs/ledger-cli.md "Many stations at once"), then commits all of them through StationEditing.commit as one
/// append with one fsync, and prints a summary.
struct CompleteBatchCommand {
    var path: String
    var qualifiers: StationQualifierOptions
    /// Check every line and print what would be recorded, writing nothing.
    var dryRun = false

    func run(_ options: LedgerOptions, language: OutputLanguage = .en) throws {
        let text = try read()
        let today = try Environment.clock().today
        // A dry run writes nothing, so it reads as the readers do (a read-only ledger too).
        let ledger = try dryRun ? options.openForReading() : options.open()
        defer { ledger.close() }
        var resolver: StationResolver?
        let catalog = try CatalogStore.open(ledger)
        defer { catalog?.close() }
        let qualifiers = qualifiers.qualifiers
        let stations = BatchLines.Stations(
            resolve: { text in
                if qualifiers.isEmpty, let given = try StationResolver.stationID(text) { return given }
                if resolver == nil { resolver = try StationQualifierOptions.resolver(ledger) }
                return try resolver!.resolve(text, qualifiers)
            },
            requireKnown: { try catalog?.requireStation($0) })
        let changes = try BatchLines.changes(text, source: displayName, today: today,
                                                  previousDate: { try UIState.lastDate(in: ledger, today: today) },
                                                  stations: stations)
        let changed = try StationEditing.commit(changes, ledger: ledger, language: language, dryRun: dryRun)
        print(Words(language).batchSummary(total: changes.count, changed: changed, dryRun: dryRun))
    }

    private var displayName: String { path == "-" ? "standard input" : path }

    /// The whole batch as UTF-8 text, read before the ledger is opened.
    private func read() throws -> String {
        let bytes = path == "-" ? Array(FileHandle.standardInput.readDataToEndOfFile()) : try CatalogSupport.readInput(path)
        guard let text = String(validating: TextInput.withoutByteOrderMark(bytes), as: UTF8.self) else {
            throw LedgerError(.badInput, "\(displayName) is not valid UTF-8")
        }
        return text
    }
}
