import Foundation
import LedgerTestSupport
import Testing

/// `ORITSUBUSHI_SIDE_BY_SIDE` (docs/ledger-cli.md "Environment"), through the built executable: `always` and
/// `never` take the two-thread and the one-thread paths of `merge` and `rebuild` whatever the CPU
/// count, and both write the same files; any other value is refused before a command runs.
@Suite struct SideBySideOptionTests {
    static let variable = "ORITSUBUSHI_SIDE_BY_SIDE"

    @Test("merge then rebuild, forced either way, leave byte-identical ledgers")
    func bothWaysTheSameFiles() throws {
        let dir = try TemporaryDirectory("side-by-side-cli")
        defer { dir.remove() }
        let cli = CLIRunner(ledger: nil)
        // Over 10,000 incoming events: the merge's two-thread path needs that many (MergeOptions).
        for (name, events, seed) in [("other", 12_000, "5"), ("mine", 3_000, "6")] {
            let made = try cli.run("generate", "--ledger", dir.sub(name), "--events", "\(events)", "--seed", seed)
            #expect(made.status == 0, "\(made.stderr)")
        }
        var ledgers: [String: [String: Data]] = [:]
        for mode in ["always", "never"] {
            let copy = dir.sub("mine-\(mode)")
            try FileManager.default.copyItem(atPath: dir.sub("mine"), toPath: copy)
            for arguments in [["merge", dir.sub("other"), "--ledger", copy], ["rebuild", "--ledger", copy]] {
                let result = try cli.run(arguments, environment: [Self.variable: mode])
                #expect(result.status == 0, "\(mode) \(arguments[0]): \(result.stderr)")
            }
            ledgers[mode] = try directorySnapshot(copy).filter { $0.key != "LOCK" }
        }
        let together = try #require(ledgers["always"]), alone = try #require(ledgers["never"])
        #expect(together.keys.contains("projection.sqlite"))
        #expect(snapshotDifferences(together, alone).isEmpty)
    }

    @Test("a value that is no mode is refused with one sentence, exit 64, nothing written",
          arguments: ["sometimes", "ALWAYS", "1"])
    func badValue(_ value: String) throws {
        let dir = try TemporaryDirectory("side-by-side-bad")
        defer { dir.remove() }
        let cli = CLIRunner(ledger: dir.sub("ledger"))
        #expect(try cli.run("init", "--no-catalog", "--device", "phone").status == 0)
        let before = try directorySnapshot(dir.path)
        let result = try cli.run(["complete", "1", "2013"], environment: [Self.variable: value])
        #expect(result.status == 64)
        #expect(result.stderr == "error: \(Self.variable)='\(value)' is not a mode; use one of automatic, always, never\n")
        #expect(result.stdout.isEmpty)
        #expect(snapshotDifferences(before, try directorySnapshot(dir.path)).isEmpty)
    }
}
