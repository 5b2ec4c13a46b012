import LedgerTestSupport
import Foundation
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// The counting set is the originals' (Schemas/domain-rules.md §17): `stations.enabled = 1`
/// everywhere, `operators.enabled = 1` only at the operator levels, `lines.enabled = 1` only at
/// the line level. A small catalogue disables an operator (whose station stays enabled) and a
/// line (one of whose stations is on no other line); the engine must agree with SQL written
/// from iOS `Database.m`'s queries.
@Suite struct CountingSetTests {
    static let dump = """
        CREATE TABLE IF NOT EXISTS "operators" ("o_id" INTEGER PRIMARY KEY NOT NULL, "operator" TEXT NOT NULL, "type" INTEGER NOT NULL, "enabled" INTEGER NOT NULL DEFAULT 1);
        INSERT OR IGNORE INTO "operators" VALUES(1,'甲鉄道',1,1);
        INSERT OR IGNORE INTO "operators" VALUES(2,'乙鉄道',2,1);
        INSERT OR IGNORE INTO "operators" VALUES(3,'丙鉄道',2,0);
        CREATE TABLE IF NOT EXISTS "lines" ("l_id" INTEGER PRIMARY KEY NOT NULL, "line" TEXT NOT NULL, "o_id" INTEGER NOT NULL, "enabled" INTEGER NOT NULL DEFAULT 1, "l_type" INTEGER);
        INSERT OR IGNORE INTO "lines" VALUES(11,'甲本線',1,1,2);
        INSERT OR IGNORE INTO "lines" VALUES(12,'甲支線',1,0,2);
        INSERT OR IGNORE INTO "lines" VALUES(21,'乙線',2,1,12);
        INSERT OR IGNORE INTO "lines" VALUES(31,'丙線',3,1,12);
        CREATE TABLE IF NOT EXISTS "stations" ("s_id" INTEGER PRIMARY KEY NOT NULL, "station" TEXT NOT NULL, "yomi" TEXT NOT NULL, "wiki" TEXT NOT NULL, "pref" INTEGER NOT NULL, "address" TEXT NOT NULL, "lat" INTEGER NOT NULL, "lng" INTEGER NOT NULL, "o_id" INTEGER NOT NULL, "enabled" INTEGER NOT NULL DEFAULT 1, "weight" INTEGER NOT NULL DEFAULT 0);
        INSERT OR IGNORE INTO "stations" VALUES(101,'あ駅','あ','',24,'津市1',0,0,1,1,0);
        INSERT OR IGNORE INTO "stations" VALUES(102,'いい駅','いい','',24,'津市2',0,0,1,1,0);
        INSERT OR IGNORE INTO "stations" VALUES(103,'いう駅','いう','',24,'津市3',0,0,1,1,0);
        INSERT OR IGNORE INTO "stations" VALUES(104,'うえ駅','うえ','',13,'新宿区1',0,0,1,1,0);
        INSERT OR IGNORE INTO "stations" VALUES(105,'廃駅','はい','',13,'新宿区2',0,0,1,0,0);
        INSERT OR IGNORE INTO "stations" VALUES(201,'えお駅','えお','',13,'新宿区3',0,0,2,1,0);
        INSERT OR IGNORE INTO "stations" VALUES(202,'おか駅','おか','',24,'津市4',0,0,2,1,0);
        INSERT OR IGNORE INTO "stations" VALUES(301,'かき駅','かき','',13,'新宿区4',0,0,3,1,0);
        INSERT OR IGNORE INTO "stations" VALUES(302,'きく駅','きく','',24,'津市5',0,0,3,1,0);
        CREATE TABLE IF NOT EXISTS "stations_lines" ("l_id" INTEGER NOT NULL, "s_id" INTEGER NOT NULL, "s_sort" INTEGER NOT NULL);
        INSERT OR IGNORE INTO "stations_lines" VALUES(11,101,1);
        INSERT OR IGNORE INTO "stations_lines" VALUES(11,102,2);
        INSERT OR IGNORE INTO "stations_lines" VALUES(12,102,1);
        INSERT OR IGNORE INTO "stations_lines" VALUES(12,103,2);
        INSERT OR IGNORE INTO "stations_lines" VALUES(11,105,3);
        INSERT OR IGNORE INTO "stations_lines" VALUES(21,201,1);
        INSERT OR IGNORE INTO "stations_lines" VALUES(21,202,2);
        INSERT OR IGNORE INTO "stations_lines" VALUES(31,301,1);
        INSERT OR IGNORE INTO "stations_lines" VALUES(31,302,2);

        """

    /// The originals' queries over the catalogue and the projection's completions.
    static func oracle(_ ledger: Ledger) throws -> TestDatabase {
        let db = try TestDatabase()
        try db.execute("""
            ATTACH DATABASE '\(LedgerFiles.path(LedgerFiles.catalog, in: ledger.directory))' AS cat;
            ATTACH DATABASE '\(LedgerFiles.path(LedgerFiles.projection, in: ledger.directory))' AS p;
            CREATE TEMP VIEW s AS SELECT st.*, COALESCE(c.comp_date, 0) AS cd FROM cat.stations st
              LEFT JOIN p.completions c ON c.s_id = st.s_id WHERE st.enabled = 1;
            """)
        return db
    }

    static func groups(_ report: StatsReport) -> [[String]] {
        (report.groups ?? []).map { [$0.key, String($0.counts.total), String($0.counts.completed)] }
    }

    @Test(arguments: [UInt64(1), 2, 3]) func everyLevelCountsTheOriginalsSet(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.sub("derived.sql")
        try Self.dump.write(toFile: file, atomically: true, encoding: .utf8)
        let ledger = try Harness.createLedger(dir)
        try Harness.importCatalog(ledger, file: file, version: 200)
        var rng = SeededGenerator(seed: seed)
        let ids: [UInt32] = [101, 102, 103, 104, 105, 201, 202, 301, 302]
        let drafts = ids.filter { _ in rng.next() % 2 == 0 }.map {
            StationEditDraft(station: $0, compDate: .day(2013, 9, 1 + Int(rng.next() % 3)), memo: nil)
        }
        if !drafts.isEmpty { try ledger.appendLocal(drafts) }
        let engine = StatisticsEngine(catalog: try #require(try CatalogStore.open(ledgerDirectory: ledger.directory)).loadSnapshot(),
                                      projection: try ProjectionStore.update(ledger))
        let db = try Self.oracle(ledger)

        // Header, prefectures, readings, dates: enabled stations, whatever their operator and lines.
        let header = try db.rows("SELECT count(*), sum(cd > 0) FROM s")[0]
        #expect(header[0] == "8")
        for h in StatsHierarchy.allCases {
            let top = try engine.report(h, path: [])
            #expect([String(top.counts.total), String(top.counts.completed)] == header, "\(h)")
        }
        #expect(Self.groups(try engine.report(.prefectures, path: []))
            == (try db.rows("SELECT pref, count(*), sum(cd > 0) FROM s GROUP BY pref ORDER BY pref")))
        #expect(Self.groups(try engine.report(.yomi, path: []))
            == (try db.rows("SELECT substr(yomi, 1, 1) AS k, count(*), sum(cd > 0) FROM s GROUP BY k ORDER BY k")))
        let completed = try db.rows("SELECT count(*) FROM s WHERE cd > 0")[0][0]
        #expect(Self.groups(try engine.report(.dates, path: [])).filter { $0[0] != "incomplete" }
            == (try db.rows("SELECT cd / 10000 AS y, count(*) FROM s WHERE cd > 0 GROUP BY y ORDER BY y DESC")).map { [$0[0], completed, $0[1]] })

        // Operator levels: enabled operators only.
        #expect(Self.groups(try engine.report(.operators, path: [])) == (try db.rows("""
            SELECT o.type, count(*), sum(s.cd > 0) FROM s JOIN cat.operators o ON o.o_id = s.o_id
            WHERE o.enabled = 1 GROUP BY o.type ORDER BY o.type
            """)))
        #expect(Self.groups(try engine.report(.operators, path: ["2"])) == (try db.rows("""
            SELECT o.o_id, count(*), sum(s.cd > 0) FROM s JOIN cat.operators o ON o.o_id = s.o_id
            WHERE o.enabled = 1 AND o.type = 2 GROUP BY o.o_id ORDER BY o.o_id
            """)))
        // Line level: enabled lines only; station 103 (only on the disabled line) counts above but not here.
        #expect(Self.groups(try engine.report(.operators, path: ["1", "1"])) == (try db.rows("""
            SELECT l.l_id, count(*), sum(s.cd > 0) FROM cat.stations_lines sl JOIN cat.lines l ON l.l_id = sl.l_id
            JOIN s ON s.s_id = sl.s_id WHERE l.enabled = 1 AND l.o_id = 1 GROUP BY l.l_id ORDER BY l.l_id
            """)))
        #expect(try engine.report(.operators, path: ["1", "1", "11"]).stations?.map { String($0.station) }
            == (try db.rows("""
                SELECT s.s_id FROM cat.stations_lines sl JOIN s ON s.s_id = sl.s_id WHERE sl.l_id = 11 ORDER BY sl.s_sort
                """)).map { $0[0] })
        #expect(try engine.report(.operators, path: ["1"]).groups?.first?.counts.total == 4)
    }
}
