import LedgerTestSupport
import Foundation
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

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
        let (importer, _) = try CatalogImporter.apply(statements, file: file, version: version, to: ledger,
                                                      projection: &projection)
        return importer
    }

    /// Rows of a catalogue table, in a canonical order, as text.
    static func tableRows(_ db: TestDatabase, _ table: String) throws -> [String] {
        let columns = table == "stations" ? 11 : table == "stations_lines" ? 3 : table == "lines" ? 5 : 4
        return try db.rows("SELECT * FROM \(table) ORDER BY 1, 2, 3", null: "NULL").map {
            $0.prefix(columns).joined(separator: "|")
        }
    }
}
