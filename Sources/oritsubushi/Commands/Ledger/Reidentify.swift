import ArgumentParser
import LedgerCatalog
import LedgerCore
import LedgerSync

/// `reidentify`: mends a copied ledger directory without a sync server (Schemas/merge.md §10.1).
struct Reidentify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reidentify",
        abstract: "Give a copied ledger its own device id, so that it merges with the original again.",
        discussion: """
            Run in the copy, with --from the ledger directory it was copied from (or a copy of \
            that). Both record events as one device; from the first event where they differ on, \
            this ledger's events of that device move to a new device id, keeping their times, \
            stations, dates and memos, exactly as 'sync' does with a server. Nothing is lost: the \
            old segments go to quarantine/<UTC time>/, and 'merge' then works both ways. Exit \
            codes: 0 re-identified, 65 not a copy of the same device or nothing differs (nothing \
            changed), 66 no ledger, 75 a ledger is locked.
            """)

    @OptionGroup var options: LedgerOptions
    @Option(help: ArgumentHelp("The ledger directory this one was copied from.", valueName: "dir")) var from: String

    func run() throws {
        var ledger = try options.open()
        defer { ledger.close() }
        let original = try options.openOther(
            from, refusingSelf: "--from \(from) is this ledger itself; give the ledger directory it was copied from")
        let first: UInt64
        do {
            defer { original.close() }
            first = try LedgerCopy.firstDivergence(of: ledger, from: original, originalPath: from)
        }
        let change = try DeviceReidentification.rewrite(ledger, from: first, stamping: .keep, derivedFiles: [LedgerFiles.projection])
        ledger.close()
        ledger = try options.open()
        try ProjectionStore.rebuild(ledger)
        print("this ledger was a copy of \(from): device \(change.oldDevice)'s events #\(change.firstSeq)–#\(change.lastSeq) now belong to its new device id \(change.newDevice); the old segments are in \(change.quarantine)/; merge both ways now")
    }
}
