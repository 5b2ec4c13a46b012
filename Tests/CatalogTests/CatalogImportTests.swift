import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

@Suite(.serialized) struct CatalogImportTests {
    static func catalog(_ ledger: Ledger) throws -> TestDatabase {
        try TestDatabase(path: LedgerFiles.path(LedgerFiles.catalog, in: ledger.directory))
    }

    static func counts(_ db: TestDatabase) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for (name, sql) in [
            ("stations", "SELECT count(*) FROM stations"), ("enabledStations", "SELECT count(*) FROM stations WHERE enabled = 1"),
            ("lines", "SELECT count(*) FROM lines"), ("enabledLines", "SELECT count(*) FROM lines WHERE enabled = 1"),
            ("operators", "SELECT count(*) FROM operators"), ("enabledOperators", "SELECT count(*) FROM operators WHERE enabled = 1"),
            ("stationsLines", "SELECT count(*) FROM stations_lines"),
        ] {
            result[name] = try db.integer(sql)
        }
        return result
    }

    static let expectedCounts: [Int: [String: Int64]] = [
            176: ["stations": 9780, "enabledStations": 9520, "lines": 637, "enabledLines": 623, "operators": 181,
                  "enabledOperators": 176, "stationsLines": 10122],
            152: ["stations": 9774, "enabledStations": 9564, "lines": 637, "enabledLines": 624, "operators": 180,
                  "enabledOperators": 177, "stationsLines": 10165],
    ]

    @Test func theBundledDumpImportsWithoutErrorsAndMatchesTheDocumentedCounts() throws {
        try Self.checkImport(176)
    }

    @Test func the152DumpImportsWithoutErrorsAndMatchesTheDocumentedCounts() throws {
        try Self.checkImport(152)
    }

    /// The fixture is kept compressed in the repository (Tests/Fixtures) and read decompressed.
    @Test func the152FixtureDecompressesToTheDumpTheTestsRead() throws {
        let bytes = try SharedData.decompress(Array(try Data(contentsOf: URL(fileURLWithPath: SharedData.fixture152))),
                                              file: SharedData.fixture152)
        #expect(bytes.count == 2_437_440)
        #expect(String(decoding: bytes.prefix(100), as: UTF8.self).hasPrefix(#"CREATE TABLE IF NOT EXISTS "lines" ("l_id""#))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: SharedData.dump(152)))) == bytes)
    }

    /// Where the original dump is beside the clone, the fixture must not have drifted from it.
    @Test(.enabled(if: SharedData.original(152) != nil, "no ../shared/data/stations-152.sql beside this clone to compare with"))
    func the152FixtureIsTheOriginalDump() throws {
        let original = try #require(SharedData.original(152))
        #expect(try Data(contentsOf: URL(fileURLWithPath: original)) == Data(contentsOf: URL(fileURLWithPath: SharedData.dump(152))),
                "\(original) differs from Tests/Fixtures/stations-152.sql.lz4")
    }

    static func checkImport(_ version: Int) throws {
        do {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let ledger = try Harness.createLedger(dir)
            let importer = try Harness.importCatalog(ledger, file: SharedData.dump(version), version: UInt32(version))
            #expect(importer.statementCount == (version == 152 ? 22_270 : 22_538))
            let db = try Self.catalog(ledger)
            #expect(try Self.counts(db) == expectedCounts[version])
            #expect(try db.userVersion() == Int64(version))
            // The projection is the completions table; the catalogue file holds none.
            #expect(try !db.tableExists("completions"))
            #expect(try ledger.allRecords().contains { if case .catalogVersion(let e) = $0 { e.version == UInt32(version) } else { false } })
            ledger.close()
        }
    }

    @Test func importing152Then176GivesTheSameCatalogueAs176Alone() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let upgraded = try Harness.createLedger(dir, name: "a")
        try Harness.importCatalog(upgraded, file: SharedData.dump(152), version: 152)
        try Harness.importCatalog(upgraded, file: SharedData.dump(176), version: 176)
        let fresh = try Harness.createLedger(dir, name: "b")
        try Harness.importCatalog(fresh, file: SharedData.dump(176), version: 176)
        let a = try Self.catalog(upgraded), b = try Self.catalog(fresh)
        for table in ["operators", "lines", "stations", "stations_lines"] {
            let rowsA = try Harness.tableRows(a, table), rowsB = try Harness.tableRows(b, table)
            #expect(rowsA.count > 100)
            #expect(rowsA == rowsB, "table \(table)")
        }
        #expect(try a.userVersion() == 176)
    }

    /// Completes the sources of every carry-over introduced after 152, plus a few older ones,
    /// then upgrades: the new carry-overs fire once, with the source's hlc; old ones never again.
    @Test func upgrade152To176CarriesCompletionsOverOnce() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        try Harness.importCatalog(ledger, file: SharedData.dump(152), version: 152)
        let t0 = HybridTimestamp(milliseconds: 1_400_000_000_000)
        let t1 = HybridTimestamp(milliseconds: 1_500_000_000_000)
        try ledger.appendLocal([
            StationEditDraft(station: 304383, compDate: .day(2014, 5, 6), memo: "富山駅北", hlc: t0),   // → 306021 (v156)
            StationEditDraft(station: 301887, compDate: .year(2010), hlc: t0),                        // → 306095 (v160)
            StationEditDraft(station: 304726, compDate: .month(2012, 3), memo: "北神", hlc: t0),       // → 302456 (v162)
            StationEditDraft(station: 300774, compDate: .day(2011, 1, 2), hlc: t1),                   // → 306089 (v146, already applied)
        ])
        try ProjectionStore.update(ledger)
        let before = try ledger.allRecords().count
        let importer = try Harness.importCatalog(ledger, file: SharedData.dump(176), version: 176)
        #expect(Set(importer.carryOvers.map(\.target)) == [306021, 306095, 302456])
        let projection = try ProjectionStore.load(ledger)
        #expect(projection.row(306021)?.compDate == 20140506)
        #expect(projection.row(306021)?.memo == "富山駅北")
        #expect(projection.row(306021)?.updateDate == t0.unixSeconds)
        #expect(projection.row(306095)?.compDate == 20100000)
        #expect(projection.row(302456)?.compDate == 20120300)
        #expect(projection.row(302456)?.memo == "北神")
        // 300774 was completed after v146's carry-over was first evaluated: re-evaluated now
        // (Schemas/projection.md §4), it carries at its own hlc.
        #expect(projection.row(306089)?.compDate == 20110102)
        let added = try ledger.allRecords().dropFirst(before)
        let edits = added.compactMap { if case .stationEdit(let e) = $0 { e } else { nil } }
        #expect(edits.count == 4)
        #expect(edits.allSatisfy { $0.origin == .catalog && ($0.hlc == t0 || $0.station == 306089 && $0.hlc == t1) })

        // Re-applying 176 fires nothing and appends nothing.
        let count = try ledger.allRecords().count
        let again = try Harness.importCatalog(ledger, file: SharedData.dump(176), version: 176)
        #expect(again.carryOvers.isEmpty)
        #expect(try ledger.allRecords().count == count)
    }

    @Test func the306029CarryOverComesFrom204291NotTheTypo204391() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        try ledger.appendLocal([
            StationEditDraft(station: 204291, compDate: .day(2009, 8, 1)),   // 富山駅 (JR西日本)
            StationEditDraft(station: 204391, compDate: .day(1999, 1, 1)),   // 市川大門駅
        ])
        let importer = try Harness.importCatalog(ledger, file: SharedData.dump(176), version: 176)
        #expect(importer.carryOvers.contains(CarryOver(target: 306029, source: 204291, sourceInFile: 204391, replaces: false)))
        #expect(try ProjectionStore.load(ledger).row(306029)?.compDate == 20090801)
    }

    @Test func the302456CarryOverNeverOverwritesALaterUserEdit() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        try Harness.importCatalog(ledger, file: SharedData.dump(152), version: 152)
        try ledger.appendLocal([StationEditDraft(station: 304726, compDate: .year(2012), hlc: HybridTimestamp(milliseconds: 1_300_000_000_000))])
        // The user records 302456 (not completed) after completing 304726: the later edit wins.
        try ledger.appendLocal([StationEditDraft(station: 302456, memo: "later edit", hlc: HybridTimestamp(milliseconds: 1_400_000_000_000))])
        try ledger.appendLocal([StationEditDraft(station: 302456, compDate: .day(2015, 1, 1), hlc: HybridTimestamp(milliseconds: 1_400_000_000_001))])
        try Harness.importCatalog(ledger, file: SharedData.dump(176), version: 176)
        let row = try ProjectionStore.load(ledger).row(302456)
        #expect(row?.compDate == 20150101)
        #expect(row?.memo == "later edit")
    }

    @Test func aFailingStatementRollsEverythingBackAndNamesItsLine() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        try ledger.appendLocal([StationEditDraft(station: 1, compDate: .unknown)])
        try ProjectionStore.update(ledger)
        let dump = dir.sub("bad-5.sql")
        try """
            CREATE TABLE IF NOT EXISTS "stations" ("s_id" INTEGER PRIMARY KEY NOT NULL, "station" TEXT NOT NULL);
            INSERT INTO "stations" VALUES (1, 'a');

            INSERT INTO "stations" VALUES (2, 'b')
            INSERT INTO "nope" VALUES (3);
            """.write(toFile: dump, atomically: true, encoding: .utf8)
        let before = try directorySnapshot(ledger.directory)
        #expect {
            try Harness.importCatalog(ledger, file: dump, version: 5)
        } throws: { error in
            let e = error as? LedgerError
            return e?.line == 5 && e?.category == .badInput && e?.file == dump && e?.cause == .sqlite(1)
        }
        #expect(try directorySnapshot(ledger.directory) == before)
        #expect(!CatalogStore.exists(inLedger: ledger.directory))
    }

    /// The dump runs in one unit: attaching or writing files, pragmas and transaction control are refused
    /// wherever they hide (after a comment, behind EXPLAIN), with the line, and change nothing.
    @Test(arguments: ["ATTACH DATABASE '/tmp/x.sqlite' AS x;", "pragma writable_schema = 1", "/* c */ BEGIN;",
                      "ROLLBACK -- c", "EXPLAIN QUERY PLAN PRAGMA user_version", "  savepoint s;", "DETACH x",
                      "VACUUM INTO '/tmp/oritsubushi-vacuum-into.sqlite'"])
    func statementsOutsideTheDumpsBusinessAreRefused(statement: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        let dump = dir.sub("bad-5.sql")
        try "CREATE TABLE IF NOT EXISTS \"stations\" (\"s_id\" INTEGER PRIMARY KEY NOT NULL);\n\(statement)\n"
            .write(toFile: dump, atomically: true, encoding: .utf8)
        let before = try directorySnapshot(ledger.directory)
        #expect {
            try Harness.importCatalog(ledger, file: dump, version: 5)
        } throws: { error in
            let e = error as? LedgerError
            return e?.line == 2 && e?.message == "the catalogue statement failed: not authorized"
        }
        #expect(try directorySnapshot(ledger.directory) == before)
    }

    @Test func catalogueVersionsOnlyMoveForward() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        try Harness.importCatalog(ledger, file: SharedData.sample, version: 176)
        let before = try directorySnapshot(ledger.directory)
        #expect(throws: LedgerError.self) { try Harness.importCatalog(ledger, file: SharedData.sample, version: 100) }
        #expect(try directorySnapshot(ledger.directory) == before)
    }

    @Test func theSampleCatalogueImports() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        try Harness.importCatalog(ledger, file: SharedData.sample, version: 176)
        let store = try #require(try CatalogStore.open(ledgerDirectory: ledger.directory))
        let snapshot = try store.loadSnapshot()
        #expect(snapshot.lines.count == 5)
        #expect(snapshot.station(300260)?.yomi == "つ")
        #expect(try store.find("つ", by: .yomi, partial: false, includeDisabled: false).contains(300260))
        #expect(try store.find("山手", by: .line, partial: false, includeDisabled: false).count == 17)
    }
}
