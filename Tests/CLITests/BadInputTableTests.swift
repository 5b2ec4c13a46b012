import Foundation
import LedgerTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every command that takes a ledger × every bad input that applies to it, through the built
/// executable: the documented exit code, one line on stderr that starts with "error:" and names
/// the problem, nothing on stdout, and the ledger directory (segments, `ledger.json`, `LOCK`,
/// `projection.sqlite`, `catalog.sqlite`) byte-identical before and after.
///
/// A full disk and a read-only file system are simulated by the debug build's test hook
/// (`ORITSUBUSHI_SIMULATE_FAULT`, RELIABILITY.md); when the tests do not run as root, the
/// read-only cases also run against a real `chmod -R a-w` ledger.
@Suite(.serialized) struct BadInputTableTests {
    /// One bad input to one command.
    struct Case: CustomStringConvertible, Sendable {
        enum Ledger: Sendable {
            /// The fixture: sample catalogue with one station disabled, a few completions, an
            /// up-to-date projection.
            case fixture
            /// No ledger at the path.
            case missing
            /// The fixture with `ledger.json` overwritten by bytes that are not a ledger.
            case unreadable
            /// The fixture while another holder has `LOCK` flocked.
            case locked
        }

        var label: String
        var arguments: [String]
        var ledger: Ledger = .fixture
        var fault: String?
        /// A shell script instead of `arguments` (`$0` is the executable), for bytes a Swift
        /// string cannot hold.
        var shell: String?
        var status: Int32
        var phrase: String

        var description: String { "\(label): \(shell ?? arguments.joined(separator: " "))" }
    }

    static let unknownStation = "999999"
    static let station = "201117"          // 多気駅, in the sample catalogue
    static let disabledStation = "201846"  // 外城田駅, disabled by the fixture's catalogue
    static let oversizeMemo = String(repeating: "x", count: 4097)

    /// Commands that only read: they must keep working on a full or read-only disk when the
    /// projection is current, and they change nothing.
    static let readCommands: [[String]] = [
        ["history", station], ["replay"], ["verify"], ["status"], ["stats", "operators"],
        ["export", "--format", "tsv"], ["conflicts"], ["station", "show", station], ["station", "find", "多気"],
        ["catalog", "status"], ["nearby", station], ["map", "--bbox", "34,136,35,137"],
    ]

    /// Commands that write the ledger or a file inside it, with arguments valid in the fixture.
    /// `OTHER` and `TSV` are replaced by a second ledger with a new event and a valid TSV file.
    static let writeCommands: [[String]] = [
        ["complete", station, "2013-09-01"], ["today", station, "--force"], ["uncomplete", "201847"],
        ["memo", station, "メモ"], ["import", "oritsubushi-tsv", "TSV"], ["catalog", "import", "CATALOG"],
        ["merge", "OTHER"], ["rebuild"],
    ]

    /// Every command that opens a ledger, for the missing, unreadable and locked cases.
    static let ledgerCommands: [[String]] = readCommands + writeCommands + [["sync", "--server", "http://127.0.0.1:9", "--token", "t"]]

    static let cases: [Case] = {
        var cases: [Case] = []
        func add(_ label: String, _ arguments: [String], _ status: Int32, _ phrase: String) {
            cases.append(Case(label: label, arguments: arguments, status: status, phrase: phrase))
        }
        // Dates: invalid, impossible, garbage, in the future (ORITSUBUSHI_NOW is 2026-11-22 in Japan).
        for edit in [["complete", station], ["complete", disabledStation]] {
            add("invalid month", edit + ["2024-13-01"], 65, "not a real date")
            add("invalid day", edit + ["2024-02-30"], 65, "not a real date")
            add("garbage date", edit + ["soon"], 65, "not a completion date")
            add("future day", edit + ["2026-11-23"], 65, "future")
            add("future year", edit + ["2027"], 65, "future")
        }
        add("as-of garbage", ["stats", "operators", "--as-of", "soon"], 64, "ISO 8601")
        add("station show as-of garbage", ["station", "show", station, "--as-of", "soon"], 64, "ISO 8601")
        // Unknown stations, once a catalogue is imported.
        for edit in [["complete", unknownStation, "2013"], ["today", unknownStation], ["uncomplete", unknownStation],
                     ["memo", unknownStation, "m"], ["station", "show", unknownStation], ["complete", "0", "2013"]] {
            add("unknown station", edit, 65, edit[1] == "0" ? "station 0" : "station \(unknownStation)")
        }
        // Memos: over 4 KiB (argument and option) and not UTF-8 (argument, and a TSV file).
        add("oversize memo", ["memo", station, oversizeMemo], 65, "4096")
        add("oversize memo option", ["complete", station, "2013", "--memo", oversizeMemo], 65, "4096")
        cases.append(Case(label: "invalid UTF-8 memo", arguments: [], shell: "\"$0\" memo \(station) \"$(printf 'bad\\377memo')\"",
                          status: 65, phrase: "not valid UTF-8"))
        cases.append(Case(label: "invalid UTF-8 memo option", arguments: [],
                          shell: "\"$0\" complete \(station) 2013 --memo \"$(printf '\\303\\050')\"", status: 65, phrase: "not valid UTF-8"))
        add("invalid UTF-8 memo in a TSV file", ["import", "oritsubushi-tsv", "BADTSV"], 65, "UTF-8")
        add("missing input file", ["import", "oritsubushi-tsv", "NOFILE"], 66, "no such file")
        add("missing catalogue file", ["catalog", "import", "NOCATALOG"], 66, "no such file")
        add("missing merge source", ["merge", "NOFILE"], 66, "no ledger")
        add("merge into itself", ["merge", "SELF"], 64, "itself")
        add("init over a ledger", ["init"], 64, "already exists")
        add("generate over a ledger", ["generate", "--events", "10"], 64, "already exists")
        add("unreachable server", ["sync", "--server", "http://127.0.0.1:9", "--token", "t"], 69, "127.0.0.1:9")

        for command in ledgerCommands {
            // station find, nearby and map answer from the bundled catalogue without a ledger (SmallThingsTests).
            if !["find", "nearby", "map"].contains(command[command[0] == "station" ? 1 : 0]) {
                cases.append(Case(label: "missing ledger", arguments: command, ledger: .missing, status: 66, phrase: "no ledger at"))
            }
            cases.append(Case(label: "unreadable ledger", arguments: command, ledger: .unreadable, status: 65, phrase: "ledger.json"))
            cases.append(Case(label: "locked ledger", arguments: command + ["--wait", "0"], ledger: .locked, status: 75, phrase: "ledger is locked by"))
        }
        for (fault, phrase) in [("disk-full", "the disk is full"), ("read-only", "read-only file system")] {
            for command in writeCommands + [["init", "--ledger", "NEWLEDGER"], ["generate", "--events", "10", "--ledger", "NEWLEDGER"],
                                            ["export", "--format", "tsv", "--output", "EXPORTFILE"]] {
                cases.append(Case(label: fault, arguments: command, fault: fault, status: 74, phrase: phrase))
            }
            for command in readCommands {
                cases.append(Case(label: "\(fault), reading", arguments: command, fault: fault, status: 0, phrase: ""))
            }
        }
        return cases
    }()

    /// The fixture, built once through the CLI and copied for every case.
    static let fixture: String = {
        let root = FileManager.default.temporaryDirectory.path + "/oritsubushi-badinput-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/sample-catalog-176.sql").path
        let catalog = root + "/stations-176.sql"
        let dump = try! String(contentsOfFile: sample, encoding: .utf8)
            + "UPDATE stations SET enabled=0 WHERE s_id=\(disabledStation);\n"
        try! dump.write(toFile: catalog, atomically: true, encoding: .utf8)
        let cli = CLIRunner(ledger: root + "/ledger")
        for arguments in [["init", "--device", "phone", "--no-catalog"], ["catalog", "import", catalog], ["complete", station, "2013-09"],
                          ["complete", "201847", "2014"], ["memo", disabledStation, "閉鎖前に"], ["stats", "operators"]] {
            let result = try! cli.run(arguments)
            precondition(result.status == 0, "fixture: \(arguments): \(result.stderr)")
        }
        try! prepareInputs(in: root)
        return root
    }()

    @Test("the table covers every command that takes a ledger")
    func coverage() {
        let covered = Set(Self.cases.map { $0.shell == nil ? $0.arguments[0] : String($0.shell!.split(separator: " ")[1]) })
        for command in ["init", "complete", "today", "uncomplete", "memo", "history", "replay", "verify", "status",
                        "generate", "merge", "conflicts", "sync", "catalog", "station", "rebuild", "stats", "import", "export"] {
            #expect(covered.contains(command), "no bad-input case for \(command)")
        }
    }

    @Test(arguments: cases)
    func badInputChangesNothing(_ item: Case) throws {
        let work = FileManager.default.temporaryDirectory.path + "/oritsubushi-bad-\(UUID().uuidString.prefix(8))"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: work)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let ledger = work + "/ledger"
        switch item.ledger {
        case .fixture, .locked: break
        case .missing: try FileManager.default.removeItem(atPath: ledger)
        case .unreadable: try Data("{\"format\": \"not a ledger".utf8).write(to: URL(fileURLWithPath: ledger + "/ledger.json"))
        }
        let holder = item.ledger == .locked ? try LedgerLockHolder(ledger: ledger) : nil
        defer { holder?.stop() }

        var environment: [String: String] = [:]
        if let fault = item.fault { environment["ORITSUBUSHI_SIMULATE_FAULT"] = fault }
        let cli = CLIRunner(ledger: ledger)
        // The whole work directory: the ledger, its neighbours, and any path a command could create.
        let before = try directorySnapshot(work)
        let arguments = item.arguments.map { substitute($0, work: work, ledger: ledger) }
        let result = item.shell.map { try? cli.runShell($0, environment: environment) }
            ?? (try? cli.run(arguments, environment: environment))
        let outcome = try #require(result)
        let after = try directorySnapshot(work)

        #expect(outcome.status == item.status, "\(item): exit \(outcome.status), stderr: \(outcome.stderr)")
        #expect(snapshotDifferences(before, after).isEmpty,
                "\(item): changed \(snapshotDifferences(before, after))")
        if item.status == 0 {
            #expect(outcome.stderr.isEmpty || item.arguments[0] == "export", "\(item): \(outcome.stderr)")
            return
        }
        let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
        #expect(lines.count == 1, "\(item): \(lines.count) lines on stderr: \(outcome.stderr)")
        #expect(outcome.stderr.hasPrefix("error: "), "\(item): \(outcome.stderr)")
        #expect(outcome.stderr.contains(item.phrase), "\(item): expected \"\(item.phrase)\" in \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty, "\(item): stdout \(outcome.stdout)")
    }

    /// A disabled station is in the catalogue and stays editable (Schemas/projection.md), so a
    /// completion of one is recorded; statistics leave it out.
    @Test func disabledStationIsEditableAndNotCounted() throws {
        let work = FileManager.default.temporaryDirectory.path + "/oritsubushi-bad-\(UUID().uuidString.prefix(8))"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: work)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let cli = CLIRunner(ledger: work + "/ledger")
        let total = try cli.run("stats", "operators", "--json")
        let recorded = try cli.run("complete", Self.disabledStation, "2013-09-01")
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stdout.hasPrefix("\(Self.disabledStation)  ") && recorded.stdout.contains(": date 2013-09-01 (event"), "\(recorded.stdout)")
        #expect(try cli.run("stats", "operators", "--json").stdout == total.stdout, "a disabled station counts nowhere")
        #expect(try cli.run("station", "find", "ときだ", "--by", "yomi").stdout.isEmpty)
        #expect(try cli.run("station", "find", "ときだ", "--by", "yomi", "--include-disabled").stdout.contains(Self.disabledStation))
    }

    /// A real read-only ledger (`chmod -R a-w`). Root ignores file permissions, so the command
    /// runs as the unprivileged user `nobody` when the tests run as root (ReadOnlyLedgerTests
    /// covers the commands that only read).
    @Test(.requires(.setpriv), arguments: writeCommands)
    func realReadOnlyLedger(_ command: [String]) throws {
        let work = FileManager.default.temporaryDirectory.path + "/oritsubushi-bad-\(UUID().uuidString.prefix(8))"
        try FileManager.default.copyItem(atPath: Self.fixture, toPath: work)
        let ledger = work + "/ledger"
        try setWritable(false, below: ledger)
        defer {
            try? setWritable(true, below: ledger)
            try? FileManager.default.removeItem(atPath: work)
        }
        let before = try directorySnapshot(work)
        var cli = CLIRunner(ledger: ledger)
        cli.unprivileged = true
        let result = try cli.run(command.map { substitute($0, work: work, ledger: ledger) })
        #expect(result.status == 74, "\(command): \(result.stderr)")
        #expect(result.stderr.hasPrefix("error: the ledger directory is read-only"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(snapshotDifferences(before, try directorySnapshot(work)).isEmpty)
    }

    // MARK: - Inputs

    /// The input files some commands take, next to the ledger: a valid and an invalid TSV, and
    /// a second ledger holding an event the fixture lacks.
    private static func prepareInputs(in work: String) throws {
        try Data("\(Self.station)\t20150101\t1700000000\tfrom tsv\n".utf8).write(to: URL(fileURLWithPath: work + "/good.tsv"))
        try Data("\(Self.station)\t20150101\t1700000000\tbad".utf8 + [0xFF, 0xFE] + Data("memo\n".utf8))
            .write(to: URL(fileURLWithPath: work + "/bad.tsv"))
        let other = CLIRunner(ledger: work + "/other")
        for arguments in [["init", "--device", "tablet"], ["complete", "201847", "2016"]] {
            let result = try other.run(arguments)
            precondition(result.status == 0, "fixture: \(arguments): \(result.stderr)")
        }
    }

    private func substitute(_ argument: String, work: String, ledger: String) -> String {
        switch argument {
        case "TSV": work + "/good.tsv"
        case "BADTSV": work + "/bad.tsv"
        case "CATALOG": work + "/stations-176.sql"
        case "OTHER": work + "/other"
        case "SELF": ledger
        case "NOFILE": work + "/no-such-file"
        case "NOCATALOG": work + "/stations-177.sql"
        case "NEWLEDGER": work + "/new.ledger"
        case "EXPORTFILE": ledger + "/export.tsv"
        default: argument
        }
    }

    private func setWritable(_ writable: Bool, below root: String) throws {
        let chmod = Process()
        chmod.executableURL = URL(fileURLWithPath: "/bin/chmod")
        chmod.arguments = ["-R", writable ? "u+w" : "a-w", root]
        try chmod.run()
        chmod.waitUntilExit()
    }
}
