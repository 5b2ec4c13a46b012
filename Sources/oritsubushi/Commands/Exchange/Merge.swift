import ArgumentParser
import LedgerCatalog
import LedgerCore
import LedgerSync

#if canImport(Glibc)
import Glibc
#endif

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge another ledger's events into this one (set union; Schemas/merge.md).",
        discussion: """
            Appends every event OTHER_LEDGER_DIR holds and this ledger lacks, in durable batches, \
            and prints how many came in and how many new conflicts arose, the first 20 of them with \
            their stations named (the rest with 'conflicts'). \
            The merge is refused, and nothing is written, when an event id exists on both sides \
            with different content, or when the other side's events are dated more than a day \
            ahead of this clock. When the two are copies of one ledger directory (both record \
            events as the same device), the refusal says so and names 'oritsubushi reidentify', \
            which mends the copy. Both ledgers are locked while merging.
            """)

    @OptionGroup var options: LedgerOptions
    @Argument(help: ArgumentHelp("The ledger directory to merge from.", valueName: "other-ledger-dir"))
    var other: String
    @OptionGroup var language: LanguageOptions

    func run() throws {
        let ledger = try options.open()
        defer { ledger.close() }
        let source = try options.openOther(other, refusingSelf: "\(other) is this ledger itself; merge another device's ledger")
        defer { source.close() }
        // The merge reads every record of this ledger and appends the new ones: the projection
        // is folded from them as they pass, instead of loading it and reading the appended
        // records back (or, without a stored projection, the whole log) afterwards.
        var fold = CompletionsProjection()
        let report: MergeReport
        do {
            report = try LedgerMerger.merge(from: source, into: ledger, observe: { fold.apply($0, trackDirty: false) })
        } catch let error as LedgerError {
            throw LedgerCopy.mergeRefusal(error, this: ledger, other: source, otherPath: other)
        }
        if report.eventsIn > 0 {
            // Events came in: the carry-overs they make owed are appended before the save.
            var projection = ProjectionUpdater.adopt(fold, of: ledger)
            try CarryOverPlanner.settle(ledger, projection: &projection)
            ProjectionUpdater.saveAfterAppend(&projection, ledger: ledger)
        }
        let words = Words(language.language)
        print(words.merged(events: report.eventsIn, from: other, batches: report.batches, duplicates: report.duplicates,
                           newConflicts: report.newConflicts.count))
        ConflictText(names: ledger.deviceNameTable, labels: StationLabel(ledger: ledger), words: words).printSome(report.newConflicts)
    }
}
