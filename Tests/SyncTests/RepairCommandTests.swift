import Foundation
import Testing
import LedgerTestSupport

/// `repair` and its alias `verify --repair` are one command: on the same damaged ledger (restored
/// between the runs, so paths and the pinned quarantine name are equal) they print the same
/// bytes and exit with the same code, as text and as JSON, and refuse the same bad arguments.
@Suite("repair and verify --repair")
struct RepairCommandTests {
    static let spellings: [[String]] = [["repair"], ["verify", "--repair"]]

    @Test("both spellings repair alike", arguments: [[String](), ["--json"]])
    func sameRepair(_ extra: [String]) async throws {
        let dir = try TemporaryDirectory("repair-alias")
        defer { dir.remove() }
        let replicas = try Replicas.make(in: dir)
        try replicas.damage(.middleFrame)
        let pristine = dir.sub("a-damaged")
        try FileManager.default.copyItem(atPath: replicas.a, toPath: pristine)
        var results: [CLI.Result] = []
        for spelling in Self.spellings {
            try? FileManager.default.removeItem(atPath: replicas.a)
            try FileManager.default.copyItem(atPath: pristine, toPath: replicas.a)
            results.append(try await CLI.run(spelling + ["--from", replicas.b, "--ledger", replicas.a] + extra,
                                       environment: RepairTests.now))
        }
        results[0].expectSuccess()
        #expect(results[0].stdout.contains(extra.isEmpty ? "repaired: " : "\"repaired\":true"), "\(results[0].stdout)")
        #expect(results[1].status == results[0].status)
        #expect(results[1].stdout == results[0].stdout)
        // Run again on the repaired ledger: nothing to repair, for both.
        let again = try await Self.spellings.asyncMap {
            try await CLI.run($0 + ["--from", replicas.b, "--ledger", replicas.a] + extra, environment: RepairTests.now)
        }
        #expect(again[0].status == 0 && again[1].status == 0)
        #expect(again[0].stdout == (extra.isEmpty ? "ok: nothing to repair\n" : "{\"ok\":true,\"repaired\":false}\n"))
        #expect(again[1].stdout == again[0].stdout)
    }

    static let refusals: [([String], Int32)] = [
        ([], 64),
        (["--from", "B", "--server", "http://127.0.0.1:1"], 64),
        (["--from", "B", "--token", "t"], 64),
        (["--from", "A"], 64),
        (["--from", "MISSING"], 66),
        (["--server", "http://127.0.0.1:9", "--token", "t"], 0),  // nothing to repair: the server is never asked
    ]

    @Test("both spellings refuse the same arguments with the same exit code", arguments: refusals)
    func sameRefusals(_ arguments: [String], _ status: Int32) async throws {
        let dir = try TemporaryDirectory("repair-alias-usage")
        defer { dir.remove() }
        let replicas = try Replicas.make(in: dir)
        let resolved = arguments.map { ["A": replicas.a, "B": replicas.b, "MISSING": dir.sub("missing")][$0] ?? $0 }
        let results = try await Self.spellings.asyncMap {
            try await CLI.run($0 + resolved + ["--ledger", replicas.a], environment: RepairTests.now)
        }
        for (spelling, result) in zip(Self.spellings, results) {
            #expect(result.status == status, "\(spelling) \(arguments): \(result.stderr)")
            #expect(result.stdout == results[0].stdout)
            #expect(result.stderr.split(separator: "\n").count == (status == 0 ? 0 : 1), "\(result.stderr)")
        }
    }
}
