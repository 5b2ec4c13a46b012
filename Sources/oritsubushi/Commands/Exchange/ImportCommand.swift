import ArgumentParser
import LedgerCatalog
import LedgerCore

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Bring completions over from the original apps.",
        subcommands: [ImportTSV.self, ImportSQLite.self])

    /// Validates every row, plans the events, and appends them as one batch (or nothing).
    /// `readerErrors` holds the lines the file's reader refused: with `--skip-invalid` they are
    /// skipped and reported, otherwise every bad line is reported at once (`BadLines`) and
    /// nothing is appended. `--dry-run` prints what would be appended and writes nothing.
    static func importRows(_ rows: [CompletionRow], file: String, rowWord: String, options: LedgerOptions,
                           flags: ImportFlags, readerErrors: [LedgerError] = []) throws {
        let clock = try Environment.clock()
        // A dry run writes nothing, so it reads as the readers do (a read-only ledger too).
        let ledger = try flags.dryRun ? options.openForReading() : options.open()
        defer { ledger.close() }
        let catalog = try CatalogStore.open(ledgerDirectory: ledger.directory)
        var projection = try ProjectionUpdater.load(ledger)
        var skipped = readerErrors
        let plan = try CompletionImporter.plan(
            for: rows, file: file, catalog: catalog, projection: projection, device: ledger.localDevice,
            nextSeq: (ledger.versionVector[ledger.localDevice] ?? 0) + 1, today: clock.today,
            nowMilliseconds: clock.nowMilliseconds(), rowWord: rowWord,
            invalid: { error in skipped.append(error) })
        skipped.sort { ($0.line ?? 0) < ($1.line ?? 0) }
        if !flags.skipInvalid {
            var bad = BadLines()
            for error in skipped { bad.add(error) }
            try bad.check(source: file)
        }
        let words = Words(flags.language.language)
        if flags.dryRun {
            let labels = StationLabel(ledger: ledger)
            for draft in plan.drafts { print(StationEditing.describe(draft, labels, words)) }
            for error in skipped { Terminal.error("would skip: \(error.description)") }
            print(words.importPlanned(rows: plan.validRows, events: plan.drafts.count, unchanged: plan.validRows - plan.drafts.count))
            return
        }
        let before = ledger.recordCount
        let events = plan.drafts.isEmpty ? [] : try ledger.appendLocal(plan.drafts)
        try projection.applyAppended(events, since: before, ledger: ledger)
        let carried = events.isEmpty ? [] : try CarryOverPlanner.settle(ledger, projection: &projection)
        if events.isEmpty { try ProjectionStore.save(&projection, ledger: ledger) } else { ProjectionUpdater.saveAfterAppend(&projection, ledger: ledger) }
        if !carried.isEmpty { print(words.carryOversAppended(carried.count)) }
        for row in plan.unknownDates {
            Terminal.error("warning: comp_date \(row.compDate) of station \(row.station) (\(file), \(rowWord) \(row.line)) is shown by the apps as 日付不明; imported as 1 (date unknown)")
        }
        if plan.clampedToImportTime > 0 {
            Terminal.error("warning: \(Plural.count(plan.clampedToImportTime, "row")) had an update_date later than now; their events carry the import time instead")
        }
        for error in skipped { Terminal.error("skipped: \(error.description)") }
        print(words.imported(rows: plan.validRows, events: plan.drafts.count, unchanged: plan.validRows - plan.drafts.count))
        // The one line scripts read, the same in every language.
        if flags.skipInvalid { print("imported \(plan.validRows), skipped \(skipped.count)") }
    }
}

/// The flags both importers take.
struct ImportFlags: ParsableArguments {
    @Flag(help: "Import the valid rows, print each invalid one with its reason, and exit 0.") var skipInvalid = false
    @Flag(help: "Check every row and print the events the import would append, without writing anything.") var dryRun = false
    @OptionGroup var language: LanguageOptions
}

struct ImportTSV: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oritsubushi-tsv",
        abstract: "Import the original apps' sync upload (s_id, comp_date, update_date, memo; TAB-separated).",
        discussion: "Each event's time is the row's update_date, so the original last-update-wins order is kept.")

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The TSV file.") var file: String
    @OptionGroup var flags: ImportFlags

    func run() throws {
        var refused: [LedgerError] = []
        let rows = try OritsubushiTSV.parse(try CatalogSupport.readInput(file), file: file, invalid: { refused.append($0) })
        try ImportCommand.importRows(rows, file: file, rowWord: "line", options: options, flags: flags, readerErrors: refused)
    }
}

struct ImportSQLite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sqlite",
        abstract: "Import the completions table of an original app database.")

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The SQLite database file.") var file: String
    @OptionGroup var flags: ImportFlags

    func run() throws {
        _ = try CatalogSupport.readInput(file).count
        var refused: [LedgerError] = []
        let rows = try CompletionsFile.readAppDatabase(file, invalid: { refused.append($0) })
        try ImportCommand.importRows(rows, file: file, rowWord: "row", options: options, flags: flags, readerErrors: refused)
    }
}
