import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files written before the schema moved to GRDB's `DatabaseMigrator` have the same tables but
/// no `grdb_migrations`: they are used as they are, and the first write records the migration.
@Suite struct EarlierFilesTests {
    /// Makes a file as earlier versions wrote it: the same schema without GRDB's table.
    static func removeMigrations(_ file: String) throws {
        let db = try TestDatabase(path: file, readonly: false)
        try db.execute("DROP TABLE grdb_migrations")
        try db.close()
    }

    static func migrations(_ file: String) throws -> [String] {
        try TestDatabase(path: file).rows("SELECT identifier FROM grdb_migrations").map { $0[0] }
    }

    static func inode(_ file: String) -> UInt64 {
        var info = stat()
        return stat(file, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    @Test func anEarlierProjectionIsCaughtUpInPlace() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        try ledger.appendLocal([StationEditDraft(station: 5, compDate: .year(2013)), StationEditDraft(station: 6, memo: "six")])
        try ProjectionStore.update(ledger)
        let saved = ledger.recordCount
        let file = ProjectionStore.path(ledger)
        try Self.removeMigrations(file)
        let inode = Self.inode(file)

        try ledger.appendLocal([StationEditDraft(station: 7, compDate: .day(2015, 3, 4))])
        let loaded = try ProjectionStore.load(ledger)
        #expect(loaded.discardedBecause == nil && loaded.storedPosition == saved)
        try ProjectionStore.update(ledger)
        #expect(Self.inode(file) == inode, "updated in place, not rebuilt")
        #expect(try Self.migrations(file) == ["v1: projection format 1"])
        let reloaded = try ProjectionStore.load(ledger)
        #expect(reloaded.storedPosition == ledger.recordCount && reloaded.stationCount == 3)
    }

    @Test func anEarlierCatalogueTakesTheNextImport() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        try ledger.appendLocal([StationEditDraft(station: 201117, compDate: .day(2013, 9, 1))])
        try Harness.importCatalog(ledger, file: SharedData.sample, version: 176)
        let file = LedgerFiles.path(LedgerFiles.catalog, in: ledger.directory)
        try Self.removeMigrations(file)

        let dump = dir.sub("stations-177.sql")
        try """
            INSERT OR IGNORE INTO "stations" VALUES(200001,'新多気駅','しんたき','',24,'多気郡',34515878,136573095,10103,1,1);
            INSERT OR IGNORE INTO completions SELECT 200001, comp_date, update_date, memo FROM completions WHERE s_id = 201117 AND comp_date > 0;
            """.write(toFile: dump, atomically: true, encoding: .utf8)
        let importer = try Harness.importCatalog(ledger, file: dump, version: 177)
        #expect(importer.carryOvers.map(\.target) == [200001])
        #expect(try Self.migrations(file) == ["v1: carry-over bookkeeping"])
        let store = try #require(try CatalogStore.open(ledger))
        #expect(store.version == 177)
        #expect(try store.contains(200001))
        #expect(try ProjectionStore.load(ledger).row(200001)?.compDate == 20130901)
    }
}
