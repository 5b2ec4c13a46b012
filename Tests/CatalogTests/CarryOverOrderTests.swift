import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// Carry-overs regardless of order (Schemas/projection.md §4): every recorded carry-over is re-evaluated
/// whenever events arrive, and what a replica ends with depends on the events it holds, not on
/// the order they came in or on when it imported the catalogue.
@Suite(.serialized) struct CarryOverOrderTests {
    /// Sources 101…104, targets 901…904: a plain carry, a chain (902 ← 901), an
    /// `INSERT OR REPLACE` (903), and a target with two sources (904).
    static let dump = """
        CREATE TABLE IF NOT EXISTS "operators" ("o_id" INTEGER PRIMARY KEY NOT NULL, "operator" TEXT NOT NULL, "type" INTEGER NOT NULL, "enabled" INTEGER NOT NULL DEFAULT 1);
        INSERT OR IGNORE INTO "operators" VALUES(1,'甲鉄道',1,1);
        CREATE TABLE IF NOT EXISTS "stations" ("s_id" INTEGER PRIMARY KEY NOT NULL, "station" TEXT NOT NULL, "yomi" TEXT NOT NULL, "wiki" TEXT NOT NULL, "pref" INTEGER NOT NULL, "address" TEXT NOT NULL, "lat" INTEGER NOT NULL, "lng" INTEGER NOT NULL, "o_id" INTEGER NOT NULL, "enabled" INTEGER NOT NULL DEFAULT 1, "weight" INTEGER NOT NULL DEFAULT 0);
        INSERT OR IGNORE INTO "stations" VALUES(101,'甲駅','こう','',24,'',0,0,1,0,0);
        INSERT OR IGNORE INTO "stations" VALUES(102,'乙駅','おつ','',24,'',0,0,1,0,0);
        INSERT OR IGNORE INTO "stations" VALUES(103,'丙駅','へい','',24,'',0,0,1,0,0);
        INSERT OR IGNORE INTO "stations" VALUES(104,'丁駅','てい','',24,'',0,0,1,0,0);
        INSERT OR IGNORE INTO "stations" VALUES(901,'新甲駅','しんこう','',24,'',0,0,1,1,0);
        INSERT OR IGNORE INTO "stations" VALUES(902,'新新甲駅','しんしんこう','',24,'',0,0,1,1,0);
        INSERT OR IGNORE INTO "stations" VALUES(903,'新乙駅','しんおつ','',24,'',0,0,1,1,0);
        INSERT OR IGNORE INTO "stations" VALUES(904,'新丙駅','しんへい','',24,'',0,0,1,1,0);
        INSERT OR IGNORE INTO completions SELECT 901, comp_date, strftime('%s','now'), memo FROM completions WHERE s_id = 101 AND comp_date > 0;
        INSERT OR IGNORE INTO completions SELECT 902, comp_date, strftime('%s','now'), memo FROM completions WHERE s_id = 901 AND comp_date > 0;
        INSERT OR REPLACE INTO completions SELECT 903, comp_date, strftime('%s','now'), memo FROM completions WHERE s_id = 102 AND comp_date > 0;
        INSERT OR IGNORE INTO completions SELECT 904, comp_date, strftime('%s','now'), memo FROM completions WHERE s_id = 103 AND comp_date > 0;
        INSERT OR IGNORE INTO completions SELECT 904, comp_date, strftime('%s','now'), memo FROM completions WHERE s_id = 104 AND comp_date > 0;

        """
    static let stations: [UInt32] = [101, 102, 103, 104, 901, 902, 903, 904]

    /// Events of three other devices: edits of sources and targets, in the past.
    static func remoteStreams(_ rng: inout SeededGenerator) -> [[StationEdit]] {
        let dates: [CompletionDate] = [.notCompleted, .unknown, .year(2001), .month(2010, 4), .day(2020, 2, 29)]
        return (1...3).map { d in
            let device = DeviceID(rawValue: 0xD000 + UInt64(d))
            var hlc = 1_500_000_000_000 + Int64(rng.next() % 1_000_000)
            return (1...Int(3 + rng.next() % 6)).map { seq in
                hlc += Int64(rng.next() % 5_000_000) - 1_000_000  // devices' clocks are not monotone with each other
                let station = rng.next() % 3 == 0 ? stations[4 + Int(rng.next() % 4)] : stations[Int(rng.next() % 4)]
                let date: CompletionDate? = rng.next() % 4 == 0 ? nil : dates[Int(rng.next() % UInt64(dates.count))]
                let memo: String? = date == nil || rng.next() % 3 == 0 ? "m\(rng.next() % 3)" : nil
                return StationEdit(id: EventID(device: device, seq: UInt64(seq)), hlc: HybridTimestamp(milliseconds: hlc),
                                   station: station, compDate: date, memo: memo, origin: .user)
            }
        }
    }

    /// A replica: imports the catalogue after `importAfter` deliveries; each delivery is the
    /// next event of a random stream, followed by what a command does (catch up, settle, save).
    static func replica(_ dir: TemporaryDirectory, name: String, streams: [[StationEdit]], importAfter: Int,
                        rng: inout SeededGenerator) throws -> [String] {
        let ledger = try Harness.createLedger(dir, name: name)
        defer { ledger.close() }
        let dumpFile = dir.sub("carry.sql")
        var next = Array(repeating: 0, count: streams.count)
        var delivered = 0
        while true {
            if delivered == importAfter { try Harness.importCatalog(ledger, file: dumpFile, version: 300) }
            let open = streams.indices.filter { next[$0] < streams[$0].count }
            guard !open.isEmpty else { break }
            let s = open[Int(rng.next() % UInt64(open.count))]
            try ledger.append([.stationEdit(streams[s][next[s]])])
            next[s] += 1
            delivered += 1
            var projection = try ProjectionStore.load(ledger)
            try CarryOverPlanner.settle(ledger, projection: &projection)
            try ProjectionStore.save(&projection, ledger: ledger)
        }
        let projection = try ProjectionStore.update(ledger)
        return stations.map { s in
            let row = projection.row(s) ?? ProjectedStation()
            return "\(s) \(row.compDate) \(row.memo) \(row.updateDate)"
        }
    }

    @Test(arguments: Array(UInt64(1)...60)) func twoReplicasInDifferentOrdersEndTheSame(seed: UInt64) throws {
        let dir = try TemporaryDirectory("carry")
        defer { dir.remove() }
        try Self.dump.write(toFile: dir.sub("carry.sql"), atomically: true, encoding: .utf8)
        var rng = SeededGenerator(seed: seed)
        let streams = Self.remoteStreams(&rng)
        let total = streams.map(\.count).reduce(0, +)
        let first = try Self.replica(dir, name: "x", streams: streams, importAfter: 0, rng: &rng)
        let second = try Self.replica(dir, name: "y", streams: streams, importAfter: Int(rng.next() % UInt64(total + 1)), rng: &rng)
        #expect(first == second, "seed \(seed)")
    }

    /// A completed source carries to its target on the replica that had the catalogue first.
    @Test func aSourceArrivingAfterTheCatalogueCarries() throws {
        let dir = try TemporaryDirectory("carry")
        defer { dir.remove() }
        try Self.dump.write(toFile: dir.sub("carry.sql"), atomically: true, encoding: .utf8)
        let ledger = try Harness.createLedger(dir)
        defer { ledger.close() }
        try Harness.importCatalog(ledger, file: dir.sub("carry.sql"), version: 300)
        let edit = StationEdit(id: EventID(device: DeviceID(rawValue: 7), seq: 1), hlc: HybridTimestamp(milliseconds: 1_600_000_000_000),
                               station: 101, compDate: .day(2013, 9, 1), memo: "北口", origin: .user)
        try ledger.append([.stationEdit(edit)])
        var projection = try ProjectionStore.load(ledger)
        #expect(try CarryOverPlanner.settle(ledger, projection: &projection).count == 2)  // 901, then 902 (chain)
        #expect(try CarryOverPlanner.settle(ledger, projection: &projection).isEmpty)     // fired once
        #expect(projection.row(901)?.compDate == 20130901)
        #expect(projection.row(902)?.memo == "北口")
        #expect(projection.row(902)?.updateDate == 1_600_000_000)
    }

    /// A catalogue newer than a device's data, then the data (Schemas/projection.md §4). The apps
    /// (which upgrade with the data present) carry 306021 ← 304383 (v156), 306095 ← 301887 (v160)
    /// and 302456 ← 304726 (v162, INSERT OR REPLACE); so must the ledger.
    @Test(arguments: [["init", "--no-catalog"], ["init"]])
    func aV152DevicesDataImportedAfterCatalogue176Carries(initArguments: [String]) throws {
        let dir = try TemporaryDirectory("carry-cli")
        defer { dir.remove() }
        let cli = CLIRunner(ledger: dir.sub("l"))
        #expect(try cli.run(initArguments + ["--device", "phone"]).status == 0)
        if initArguments.contains("--no-catalog") {
            let imported = try cli.run("catalog", "import")
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let data = "304383\t20100501\t1300000000\t北口\n301887\t20110600\t1310000000\t\n304726\t20120701\t1320000000\t北神\n"
        try data.write(toFile: dir.sub("v152.tsv"), atomically: true, encoding: .utf8)
        let result = try cli.run("import", "oritsubushi-tsv", dir.sub("v152.tsv"))
        #expect(result.status == 0, "\(result.stderr)")
        let exported = try cli.run("export", "--format", "tsv")
        let rows = try OritsubushiTSV.parse(Array(exported.stdout.utf8), file: "export.tsv")
        let byStation = Dictionary(uniqueKeysWithValues: rows.map { ($0.station, $0) })
        #expect(byStation[306021].map { [$0.compDate, UInt32($0.updateDate)] } == [20100501, 1300000000])
        #expect(byStation[306021]?.memo == "北口")
        #expect(byStation[306095]?.compDate == 20110600)
        #expect(byStation[302456].map { "\($0.compDate) \($0.memo)" } == "20120701 北神")
        // Importing the same data again appends nothing, carry-overs included.
        #expect(try cli.run("import", "oritsubushi-tsv", dir.sub("v152.tsv")).stdout.contains(": 0 events appended"))
        #expect(try cli.run("export", "--format", "tsv").stdout == exported.stdout)
    }
}
