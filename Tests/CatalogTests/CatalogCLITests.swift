import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// End to end through the built `oritsubushi` binary: commands, exit codes, JSON keys.
@Suite(.serialized) struct CatalogCLITests {
    /// A new ledger: with the bundled catalogue (a bare `init`), or bare (`--no-catalog`).
    static func setUp(catalog: Bool = true) throws -> (TemporaryDirectory, CLIRunner) {
        let dir = try TemporaryDirectory("cli")
        let cli = CLIRunner(ledger: dir.sub("demo.ledger"))
        let created = try cli.run(["init", "--device", "phone"] + (catalog ? [] : ["--no-catalog"]))
        #expect(created.status == 0, "\(created.stderr)")
        return (dir, cli)
    }

    @Test func bundledCatalogueStatsAndStationCommands() throws {
        let (dir, cli) = try Self.setUp()
        defer { dir.remove() }
        #expect(try cli.run("complete", "300260", "2013-09-01").status == 0)
        #expect(try cli.run("today", "999999").status == 65)   // not a catalogue station
        #expect(try cli.run("memo", "300260", "伊勢鉄道の津").status == 0)

        let top = try cli.run("stats", "yomi", "--json")
        #expect(top.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(top.stdout.utf8)) as? [String: Any])
        #expect(json["hierarchy"] as? String == "yomi")
        #expect(json["total"] as? Int == 9520)
        #expect(json["completed"] as? Int == 1)
        #expect(json["remaining"] as? Int == 9519)
        #expect(json["ratio_permille"] as? Int == 0)
        let leaf = try cli.run("stats", "yomi", "つ", "つ", "--json")
        let stations = try #require((try JSONSerialization.jsonObject(with: Data(leaf.stdout.utf8)) as? [String: Any])?["stations"] as? [[String: Any]])
        #expect(stations.map { $0["station"] as? Int } == [201111, 300260, 301230])
        let tsu = try #require(stations.first { $0["station"] as? Int == 300260 })
        #expect(tsu["comp_date"] as? Int == 20130901)
        #expect(tsu["memo"] as? String == "伊勢鉄道の津")
        #expect(tsu["name"] as? String == "津駅")

        let table = try cli.run("stats", "operators")
        #expect(table.stdout.contains("total / completed / rate / remaining"))
        #expect(try cli.run("stats", "dates", "2013", "201309", "20130901", "--json").stdout.contains("\"station\":300260"))
        #expect(try cli.run("stats", "operators", "99999").status == 65)
        #expect(try cli.run("stats", "prefectures", "24", "extra").status == 64)

        let found = try cli.run("station", "find", "つ", "--by", "yomi")
        #expect(found.stdout.contains("300260  津駅  つ"))
        #expect(try cli.run("station", "find", "山手", "--by", "line").stdout.split(separator: "\n").count == 33)   // any part of a line's name
        #expect(try cli.run("station", "find", "宮", "--partial").status == 0)
        let shown = try cli.run("station", "show", "300260", "--json")
        let station = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect(station["comp_date"] as? Int == 20130901)
        #expect(station["history"] as? Int == 2)
        #expect(try cli.run("station", "show", "300260", "--as-of", "2000-01-01", "--json").stdout.contains("\"history\":0"))
        #expect(try cli.run("station", "show", "999999").status == 65)
    }

    @Test func rejectedEditsLeaveTheLedgerByteIdentical() throws {
        let (dir, cli) = try Self.setUp()
        defer { dir.remove() }
        let before = try directorySnapshot(dir.sub("demo.ledger"))
        for args in [["complete", "999999", "2013"], ["today", "1"], ["memo", "42", "x"], ["uncomplete", "5"],
                     ["complete", "300260", "2013-02-30"]] {
            let result = try cli.run(args)
            #expect(result.status == 65, "\(args): \(result.stderr)")
        }
        #expect(try directorySnapshot(dir.sub("demo.ledger")) == before)
    }

    @Test func rejectedCommandsOnAFreshLedgerCreateNoSQLiteFiles() throws {
        let (dir, cli) = try Self.setUp(catalog: false)
        defer { dir.remove() }
        let before = try directorySnapshot(dir.sub("demo.ledger"))
        let bad = dir.sub("bad-3.sql")
        try "CREATE TABLE stations (s_id INTEGER);\nINSERT INTO nowhere VALUES (1);\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let result = try cli.run("catalog", "import", bad)
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 2"))
        let tsv = dir.sub("bad.tsv")
        try "1\t20130230\t0\t\n".write(toFile: tsv, atomically: true, encoding: .utf8)
        let imported = try cli.run("import", "oritsubushi-tsv", tsv)
        #expect(imported.status == 65)
        #expect(imported.stderr.contains("line 1"))
        #expect(try cli.run("complete", "0", "2013").status != 0)
        #expect(try directorySnapshot(dir.sub("demo.ledger")) == before)
    }

    @Test func importExportRebuildAndStatsAsOf() throws {
        let (dir, cli) = try Self.setUp()
        defer { dir.remove() }
        let tsv = dir.sub("upload.tsv")
        let text = "300259\t1\t1300000000\t\n300260\t20130901\t1378040000\t津\\nメモ\n"
        try text.write(toFile: tsv, atomically: true, encoding: .utf8)
        let imported = try cli.run("import", "oritsubushi-tsv", tsv)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try cli.run("import", "oritsubushi-tsv", tsv).stdout.contains("0 events appended"))
        #expect(try cli.run("export", "--format", "tsv").stdout == text)
        let jsonl = try cli.run("export", "--format", "jsonl").stdout
        #expect(jsonl.contains("{\"station\":300260,\"comp_date\":20130901,\"update_date\":1378040000,\"memo\":\"津\\nメモ\"}"))
        #expect(try cli.run("export", "--format", "sqlite").status == 64)
        let out = dir.sub("out.sqlite")
        #expect(try cli.run("export", "--format", "sqlite", "--output", out).status == 0)
        #expect(try CompletionsFile.readAppDatabase(out).count == 2)
        // rebuild gives the same projection as the incremental one.
        let beforeRebuild = try cli.run("export", "--format", "jsonl").stdout
        let rebuilt = try cli.run("rebuild")
        #expect(rebuilt.status == 0)
        #expect(try cli.run("export", "--format", "jsonl").stdout == beforeRebuild)
        // --as-of answers from the past without touching the projection.
        let past = try cli.run("stats", "dates", "--json", "--as-of", "2012-01-01")
        #expect(past.stdout.contains("\"completed\":1,"))
        #expect(try cli.run("stats", "dates", "--json").stdout.contains("\"completed\":2,"))
    }

    /// 152 (the fixture), then the bundled 176 (`catalog import` without FILE).
    @Test func bothRealDumpsImportThroughTheCLI() throws {
        let (dir, cli) = try Self.setUp(catalog: false)
        defer { dir.remove() }
        let first = try cli.run("catalog", "import", SharedData.dump(152))
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("22270 statements"))
        let second = try cli.run("catalog", "import")
        #expect(second.stdout.contains("catalogue 176 (bundled): 22538 statements"))
        #expect(try cli.run("catalog", "import", SharedData.dump(152)).status == 65)
        let stats = try cli.run("stats", "prefectures", "--json")
        #expect(stats.stdout.contains("\"total\":9520"))
    }
}
