import ArgumentParser
import LedgerCatalog
import LedgerCore

struct CatalogStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the catalogue's version, where it came from, and its station, line and operator counts.",
        discussion: """
            Also shows the newest catalogue version the log refers to: a merge or sync from a device \
            with a newer catalogue makes it newer than this ledger's, and `catalog import` brings it up.
            """)

    @OptionGroup var options: LedgerOptions
    @Flag(help: "One JSON object (keys: docs/ledger-cli.md, \"catalog status --json\").") var json = false

    func run() throws {
        CatalogVersionNotice.silenced = true
        let ledger = try options.openForReading()
        defer { ledger.close() }
        let projection = try ProjectionUpdater.update(ledger)
        let store = try CatalogStore.open(ledger)
        defer { store?.close() }
        let snapshot = try store?.loadSnapshot()
        let check = CatalogVersionCheck(applied: snapshot?.version ?? 0, projection: projection)
        let output = CatalogStatusOutput(snapshot: snapshot, source: CatalogSource.read(ledgerDirectory: ledger.directory,
                                                                                         fileSystem: ledger.fileSystem),
                                         check: check)
        print(json ? try JSONOutput.line(output) : output.text)
        if let notice = check.notice { Terminal.error("warning: \(notice)") }
    }
}
