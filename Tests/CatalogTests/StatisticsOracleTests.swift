import LedgerTestSupport
import Foundation
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// Checks every statistics level against plain SQL over the original schema (the catalogue
/// tables plus the projection's `completions`), on both real catalogues, for seeded histories.
@Suite(.serialized) struct StatisticsOracleTests {
    /// Random edits over every catalogue station (disabled ones too), with every date shape.
    static func generateHistory(_ ledger: Ledger, stations: [UInt32], seed: UInt64, count: Int) throws {
        var rng = SeededGenerator(seed: seed)
        var drafts: [StationEditDraft] = []
        for _ in 0..<count {
            let station = stations[Int(rng.next() % UInt64(stations.count))]
            let year = 1990 + Int(rng.next() % 36)
            let month = 1 + Int(rng.next() % 12)
            let date: CompletionDate
            switch rng.next() % 10 {
            case 0: date = .notCompleted
            case 1: date = .unknown
            case 2: date = .year(year)
            case 3, 4: date = .month(year, month)
            default: date = .day(year, month, 1 + Int(rng.next() % 28))
            }
            let memo: String? = rng.next() % 4 == 0 ? "memo \(rng.next() % 100)" : nil
            drafts.append(StationEditDraft(station: station, compDate: date, memo: memo))
        }
        for chunk in stride(from: 0, to: drafts.count, by: 500) {
            try ledger.appendLocal(Array(drafts[chunk..<min(chunk + 500, drafts.count)]))
        }
    }

    struct Oracle {
        let db: TestDatabase

        init(ledger: Ledger) throws {
            db = try TestDatabase()
            try db.execute("""
                ATTACH DATABASE '\(LedgerFiles.path(LedgerFiles.catalog, in: ledger.directory))' AS cat;
                ATTACH DATABASE '\(LedgerFiles.path(LedgerFiles.projection, in: ledger.directory))' AS p;
                CREATE TEMP TABLE cs AS
                  SELECT s.s_id, s.yomi, s.pref, s.address, s.o_id, o.type, COALESCE(c.comp_date, 0) AS cd
                  FROM cat.stations s JOIN cat.operators o ON o.o_id = s.o_id
                  LEFT JOIN p.completions c ON c.s_id = s.s_id
                  WHERE s.enabled = 1 AND o.enabled = 1 AND EXISTS (
                    SELECT 1 FROM cat.stations_lines sl JOIN cat.lines l ON l.l_id = sl.l_id
                    WHERE sl.s_id = s.s_id AND l.enabled = 1);
                CREATE UNIQUE INDEX temp.cs_id ON cs (s_id);
                """)
        }

        func rows(_ sql: String, _ args: [String] = []) throws -> [[String]] {
            try db.rows(sql, args)
        }

        /// (key, total, completed) of each group, or the station ids of a station level.
        func groups(_ h: StatsHierarchy, _ path: [String]) throws -> [[String]] {
            switch (h, path.count) {
            case (.operators, 0):
                return try rows("SELECT type, count(*), sum(cd > 0) FROM cs GROUP BY type ORDER BY type")
            case (.operators, 1):
                return try rows("SELECT o_id, count(*), sum(cd > 0) FROM cs WHERE type = CAST(?1 AS INTEGER) GROUP BY o_id ORDER BY o_id", path)
            case (.operators, 2):
                return try rows("""
                    SELECT l.l_id, count(*), sum(cs.cd > 0) FROM cat.stations_lines sl JOIN cat.lines l ON l.l_id = sl.l_id
                    JOIN cs ON cs.s_id = sl.s_id WHERE l.enabled = 1 AND l.o_id = CAST(?2 AS INTEGER)
                    GROUP BY l.l_id ORDER BY l.l_id
                    """, path)
            case (.prefectures, 0):
                return try rows("SELECT pref, count(*), sum(cd > 0) FROM cs GROUP BY pref ORDER BY pref")
            case (.yomi, 0):
                return try rows("SELECT substr(yomi, 1, 1) AS k, count(*), sum(cd > 0) FROM cs GROUP BY k ORDER BY k")
            case (.yomi, 1):
                return try rows("SELECT substr(yomi, 1, 2) AS k, count(*), sum(cd > 0) FROM cs WHERE substr(yomi, 1, 1) = ?1 GROUP BY k ORDER BY k", path)
            case (.dates, 0):
                let completed = try rows("SELECT count(*) FROM cs WHERE cd > 0")[0][0]
                var result = try rows("SELECT cd / 10000 AS y, count(*) FROM cs WHERE cd >= 19000000 GROUP BY y ORDER BY y DESC")
                    .map { [$0[0], completed, $0[1]] }
                let unknown = try rows("SELECT count(*) FROM cs WHERE cd = 1")[0][0]
                if unknown != "0" { result.append(["unknown", completed, unknown]) }
                let all = try rows("SELECT count(*), sum(cd = 0) FROM cs")[0]
                if all[1] != "0" { result.append(["incomplete", all[0], all[1]]) }
                return result
            case (.dates, 1):
                let total = try rows("SELECT count(*) FROM cs WHERE cd / 10000 = CAST(?1 AS INTEGER) AND cd >= 19000000", path)[0][0]
                return try rows("""
                    SELECT cd / 100 AS m, count(*) FROM cs WHERE cd / 10000 = CAST(?1 AS INTEGER) AND cd >= 19000000
                    GROUP BY m ORDER BY m % 100 = 0, m
                    """, path).map { [$0[0], total, $0[1]] }
            case (.dates, 2):
                let total = try rows("SELECT count(*) FROM cs WHERE cd / 100 = CAST(?2 AS INTEGER)", path)[0][0]
                return try rows("SELECT cd, count(*) FROM cs WHERE cd / 100 = CAST(?2 AS INTEGER) GROUP BY cd ORDER BY cd % 100 = 0, cd", path)
                    .map { [$0[0], total, $0[1]] }
            default:
                Issue.record("no oracle for \(h) \(path)")
                return []
            }
        }

        func stations(_ h: StatsHierarchy, _ path: [String]) throws -> [String] {
            let sql: String
            switch h {
            case .operators:
                sql = "SELECT cs.s_id FROM cat.stations_lines sl JOIN cs ON cs.s_id = sl.s_id WHERE sl.l_id = CAST(?3 AS INTEGER) ORDER BY sl.s_sort, cs.s_id"
            case .prefectures:
                sql = "SELECT s_id FROM cs WHERE pref = CAST(?1 AS INTEGER) ORDER BY address, s_id"
            case .yomi:
                sql = "SELECT s_id FROM cs WHERE substr(yomi, 1, 2) = ?2 ORDER BY yomi, s_id"
            case .dates:
                let code: String
                switch path[0] {
                case "unknown": code = "1"
                case "incomplete": code = "0"
                default: code = path.count == 2 ? path[1] + "00" : path[2]
                }
                return try rows("SELECT s_id FROM cs WHERE cd = CAST(?1 AS INTEGER) ORDER BY s_id", [code]).map { $0[0] }
            }
            return try rows(sql, path).map { $0[0] }
        }
    }

    static func check(_ engine: StatisticsEngine, _ oracle: Oracle, _ h: StatsHierarchy, _ path: [String],
                      rng: inout SeededGenerator, checked: inout Int) throws {
        let report = try engine.report(h, path: path)
        checked += 1
        if let groups = report.groups {
            let expected = try oracle.groups(h, path)
            let actual = groups.map { [$0.key, String($0.counts.total), String($0.counts.completed)] }
            #expect(actual == expected, "\(h) \(path)")
            for g in groups {
                #expect(g.counts.ratioPermille == g.counts.completed * 1000 / g.counts.total)
                #expect(g.counts.remaining == g.counts.total - g.counts.completed)
                // Descend into every group above the station level and a sample of the rest.
                let next = path + [g.key]
                let leafNext = (h == .operators && next.count == 3) || (h == .prefectures) || (h == .yomi && next.count == 2)
                    || (h == .dates && (next.count == 3 || g.key == "unknown" || g.key == "incomplete" || g.key.hasSuffix("00") && next.count == 2))
                // Every top-level group, then a seeded sample below (the suite must stay fast).
                if path.isEmpty || (!leafNext && rng.next() % 3 == 0) || rng.next() % 12 == 0 {
                    try check(engine, oracle, h, next, rng: &rng, checked: &checked)
                }
            }
        } else {
            let expected = try oracle.stations(h, path)
            let stations = report.stations ?? []
            #expect(stations.map { String($0.station) } == expected, "\(h) \(path)")
            #expect(report.counts.completed == stations.filter { $0.compDate > 0 }.count || h == .dates)
        }
    }

    @Test func everyLevelMatchesTheSQLOracleOnTheBundledCatalogue() throws {
        try Self.checkEveryLevel(version: 176, seed: 2)
    }

    @Test func everyLevelMatchesTheSQLOracleOn152() throws {
        try Self.checkEveryLevel(version: 152, seed: 1)
    }

    static func checkEveryLevel(version: Int, seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        try Harness.importCatalog(ledger, file: SharedData.dump(version), version: UInt32(version))
        let catalog = try #require(try CatalogStore.open(ledgerDirectory: ledger.directory))
        let snapshot = try catalog.loadSnapshot()
        try Self.generateHistory(ledger, stations: snapshot.stations.map(\.id), seed: seed, count: 6000)
        let projection = try ProjectionStore.update(ledger)
        let engine = StatisticsEngine(catalog: snapshot, projection: projection)
        let oracle = try Oracle(ledger: ledger)
        let all = try oracle.rows("SELECT count(*), sum(cd > 0) FROM cs")[0]
        var rng = SeededGenerator(seed: seed)
        var checked = 0
        for h in StatsHierarchy.allCases {
            let top = try engine.report(h, path: [])
            #expect([String(top.counts.total), String(top.counts.completed)] == all, "\(h) header")
            try Self.check(engine, oracle, h, [], rng: &rng, checked: &checked)
        }
        #expect(checked > 150)
        if version == 176 { #expect(all[0] == "9520") }
    }

    /// 津 (reading 「つ」) forms its own group of three, and the header of that group says three.
    @Test func theTsuGroupHoldsExactlyTheThreeTsuStations() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        try Harness.importCatalog(ledger, file: SharedData.dump(176), version: 176)
        let engine = StatisticsEngine(catalog: try #require(try CatalogStore.open(ledgerDirectory: ledger.directory)).loadSnapshot(),
                                      projection: try ProjectionStore.update(ledger))
        let level2 = try engine.report(.yomi, path: ["つ"])
        #expect(level2.groups?.first?.key == "つ")
        #expect(level2.groups?.first?.counts.total == 3)
        let list = try engine.report(.yomi, path: ["つ", "つ"])
        #expect(list.counts.total == 3)
        #expect(list.stations?.map(\.station) == [201111, 300260, 301230])
        #expect(try engine.report(.operators, path: []).groups?.map(\.key) == ["1", "2", "3", "4", "5", "6", "7", "8", "10"])
    }

    @Test(arguments: [(0, 0, -1), (3, 1, 333), (3, 2, 666), (1000, 999, 999), (7, 7, 1000)])
    func ratiosAreTruncatedPerMille(total: Int, completed: Int, permille: Int) {
        #expect(StatsCounts(total: total, completed: completed).ratioPermille == permille)
    }
}
