import ArgumentParser
import LedgerCatalog
import LedgerCore

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring completions over from the original apps.",
        subcommands: [ImportTSV.self, ImportSQLite.self])

    /// Validates every row, plans the events, and appends them as one batch (or nothing).
    /// `skipped` holds the lines the reader refused under `--skip-invalid`.
    static func importRows(_ rows: [CompletionRow], file: String, rowWord: String, options: LedgerOptions,
                           skipInvalid: Bool = false, skipped readerSkipped: [LedgerError] = []) throws {
        let clock = try Environment.clock()
        let ledger = try options.open()
        defer { ledger.close() }
        let catalog = try CatalogStore.open(ledgerDirectory: ledger.directory)
        var projection = try ProjectionUpdater.load(ledger)
        var skipped = readerSkipped
        let plan = try CompletionImporter.plan(
            for: rows, file: file, catalog: catalog, projection: projection, device: ledger.localDevice,
            nextSeq: (ledger.versionVector[ledger.localDevice] ?? 0) + 1, today: clock.today,
            nowMilliseconds: clock.nowMilliseconds(), rowWord: rowWord,
            invalid: { error in if skipInvalid { skipped.append(error) } else { throw error } })
        let before = ledger.recordCount
        let events = plan.drafts.isEmpty ? [] : try ledger.appendLocal(plan.drafts)
        try projection.applyAppended(events, since: before, ledger: ledger)
        let carried = events.isEmpty ? [] : try CarryOverPlanner.settle(ledger, projection: &projection)
        try ProjectionStore.save(&projection, ledger: ledger)
        if !carried.isEmpty { print("carry-overs: \(carried.count) events appended") }
        for row in plan.unknownDates {
            Terminal.error("warning: comp_date \(row.compDate) of station \(row.station) (\(file), \(rowWord) \(row.line)) is shown by the apps as 日付不明; imported as 1 (date unknown)")
        }
        if plan.clampedToImportTime > 0 {
            Terminal.error("warning: \(plan.clampedToImportTime) rows had an update_date later than now; their events carry the import time instead")
        }
        for error in skipped.sorted(by: { ($0.line ?? 0) < ($1.line ?? 0) }) { Terminal.error("skipped: \(error.description)") }
        print("imported \(plan.validRows) rows: \(plan.drafts.count) events appended, \(plan.validRows - plan.drafts.count) rows unchanged")
        if skipInvalid { print("imported \(plan.validRows), skipped \(skipped.count)") }
    }
}

struct ImportTSV: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oritsubushi-tsv",
        abstract: "Import the original apps' sync upload (s_id, comp_date, update_date, memo; TAB-separated).",
        discussion: "Each event's time is the row's update_date, so the original last-update-wins order is kept.")

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The TSV file.") var file: String
    @Flag(help: "Import the valid rows, print each invalid one with its reason, and exit 0.") var skipInvalid = false

    func run() throws {
        var skipped: [LedgerError] = []
        let rows = try OritsubushiTSV.parse(try CatalogSupport.readInput(file), file: file,
                                            invalid: { error in if skipInvalid { skipped.append(error) } else { throw error } })
        try ImportCommand.importRows(rows, file: file, rowWord: "line", options: options, skipInvalid: skipInvalid, skipped: skipped)
    }
}

struct ImportSQLite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sqlite",
        abstract: "Import the completions table of an original app database.")

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The SQLite database file.") var file: String
    @Flag(help: "Import the valid rows, print each invalid one with its reason, and exit 0.") var skipInvalid = false

    func run() throws {
        _ = try CatalogSupport.readInput(file).count
        var skipped: [LedgerError] = []
        let rows = try CompletionsFile.readAppDatabase(
            file, invalid: { error in if skipInvalid { skipped.append(error) } else { throw error } })
        try ImportCommand.importRows(rows, file: file, rowWord: "row", options: options, skipInvalid: skipInvalid, skipped: skipped)
    }
}
