import Foundation
import LedgerTestSupport
import Testing

/// `complete --batch FILE|-` through the built executable, on a ledger with the bundled
/// catalogue: a good batch is one append (consecutive seqs) with one line per station and a
/// summary; running it again records nothing; every bad batch is refused naming its line, with
/// nothing written.
@Suite struct CompleteBatchTests {
    static let fixture = BundledLedgerFixture(label: "batch", setup: [])

    @Test func batchIsOneAppend() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let batch = "駒ヶ根\t2013-09-01\n201111\t2014\tメモ\n\n牛ケ原駅\tlast\n300645\tunknown\t\n"
        try batch.write(toFile: work + "/batch.tsv", atomically: true, encoding: .utf8)
        let result = try cli.run("complete", "--batch", work + "/batch.tsv")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(result.stdout)")
        #expect(lines[0].hasPrefix("200126  駒ヶ根駅  東海旅客鉄道  飯田線: date 2013-09-01 (event"), "\(lines[0])")
        #expect(lines[1].hasPrefix("201111  津駅  東海旅客鉄道  紀勢本線: date 2014, memo set (event"), "\(lines[1])")
        #expect(lines[2].hasPrefix("200457  牛ケ原駅  西日本旅客鉄道  越美北線: date 2014 (event"), "last is the line before's date")
        #expect(lines[3].hasPrefix("300645  新宿駅  京王電鉄  京王線: date unknown (event"), "an empty memo column on a new station changes nothing")
        #expect(lines[4] == "4 stations in the batch: 4 recorded, 0 unchanged")
        let state = try String(contentsOfFile: work + "/ledger/ui-state.json", encoding: .utf8)
        #expect(state.contains("\"last_date\":\"unknown\""), "the batch's last completed date: \(state)")
        let replay = try cli.run("replay", "--format", "jsonl").stdout.split(separator: "\n").map { line in
            try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        }
        let seqs = replay.compactMap { $0["seq"] as? Int }
        #expect(seqs.count == 4 && seqs == Array(seqs[0]..<seqs[0] + 4), "\(seqs)")
        #expect(Set(replay.compactMap { $0["time"] as? String }).count == 1, "one append, one clock reading")

        let again = try cli.run("complete", "--batch", work + "/batch.tsv")
        #expect(again.status == 0 && again.stdout.hasSuffix("4 stations in the batch: 0 recorded, 4 unchanged\n"), "\(again.stdout)")
        #expect(try cli.run("replay").stdout.split(separator: "\n").count == 4)
        // An empty MEMO column leaves the memo (メモ) as it is.
        let emptyMemo = try cli.run(["complete", "--batch", "-"], stdin: "201111\t2014\t\n")
        #expect(emptyMemo.stdout.hasPrefix("201111  津駅  東海旅客鉄道  紀勢本線: unchanged (date 2014, memo as given)"), "\(emptyMemo.stdout)")
        // The last batch's last completed date is remembered for `last`.
        #expect(try cli.run("complete", "鳥羽", "last", "--operator", "近鉄").stdout.contains(": date 2014 (event"))
    }

    @Test func batchFromStandardInputWithQualifiers() throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let result = try cli.run(["complete", "--batch", "-", "--operator", "近鉄"], stdin: "津\t2013-09-01\r\nとば\t2013-09-02\tmemo\r\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("301230  津駅  近畿日本鉄道  名古屋線: date 2013-09-01"), "\(result.stdout)")
        #expect(result.stdout.contains("301180  鳥羽駅") && result.stdout.contains(": date 2013-09-02, memo set"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("2 stations in the batch: 2 recorded, 0 unchanged\n"))
    }

    struct Bad: CustomStringConvertible, Sendable {
        var label: String
        var content: [UInt8]?
        var arguments: [String] = ["complete", "--batch", "FILE"]
        var status: Int32 = 65
        var error: String
        var lines = 1
        var description: String { label }

        init(_ label: String, _ text: String?, status: Int32 = 65, arguments: [String]? = nil, error: String, lines: Int = 1) {
            self.label = label
            content = text.map { Array($0.utf8) }
            if let arguments { self.arguments = arguments }
            self.status = status
            self.error = error
            self.lines = lines
        }
    }

    static let bad: [Bad] = {
        var cases = [
            Bad("ambiguous name", "201111\t2013\n津\t2014\n", error: "line 2 of FILE: 津 matches 3 stations; add --operator", lines: 4),
            Bad("bad date", "201111\t2013\n\n202758\tsoon\n", error: "line 3 of FILE: 'soon' is not a completion date"),
            Bad("future date", "201111\t2027\n", error: "line 1 of FILE: "),
            Bad("one field", "201111\t2013\n201112\n", error: "line 2 of FILE: expected STATION<TAB>DATE[<TAB>MEMO], found 1 field"),
            Bad("four fields", "201111\t2013\tm\tx\n", error: "line 1 of FILE: expected STATION<TAB>DATE[<TAB>MEMO], found 4 fields"),
            Bad("unknown s_id", "999999\t2013\n", error: "line 1 of FILE: station 999999 is not in the station catalogue"),
            Bad("station 0", "0\t2013\n", error: "line 1 of FILE: station 0 is not a station id"),
            Bad("no such name", "201111\t2013\nゑゑゑ\t2013\n", error: "line 2 of FILE: no enabled station is named ゑゑゑ"),
            Bad("station twice", "201111\t2013\n津\t2014\n", arguments: ["complete", "--batch", "FILE", "--operator", "JR東海"],
                error: "line 2 of FILE: station 201111 is already on line 1"),
            Bad("last with nothing before", "201111\tlast\n", error: "line 1 of FILE: there is no previous date for 'last'"),
            Bad("oversize memo", "201111\t2013\t" + String(repeating: "x", count: 4097) + "\n", error: "line 1 of FILE: the memo is 4097 bytes"),
            Bad("empty file", "\n\n", error: "FILE lists no stations"),
            Bad("missing file", nil, status: 66, error: "cannot read FILE: no such file"),
            Bad("station argument too", "201111\t2013\n", status: 64, arguments: ["complete", "--batch", "FILE", "201111", "2013"],
                error: "--batch takes no STATION or DATE argument"),
            Bad("memo option too", "201111\t2013\n", status: 64, arguments: ["complete", "--batch", "FILE", "--memo", "m"],
                error: "--memo cannot be used with --batch"),
        ]
        var invalid = Bad("invalid UTF-8", nil, error: "FILE is not valid UTF-8")
        invalid.content = Array("201111\t2013\tbad".utf8) + [0xFF, 0x0A]
        cases.append(invalid)
        return cases
    }()

    @Test(arguments: bad)
    func badBatchWritesNothing(_ item: Bad) throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let file = work + "/batch.tsv"
        if let content = item.content { try Data(content).write(to: URL(fileURLWithPath: file)) }
        let before = try directorySnapshot(work)
        let result = try cli.run(item.arguments.map { $0 == "FILE" ? file : $0 })
        #expect(result.status == item.status, "\(item): \(result.stderr)")
        #expect(snapshotDifferences(before, try directorySnapshot(work)).isEmpty, "\(item) changed the ledger")
        #expect(result.stdout.isEmpty, "\(item): \(result.stdout)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first.map { $0.hasPrefix("error: ") && $0.contains(item.error.replacingOccurrences(of: "FILE", with: file)) } == true,
                "\(item): \(result.stderr)")
        #expect(lines.count == item.lines, "\(item): \(result.stderr)")
    }
}
