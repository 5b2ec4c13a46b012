import Foundation
import LedgerTestSupport
import Testing

/// Input files as people have them (Schemas/import-export.md, "Text files"), through the built
/// executable. A UTF-8 byte order mark and CRLF line ends (a file saved on Windows) are read as the
/// plain file; a check reports every bad line in one run (up to 20, then how many more) and writes
/// nothing; `--dry-run` lists what would be recorded and writes nothing.
@Suite struct InputFileTests {
    static let fixture = BundledLedgerFixture(label: "input", setup: [])
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    @Test("a batch with a byte order mark and CRLF line ends")
    func windowsBatch() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let file = work + "/batch.tsv"
        try Data(Self.bom + Array("駒ヶ根\t2013-09-01\tメモ\r\n201111\t2014\t二行目\r\n".utf8)).write(to: URL(fileURLWithPath: file))
        let result = try cli.run("complete", "--batch", file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("200126  駒ヶ根駅  ") && result.stdout.contains(": date 2013-09-01, memo set (event"), "\(result.stdout)")
        let memos = try Self.memos(cli)
        #expect(memos == ["メモ", "二行目"], "\(memos)")
    }

    @Test("an oritsubushi-tsv import with a byte order mark and CRLF line ends")
    func windowsTSV() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let file = work + "/in.tsv"
        try Data(Self.bom + Array("201111\t20130901\t1700000000\tmemo\r\n300260\t20140000\t1700000001\t\r\n".utf8))
            .write(to: URL(fileURLWithPath: file))
        let result = try cli.run("import", "oritsubushi-tsv", file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try cli.run("export", "--format", "tsv").stdout == "201111\t20130901\t1700000000\tmemo\n300260\t20140000\t1700000001\t\n")
    }

    @Test("a catalogue dump with a byte order mark imports")
    func catalogueDumpWithBOM() throws {
        let scratch = try TemporaryDirectory("bom-dump")
        defer { scratch.remove() }
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/sample-catalog-176.sql")
        try Data(Self.bom + Array(try Data(contentsOf: sample))).write(to: URL(fileURLWithPath: scratch.sub("stations-176.sql")))
        let cli = CLIRunner(ledger: scratch.sub("l"))
        #expect(try cli.run("init", "--no-catalog").status == 0)
        let result = try cli.run("catalog", "import", scratch.sub("stations-176.sql"))
        #expect(result.status == 0, "\(result.stderr)")
    }

    struct BadFile: CustomStringConvertible, Sendable {
        var label: String
        var arguments: [String]
        var content: String
        var bad: [Int]
        var description: String { label }
    }

    static let badFiles: [BadFile] = [
        BadFile(label: "batch", arguments: ["complete", "--batch", "FILE"],
                content: "201111\t2013\r\n201112\r\n300260\tsoon\r\n201111\t2014\r\n300645\t2014\r\n", bad: [2, 3, 4]),
        BadFile(label: "tsv", arguments: ["import", "oritsubushi-tsv", "FILE"],
                content: "201111\t20130901\t1\t\nx\t1\t1\t\n300260\t20131301\t1\t\n300645\t1\t1\tok\n", bad: [2, 3]),
        BadFile(label: "batch over the limit", arguments: ["complete", "--batch", "FILE"],
                content: (0..<25).map { "20111\($0 % 10)\tsoon\($0)\n" }.joined(), bad: Array(1...20)),
    ]

    @Test("every bad line is reported in one run, and nothing is written", arguments: badFiles)
    func everyBadLine(_ item: BadFile) throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let file = work + "/input.txt"
        try item.content.write(toFile: file, atomically: true, encoding: .utf8)
        let before = try directorySnapshot(work)
        let result = try cli.run(item.arguments.map { $0 == "FILE" ? file : $0 })
        #expect(result.status == 65, "\(item): \(result.stderr)")
        #expect(snapshotDifferences(before, try directorySnapshot(work)).isEmpty, "\(item) wrote")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let total = item.content.split(separator: "\n").count > 20 ? 25 : item.bad.count
        #expect(lines.first == "error: \(total) lines of \(file) are bad; nothing was written", "\(item): \(result.stderr)")
        for number in item.bad {
            #expect(lines.contains { $0.contains("line \(number) of \(file)") || $0.contains("\(file), line \(number))") },
                    "\(item): line \(number) not reported: \(result.stderr)")
        }
        if total > 20 { #expect(lines.last == "… and 5 more", "\(result.stderr)") }
    }

    @Test("complete --batch --dry-run and import --dry-run list what would happen and write nothing", arguments: [
        (["complete", "--batch", "FILE", "--dry-run"], "201111\t2013\n300260\t2014\tメモ\n",
         ["201111  津駅  東海旅客鉄道  紀勢本線: date 2013 (would be recorded)", "300260  津駅  伊勢鉄道  伊勢線: date 2014, memo set (would be recorded)",
          "2 stations in the batch: 2 would be recorded, 0 unchanged; nothing was written (--dry-run)"]),
        (["import", "oritsubushi-tsv", "FILE", "--dry-run"], "201111\t20130901\t1700000000\t\n300260\t20140000\t1700000001\tメモ\n",
         ["201111  津駅  東海旅客鉄道  紀勢本線: date 2013-09-01", "300260  津駅  伊勢鉄道  伊勢線: date 2014, memo set",
          "dry run: would import 2 rows: 2 events to append, 0 rows unchanged; nothing was written"]),
        (["import", "oritsubushi-tsv", "FILE", "--dry-run", "--lang", "ja"], "201111\t20130901\t1700000000\t\n300260\t20140000\t1700000001\tメモ\n",
         ["201111  津駅  東海旅客鉄道  紀勢本線: 乗下車日 2013年9月1日", "300260  津駅  伊勢鉄道  伊勢線: 乗下車日 2014年頃、メモ設定",
          "試行: 2行を取り込む予定 (記録 2件を追加、0行は変更なし)。何も書き込んでいません"]),
    ])
    func dryRun(_ arguments: [String], _ content: String, _ expected: [String]) throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let file = work + "/input.txt"
        try content.write(toFile: file, atomically: true, encoding: .utf8)
        let before = try directorySnapshot(work)
        let result = try cli.run(arguments.map { $0 == "FILE" ? file : $0 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected, "\(result.stdout)")
        #expect(snapshotDifferences(before, try directorySnapshot(work)).isEmpty, "a dry run wrote")
    }

    /// The memos of the log's station edits, in order.
    static func memos(_ cli: CLIRunner) throws -> [String] {
        try cli.run("replay", "--format", "jsonl").stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["memo"] as? String
        }
    }
}
