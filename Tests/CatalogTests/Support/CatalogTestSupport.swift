import LedgerTestSupport
import Foundation
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// The reference catalogues in `../shared/data/`, resolved from this file (never copied).
enum SharedData {
    static let directory: String = {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return repo.deletingLastPathComponent().appendingPathComponent("shared/data").path
    }()

    static func dump(_ version: Int) -> String { directory + "/stations-\(version).sql" }

    static var available: Bool {
        FileManager.default.fileExists(atPath: dump(152)) && FileManager.default.fileExists(atPath: dump(176))
    }

    /// Whether a test needing the dumps should run; fails instead when CI=true and they are missing.
    static func require(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        if available { return true }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("../shared/data/stations-152.sql and stations-176.sql are required on CI (looked in \(directory))",
                         sourceLocation: sourceLocation)
        } else {
            print("skipping: ../shared/data is not present (\(directory))")
        }
        return false
    }

    static let sample: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tools/sample-catalog-176.sql").path
    }()
}

/// Library-level helpers that do what the CLI commands do.
enum Harness {
    static let clock = FixedClock(milliseconds: 1_790_000_000_000)

    static func createLedger(_ dir: TemporaryDirectory, name: String = "l", clock: any WallClock = Harness.clock) throws -> Ledger {
        try Ledger.create(directory: dir.sub(name), deviceName: "test", clock: clock)
    }

    /// `catalog import` without the CLI: split, apply, append the version and carry-overs, commit.
    @discardableResult
    static func importCatalog(_ ledger: Ledger, file: String, version: UInt32) throws -> CatalogImporter {
        let statements = try SQLDumpSplitter.split(Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: file)
        var projection = try ProjectionStore.load(ledger)
        let importer = try CatalogImporter(ledgerDirectory: ledger.directory, file: file, statements: statements,
                                           version: version, projection: projection)
        let recordsVersion = !projection.catalogVersions.contains(version)
        let drafts = CarryOverPlanner.drafts(for: importer.carryOvers, projection: projection, device: ledger.localDevice,
                                             nextSeq: (ledger.versionVector[ledger.localDevice] ?? 0) + (recordsVersion ? 2 : 1))
        if recordsVersion { try ledger.appendCatalogVersion(version) }
        if !drafts.isEmpty { try ledger.appendLocal(drafts) }
        try importer.commit()
        try projection.catchUp(ledger)
        try ProjectionStore.save(&projection, ledger: ledger)
        return importer
    }

    /// Rows of a catalogue table, in a canonical order, as text.
    static func tableRows(_ db: SQLiteDatabase, _ table: String) throws -> [String] {
        let statement = try db.prepare("SELECT * FROM \(table) ORDER BY 1, 2, 3")
        var rows: [String] = []
        let columns: Int32 = table == "stations" ? 11 : table == "stations_lines" ? 3 : table == "lines" ? 5 : 4
        while try statement.step() {
            rows.append((0..<columns).map { statement.isNull($0) ? "NULL" : statement.string($0) }.joined(separator: "|"))
        }
        return rows
    }
}
