import ArgumentParser
import LedgerCatalog
import LedgerCore

struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Manage the station catalogue.",
        subcommands: [CatalogImport.self])
}

struct CatalogImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Apply a station catalogue dump (the original apps' stations-NNN.sql).",
        discussion: """
            The dump runs as the original apps run it: one statement per physical line, lines joined \
            while the count of ' is odd, missing semicolons accepted, "" read as '', all in one \
            transaction; any error rolls everything back and names the line (exit 65). The version \
            is recorded in the ledger; station carry-overs become events of origin catalog that take \
            the source station's last-writer-wins position. Catalogue versions only move forward.
            """)

    @OptionGroup var options: LedgerOptions
    @Argument(help: "The SQL dump, e.g. stations-176.sql.") var file: String
    @Option(help: "The catalogue version (default: the number in the file name).") var version: UInt32?

    func run() throws {
        let version = try version ?? Self.version(fromFileName: file)
        let statements = try SQLDumpSplitter.split(try CatalogSupport.readInput(file), file: file)
        let ledger = try options.open()
        defer { ledger.close() }
        var projection = try ProjectionUpdater.load(ledger)
        // The catalogue is SQLite's own I/O: a simulated fault must refuse it before it starts.
        try ledger.fileSystem.prepareExternalWrite(LedgerFiles.path(LedgerFiles.catalog, in: ledger.directory))
        let (importer, appended) = try CatalogImporter.apply(statements, file: file, version: version, to: ledger,
                                                             projection: &projection)
        let snapshot = try CatalogSupport.requireCatalog(ledger).loadSnapshot()
        print("catalogue \(version): \(importer.statementCount) statements, \(snapshot.stations.count) stations (\(snapshot.stations.filter(\.enabled).count) enabled), \(snapshot.lines.count) lines, \(snapshot.operators.count) operators")
        let carried = importer.carryOvers.map(\.description).joined(separator: ", ")
        print("carry-overs: \(importer.carryOvers.count)\(carried.isEmpty ? "" : " (\(carried))"), \(appended) events appended")
    }

    /// The last run of digits in the file's name: `stations-176.sql` → 176.
    static func version(fromFileName path: String) throws -> UInt32 {
        let name = Path.lastComponent(path)
        var runs: [String] = []
        var current = ""
        for c in name {
            if c.isASCII, c.isNumber { current.append(c) } else if !current.isEmpty { runs.append(current); current = "" }
        }
        if !current.isEmpty { runs.append(current) }
        guard let digits = runs.last, let version = UInt32(digits), version > 0 else {
            throw LedgerError(.usage, "the file name '\(name)' carries no version number; give --version N")
        }
        return version
    }
}
