import ArgumentParser
import Foundation
import LedgerCatalog
import LedgerCore

struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Manage the station catalogue.",
        subcommands: [CatalogImport.self, CatalogStatus.self])
}

struct CatalogImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Apply a station catalogue dump (the original apps' stations-NNN.sql), by default the bundled one.",
        discussion: """
            The dump runs as the original apps run it: one statement per physical line, lines joined \
            while the count of ' is odd, missing semicolons accepted, "" read as '', all in one \
            transaction; any error rolls everything back and names the line (exit 65). The version \
            is recorded in the ledger; station carry-overs become events of origin catalog that take \
            the source station's last-writer-wins position. Catalogue versions only move forward.
            """)

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The SQL dump, e.g. stations-177.sql (default: the bundled catalogue \(BundledCatalog.version)).")
    var file: String?
    @Option(help: "The catalogue version (default: the number in the file name).") var version: UInt32?

    func validate() throws {
        if file == nil, version != nil {
            throw ValidationError("--version needs a FILE; the bundled catalogue is version \(BundledCatalog.version)")
        }
    }

    func run() throws {
        CatalogVersionNotice.silenced = true
        guard let file else {
            let ledger = try options.open()
            defer { ledger.close() }
            try Self.applyBundled(to: ledger)
            return
        }
        let version = try version ?? CatalogDumpName.version(of: file)
        let statements = try SQLDumpSplitter.split(try CatalogSupport.readInput(file), file: file)
        let ledger = try options.open()
        defer { ledger.close() }
        try Self.apply(statements, file: file, version: version, source: .file(URL(fileURLWithPath: file).standardizedFileURL.path), to: ledger)
    }

    /// Applies the bundled catalogue unless the ledger already has it (or a newer one): then it
    /// only says so.
    static func applyBundled(to ledger: Ledger) throws {
        let applied = try CatalogVersionNotice.appliedVersion(ledger)
        guard applied < Int64(BundledCatalog.version) else {
            let which = applied == Int64(BundledCatalog.version) ? "the bundled catalogue" : "a catalogue newer than the bundled \(BundledCatalog.version)"
            print("catalogue \(applied) already applied (\(which)); nothing to do")
            return
        }
        try apply(try BundledCatalog.statements(), file: BundledCatalog.fileName, version: BundledCatalog.version,
                  source: .bundled, to: ledger)
    }

    /// What every import does (a FILE, the bundled dump, `init`): applies the statements, records
    /// where they came from, and prints the counts and carry-overs.
    static func apply(_ statements: [DumpStatement], file: String, version: UInt32, source: CatalogSource,
                      to ledger: Ledger) throws {
        var projection = try ProjectionUpdater.load(ledger)
        // The catalogue is SQLite's own I/O: a simulated fault must refuse it before it starts.
        try ledger.fileSystem.prepareExternalWrite(LedgerFiles.path(LedgerFiles.catalog, in: ledger.directory))
        let (importer, appended) = try CatalogImporter.apply(statements, file: file, version: version, to: ledger,
                                                             projection: &projection)
        try source.write(ledgerDirectory: ledger.directory, fileSystem: ledger.fileSystem)
        let store = try CatalogSupport.requireCatalog(ledger)
        defer { store.close() }
        let snapshot = try store.loadSnapshot()
        let origin = source == .bundled ? " (bundled)" : ""
        print("catalogue \(version)\(origin): \(importer.statementCount) statements, \(snapshot.stations.count) stations (\(snapshot.stations.filter(\.enabled).count) enabled), \(snapshot.lines.count) lines, \(snapshot.operators.count) operators")
        let carried = importer.carryOvers.map(\.description).joined(separator: ", ")
        print("carry-overs: \(importer.carryOvers.count)\(carried.isEmpty ? "" : " (\(carried))"), \(Plural.count(appended, "event")) appended")
    }
}
