import ArgumentParser
import LedgerCatalog
import LedgerCore

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring completions over from the original apps.",
        subcommands: [ImportTSV.self, ImportSQLite.self])

    /// Validates every row, plans the events, and appends them as one batch (or nothing).
    static func importRows(_ rows: [CompletionRow], file: String, rowWord: String, options: LedgerOptions) throws {
        let clock = try Environment.clock()
        let ledger = try options.open()
        defer { ledger.close() }
        let catalog = try CatalogStore.open(ledgerDirectory: ledger.directory)
        var projection = try ProjectionUpdater.load(ledger)
        let drafts = try CompletionImporter.drafts(
            for: rows, file: file, catalog: catalog, projection: projection, device: ledger.localDevice,
            nextSeq: (ledger.versionVector[ledger.localDevice] ?? 0) + 1, today: clock.today, rowWord: rowWord)
        let before = ledger.recordCount
        let events = drafts.isEmpty ? [] : try ledger.appendLocal(drafts)
        try projection.applyAppended(events, since: before, ledger: ledger)
        try ProjectionStore.save(&projection, ledger: ledger)
        print("imported \(rows.count) rows: \(drafts.count) events appended, \(rows.count - drafts.count) rows unchanged")
    }
}

struct ImportTSV: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oritsubushi-tsv",
        abstract: "Import the original apps' sync upload (s_id, comp_date, update_date, memo; TAB-separated).",
        discussion: "Each event's time is the row's update_date, so the original last-update-wins order is kept.")

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The TSV file.") var file: String

    func run() throws {
        let rows = try OritsubushiTSV.parse(try CatalogSupport.readInput(file), file: file)
        try ImportCommand.importRows(rows, file: file, rowWord: "line", options: options)
    }
}

struct ImportSQLite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sqlite",
        abstract: "Import the completions table of an original app database.")

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The SQLite database file.") var file: String

    func run() throws {
        _ = try CatalogSupport.readInput(file).count
        let rows = try CompletionsFile.readAppDatabase(file)
        try ImportCommand.importRows(rows, file: file, rowWord: "row", options: options)
    }
}
