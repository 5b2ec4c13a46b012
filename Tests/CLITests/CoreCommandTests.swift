import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// End-to-end tests of the ledger-core commands through the built executable.
@Suite struct CoreCommandTests {
    /// `--since` as a Japanese keyboard types it reads as its ASCII spelling: full-width digits,
    /// ー or − for the hyphen, a trailing JST (`TypedTime`).
    @Test("replay --since reads full-width digits and a JST suffix as the ASCII time",
          arguments: [("２０２６−１１−２２", "2026-11-22", 5), ("２０２６ー１１ー２３", "2026-11-23", 0),
                      ("2026-11-22T11:59 JST", "2026-11-22T11:59", 5), ("２０２６-１１-２２Ｔ１２：０１ jst", "2026-11-22T12:01", 0)])
    func sinceAsTyped(typed: String, ascii: String, lines: Int) throws {
        let scratch = try TemporaryDirectory("cli-since")
        defer { scratch.remove() }
        let cli = CLIRunner(ledger: scratch.path + "/l")
        #expect(try cli.run("init", "--device", "phone", "--no-catalog").status == 0)
        for station in ["202919", "120004", "300290", "1130101", "1130102"] {
            #expect(try cli.run("complete", station, "2013").status == 0)
        }
        let asTyped = try cli.run("replay", "--since", typed), plain = try cli.run("replay", "--since", ascii)
        #expect(asTyped.status == 0 && plain.status == 0, "\(asTyped.stderr)")
        #expect(asTyped.stdout == plain.stdout)
        #expect(asTyped.stdout.split(separator: "\n").count == lines, "\(asTyped.stdout)")
        let refused = try cli.run("replay", "--since", "２０２６年")
        #expect(refused.status == 64 && refused.stderr.contains("ISO 8601"))
    }

    @Test func recordReplayAndVerify() throws {
        let scratch = try TemporaryDirectory("cli")
        defer { scratch.remove() }
        let cli = CLIRunner(ledger: scratch.path + "/l")
        let created = try cli.run("init", "--device", "phone", "--no-catalog")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try cli.run("complete", "202919", "2013-09-01", "--memo", "東京駅\n\t\\ 🚃").status == 0)
        #expect(try cli.run("complete", "120004", "2013-09").status == 0)
        #expect(try cli.run("today", "300290").status == 0)
        #expect(try cli.run("memo", "120004", "memo only").status == 0)
        #expect(try cli.run("uncomplete", "202919").status == 0)

        let replay = try cli.run("replay", "--format", "jsonl")
        #expect(replay.status == 0)
        let lines = replay.stdout.split(separator: "\n").map { line in
            try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        }
        #expect(lines.count == 5)
        #expect(lines.map { $0["seq"] as? Int } == [1, 2, 3, 4, 5])
        #expect(lines[0]["station"] as? Int == 202919)
        #expect(lines[0]["comp_date"] as? Int == 20130901)
        #expect(lines[0]["memo"] as? String == "東京駅\n\t\\ 🚃")
        #expect(lines[0]["device_name"] as? String == "phone")
        #expect(lines[0]["origin"] as? String == "user")
        #expect((lines[0]["time"] as? String)?.hasPrefix("2026-11-22T03:00:00") == true)
        #expect(lines[1]["comp_date"] as? Int == 20130900 && lines[1]["memo"] == nil)
        #expect(lines[2]["comp_date"] as? Int == 20261122)
        #expect(lines[3]["comp_date"] == nil && lines[3]["memo"] as? String == "memo only")
        #expect(lines[4]["comp_date"] as? Int == 0)
        #expect(Set(lines.compactMap { $0["device"] as? String }).count == 1)

        let filtered = try cli.run("replay", "--station", "120004", "--format", "jsonl")
        #expect(filtered.stdout.split(separator: "\n").count == 2)
        let byDevice = try cli.run("replay", "--device", "phone")
        #expect(byDevice.stdout.split(separator: "\n").count == 5)
        let since = try cli.run("replay", "--since", "2030-01-01T00:00:00Z")
        #expect(since.status == 0 && since.stdout.isEmpty)

        let history = try cli.run("history", "202919")
        #expect(history.status == 0)
        // The header names the station: without a catalogue, by its s_id alone.
        #expect(history.stdout.split(separator: "\n").count == 3)
        #expect(history.stdout.hasPrefix("202919\n"), "\(history.stdout)")
        #expect(history.stdout.contains("date 2013-09-01") && history.stdout.contains("date none"))

        let verify = try cli.run("verify", "--json")
        #expect(verify.status == 0)
        let summary = try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as! [String: Any]
        #expect(summary["events"] as? Int == 5)
        #expect(try cli.run("status").stdout.contains("phone"))
    }

    /// `replay` writes its lines with `EventLineWriter` (bytes, cached prefixes); `history` still
    /// with `EventFormatter`. For the busiest stations of a generated ledger, plus memos that need
    /// every escape, both print the same lines, byte for byte, in both formats and languages
    /// (history's text adds its header line naming the station).
    @Test("replay's byte writer prints exactly EventFormatter's lines", arguments: [
        ["--format", "jsonl"], ["--format", "text", "--lang", "en"], ["--format", "text", "--lang", "ja"],
    ])
    func replayLinesMatchTheFormatter(_ format: [String]) throws {
        let scratch = try TemporaryDirectory("cli-replay-bytes")
        defer { scratch.remove() }
        let cli = CLIRunner(ledger: scratch.path + "/l")
        #expect(try cli.run("generate", "--events", "3000", "--devices", "3", "--seed", "5").status == 0)
        let memos = ["\"quoted\" \\ back", "tab\tnew\nline\rcr", "ctl\u{01}\u{1f}end", "東京駅 🚃", ""]
        let jsonl = try cli.run("replay", "--format", "jsonl").stdout.split(separator: "\n")
        let stations = Dictionary(grouping: jsonl.compactMap { line -> Int? in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["station"] as? Int
        }, by: { $0 }).sorted { ($0.value.count, $0.key) > ($1.value.count, $1.key) }.prefix(4).map(\.key)
        for (index, memo) in memos.enumerated() {
            #expect(try cli.run("memo", String(stations[index % stations.count]), memo).status == 0)
        }
        for station in stations {
            let replayed = try cli.run(["replay", "--station", String(station)] + format)
            let history = try cli.run(["history", String(station)] + format)
            #expect(replayed.status == 0 && history.status == 0)
            let events = history.stdout.split(separator: "\n").dropFirst(format.contains("text") ? 1 : 0)
            #expect(replayed.stdout.split(separator: "\n").sorted() == events.sorted(), "station \(station)")
            #expect(!replayed.stdout.isEmpty)
        }
    }

    @Test func unchangedValuesAppendNothing() throws {
        let scratch = try TemporaryDirectory("cli")
        defer { scratch.remove() }
        let cli = CLIRunner(ledger: scratch.path + "/l")
        try cli.run("init", "--no-catalog")
        try cli.run("complete", "5", "2013", "--memo", "m")
        let before = try directorySnapshot(scratch.path)
        for args in [["complete", "5", "2013"], ["complete", "5", "2013", "--memo", "m"], ["memo", "5", "m"], ["uncomplete", "6"]] {
            let result = try cli.run(args)
            #expect(result.status == 0)
            #expect(result.stdout.contains("nothing recorded"), "\(args): \(result.stdout)")
        }
        #expect(try directorySnapshot(scratch.path) == before)
    }

    /// Every rejected command: its exit code, a one-sentence error, and the ledger unchanged.
    @Test(arguments: [
        (["complete", "5", "2099-01-01"], 65 as Int32, "future"),
        (["complete", "5", "2026-11-23"], 65, "future"),
        (["complete", "5", "2013-02-30"], 65, "not a real date"),
        (["complete", "5", "1900-02-29"], 65, "not a real date"),
        (["complete", "5", "1899"], 65, "not a real date"),
        (["complete", "5", "13-9-1"], 65, "not a completion date"),
        (["complete", "5", "20130230"], 65, "comp_date"),
        (["complete", "5", "15"], 65, "not a completion date"),
        (["complete", "0", "2013"], 65, "station 0"),
        (["memo", "5", String(repeating: "x", count: 4097)], 65, "4096"),
        (["complete", "abc", "2013"], 66, "no station catalogue"),   // a name, on a ledger without a catalogue
        (["complete", "5"], 64, ""),
        (["frobnicate"], 64, ""),
        (["replay", "--since", "yesterday"], 64, "ISO 8601"),
        (["replay", "--device", "nobody"], 64, "no device"),
        (["replay", "--format", "xml"], 64, ""),
    ])
    func rejectedCommandsChangeNothing(args: [String], status: Int32, message: String) throws {
        let scratch = try TemporaryDirectory("cli")
        defer { scratch.remove() }
        let cli = CLIRunner(ledger: scratch.path + "/l")
        try cli.run("init", "--no-catalog")
        try cli.run("complete", "5", "2013")
        let before = try directorySnapshot(scratch.path)
        let result = try cli.run(args)
        #expect(result.status == status, "\(args): \(result.stderr)")
        #expect(message.isEmpty || result.stderr.lowercased().contains(message.lowercased()), "\(args): \(result.stderr)")
        #expect(!result.stderr.isEmpty)
        #expect(try directorySnapshot(scratch.path) == before)
    }

    @Test func missingLedgerExits66() throws {
        let scratch = try TemporaryDirectory("cli")
        defer { scratch.remove() }
        let cli = CLIRunner(ledger: scratch.path + "/none")
        for args in [["complete", "5", "2013"], ["replay"], ["verify"], ["status"], ["history", "5"]] {
            let result = try cli.run(args)
            #expect(result.status == 66, "\(args)")
            #expect(result.stderr.contains("no ledger"))
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path + "/none"))
    }

    /// An `--output` that names a directory is refused (74) and leaves no temporary file beside it.
    @Test func exportOntoADirectoryLeavesNothingBehind() throws {
        let scratch = try TemporaryDirectory("cli")
        defer { scratch.remove() }
        let cli = CLIRunner(ledger: scratch.path + "/l")
        #expect(try cli.run("init", "--device", "phone", "--no-catalog").status == 0)
        #expect(try cli.run("complete", "5", "2013").status == 0)
        try FileManager.default.createDirectory(atPath: scratch.path + "/out", withIntermediateDirectories: false)
        let before = try directorySnapshot(scratch.path)
        let result = try cli.run("export", "--format", "tsv", "--output", scratch.path + "/out")
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try directorySnapshot(scratch.path) == before)
    }

    @Test func invalidUTF8ArgumentIsRefused() throws {
        let scratch = try TemporaryDirectory("cli")
        defer { scratch.remove() }
        let cli = CLIRunner(ledger: scratch.path + "/l")
        try cli.run("init", "--no-catalog")
        let before = try directorySnapshot(scratch.path)
        // Process passes arguments as C strings; build one with an invalid byte via a shell.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\"$0\" memo 5 \"$(printf 'bad\\377memo')\"", CLIRunner.executable]
        process.environment = ["ORITSUBUSHI_LEDGER": scratch.path + "/l"]
        let err = Pipe()
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 65)
        #expect(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("UTF-8"))
        #expect(try directorySnapshot(scratch.path) == before)
    }

    @Test func initRefusesAnExistingLedger() throws {
        let scratch = try TemporaryDirectory("cli")
        defer { scratch.remove() }
        let cli = CLIRunner(ledger: scratch.path + "/l")
        try cli.run("init", "--no-catalog")
        let before = try directorySnapshot(scratch.path)
        let again = try cli.run("init", "--no-catalog")
        #expect(again.status == 64)
        #expect(again.stderr.contains("already exists"))
        #expect(try directorySnapshot(scratch.path) == before)
    }

    /// A writer in another process (this test) is refused, and named: the command finds the
    /// holder's pid through the record lock every ledger process holds (`F_GETLK`).
    @Test func secondWriterProcessIsRefusedNamingThePid() throws {
        let scratch = try TemporaryDirectory("cli")
        defer { scratch.remove() }
        let ledger = scratch.path + "/l"
        let cli = CLIRunner(ledger: ledger)
        try cli.run("init", "--no-catalog")
        // Snapshots read LOCK, and closing any descriptor of it drops this process's record
        // lock, so both are taken while the ledger is not open here.
        let before = try directorySnapshot(scratch.path)
        let holder = try Ledger.open(directory: ledger)
        let result = try cli.run("complete", "5", "2013", "--wait", "0")
        holder.close()
        #expect(result.status == 75)
        #expect(result.stderr.contains("ledger is locked by pid \(getpid());"), "\(result.stderr)")
        #expect(try directorySnapshot(scratch.path) == before)
    }

    /// A ledger with two single-event frames after the device-name frame, and its only segment.
    private func ledgerWithTwoCompletions(in scratch: TemporaryDirectory) throws -> (CLIRunner, String) {
        let ledger = scratch.path + "/l"
        let cli = CLIRunner(ledger: ledger)
        try cli.run("init", "--no-catalog")
        try cli.run("complete", "5", "2013")
        try cli.run("complete", "6", "2014")
        return (cli, ledger + "/segments/00000001.seg")
    }

    @Test func tornTailIsRecoveredAndReported() throws {
        let scratch = try TemporaryDirectory("cli")
        defer { scratch.remove() }
        let (cli, segment) = try ledgerWithTwoCompletions(in: scratch)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: segment))
        // The last append cut short, as a crash leaves it: its watermark never moved past the
        // frame before (Schemas/segment-format.md §5b).
        let magic = Data([0x04, 0x22, 0x4d, 0x18])  // an LZ4 frame's magic number, little-endian
        let lastFrame = try #require(bytes.range(of: magic, options: .backwards)).lowerBound
        try bytes.dropLast(7).write(to: URL(fileURLWithPath: segment))
        try WatermarkRewind.rewind(segment, to: lastFrame, fileSystem: PosixFileSystem())
        let status = try cli.run("replay", "--format", "jsonl")
        #expect(status.status == 0)
        #expect(status.stderr.contains("torn"))
        #expect(status.stdout.split(separator: "\n").count == 1)
        let next = try cli.run("complete", "7", "2015")
        #expect(next.stdout.contains("#2)"))
        #expect(try cli.run("verify").status == 0)
    }

    /// The same cut of an append that returned: acknowledged bytes are missing, and no command
    /// takes that for a tear (exit 65 naming the segment, nothing changed).
    @Test func aCutAcknowledgedAppendIsCorruption() throws {
        let scratch = try TemporaryDirectory("cli")
        defer { scratch.remove() }
        let (cli, segment) = try ledgerWithTwoCompletions(in: scratch)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: segment))
        try bytes.dropLast(7).write(to: URL(fileURLWithPath: segment))
        let before = try directorySnapshot(scratch.path)
        for command in [["replay"], ["verify"], ["complete", "7", "2015"]] {
            let result = try cli.run(command)
            #expect(result.status == 65, "\(command): \(result.stderr)")
            #expect(result.stderr.contains(segment) && result.stderr.contains("acknowledged"), "\(result.stderr)")
        }
        #expect(try directorySnapshot(scratch.path) == before)
    }

    @Test func corruptionIsReportedWithFileAndOffset() throws {
        let scratch = try TemporaryDirectory("cli")
        defer { scratch.remove() }
        let (cli, segment) = try ledgerWithTwoCompletions(in: scratch)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: segment))
        // Flip a byte inside the second frame (not the last one), so it cannot pass as a torn tail.
        let target = 52 + 40
        bytes[target] ^= 0x55
        try bytes.write(to: URL(fileURLWithPath: segment))
        for args in [["verify"], ["replay"]] {
            let result = try cli.run(args)
            #expect(result.status == 65, "\(args): \(result.stderr)")
            #expect(result.stderr.contains("00000001.seg"))
            #expect(result.stderr.contains("byte offset"))
        }
    }
}
