import Foundation
import LedgerTestSupport
import Testing

/// The sync commands as a user runs them: the built `oritsubushi` executable, real ledger
/// directories, and a real `oritsubushi serve` process on a loopback port the kernel picks.
@Suite("Sync commands (end to end)")
struct SyncCLITests {
    @Test("merge in both directions, any number of times: equal exports; conflicts --json")
    func mergeBothWays() async throws {
        let dir = try TemporaryDirectory("cli-merge")
        defer { dir.remove() }
        let a = dir.sub("a"), b = dir.sub("b")
        try await CLI.run("init", "--ledger", a, "--device", "phone", "--no-catalog").expectSuccess()
        try await CLI.run("init", "--ledger", b, "--device", "tablet", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "202919", "2020-05", "--ledger", a).expectSuccess()
        try await CLI.run("complete", "202919", "2019", "--ledger", b).expectSuccess()
        try await CLI.run("memo", "120004", "小田原", "--ledger", b).expectSuccess()
        let first = try await CLI.run("merge", b, "--ledger", a)
        first.expectSuccess()
        #expect(first.stdout.contains("merged 2 events"))
        #expect(first.stdout.contains("1 new conflict"))
        for (into, from) in [(b, a), (a, b), (b, a), (b, a)] {
            try await CLI.run("merge", from, "--ledger", into).expectSuccess()
        }
        let exportA = try await CLI.run("export", "--format", "tsv", "--ledger", a)
        let exportB = try await CLI.run("export", "--format", "tsv", "--ledger", b)
        exportA.expectSuccess()
        #expect(exportA.stdout == exportB.stdout)
        #expect(exportA.stdout.contains("202919"))
        let conflicts = try await CLI.run("conflicts", "--json", "--ledger", a)
        conflicts.expectSuccess()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(conflicts.stdout.utf8)) as? [String: Any])
        #expect(object["count"] as? Int == 1)
        let item = try #require((object["conflicts"] as? [[String: Any]])?.first)
        #expect(item["station"] as? Int == 202_919)
        #expect(item["field"] as? String == "date")
        let winner = try #require(item["winner"] as? [String: Any])
        let loser = try #require(item["loser"] as? [String: Any])
        for key in ["device", "device_name", "seq", "hlc", "time", "value", "comp_date"] {
            #expect(winner[key] != nil && loser[key] != nil, "key \(key)")
        }
        // Without a catalogue the station is its s_id, and its JSON name is null.
        #expect(item["name"] is NSNull)
        let listed = try await CLI.run("conflicts", "--ledger", b).stdout
        #expect(listed.hasPrefix("202919  date: kept ") && listed.hasSuffix("\n1 conflict\n"), "\(listed)")
        #expect(try await CLI.run("merge", dir.sub("missing"), "--ledger", a).status == 66)
        #expect(try await CLI.run("merge", a, "--ledger", a).status == 64)
    }

    /// `server serve` and the top-level `serve` that existing scripts call are one command.
    @Test("serve, add-user, sync two devices, revoke, stop on SIGTERM", arguments: [["server", "serve"], ["serve"]])
    func serveAndSync(_ serve: [String]) async throws {
        let dir = try TemporaryDirectory("cli-sync")
        defer { dir.remove() }
        let data = dir.sub("server")
        let token = try await CLI.addUser("alice", data: data)
        #expect(try await CLI.run("server", "add-user", "alice", "--data", data).status == 64)

        let server = try await ServerProcess(data: data, command: serve)
        defer { server.terminate() }
        let url = "http://127.0.0.1:\(server.port)"
        let phone = dir.sub("phone"), laptop = dir.sub("laptop")
        try await CLI.run("init", "--ledger", phone, "--device", "phone", "--no-catalog").expectSuccess()
        try await CLI.run("init", "--ledger", laptop, "--device", "laptop", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "202919", "2024-05-03", "--ledger", phone).expectSuccess()
        try await CLI.run("memo", "202919", "丸の内口", "--ledger", laptop).expectSuccess()
        let env = ["ORITSUBUSHI_TOKEN": token]
        try await CLI.run(["sync", "--server", url, "--ledger", phone], environment: env).expectSuccess()
        // The laptop takes its token from the file in its ledger.
        try token.write(toFile: laptop + "/sync-token", atomically: true, encoding: .utf8)
        let second = try await CLI.run("sync", "--server", url, "--ledger", laptop)
        second.expectSuccess()
        #expect(second.stdout.contains("pulled 1 event,"))
        try await CLI.run(["sync", "--server", url, "--ledger", phone], environment: env).expectSuccess()
        let exportPhone = try await CLI.run("export", "--format", "tsv", "--ledger", phone)
        let exportLaptop = try await CLI.run("export", "--format", "tsv", "--ledger", laptop)
        #expect(exportPhone.stdout == exportLaptop.stdout)
        #expect(exportPhone.stdout.contains("丸の内口"))
        // The laptop's projection was folded as its sync read the (short) log: it equals one
        // rebuilt from the log.
        try await CLI.run("rebuild", "--ledger", laptop).expectSuccess()
        #expect(try await CLI.run("export", "--format", "tsv", "--ledger", laptop).stdout == exportLaptop.stdout)

        #expect(try await CLI.run("sync", "--server", url, "--token", "ots_wrong", "--ledger", phone).status == 77)
        try await CLI.run("server", "revoke-token", token, "--data", data).expectSuccess()
        let revoked = try await CLI.run(["sync", "--server", url, "--ledger", phone], environment: env)
        #expect(revoked.status == 77)
        #expect(!revoked.stderr.contains(token), "the token is never printed")
        await #expect(server.stop() == 0, "graceful shutdown on SIGTERM")
        #expect(!server.log.contains(token), "the token is never logged")
        #expect(try await CLI.run(["sync", "--server", url, "--ledger", phone], environment: env).status == 69)
    }

    @Test("both spellings of serve refuse the same bad arguments alike", arguments: [
        ["--data", "D", "--port", "70000"], ["--data", "D", "--port", "-1"], ["--port", "1"], ["--data", "D", "--bogus"],
    ])
    func serveRefusals(_ arguments: [String]) async throws {
        let dir = try TemporaryDirectory("cli-serve-usage")
        defer { dir.remove() }
        let resolved = arguments.map { $0 == "D" ? dir.sub("data") : $0 }
        let results = try await [["server", "serve"], ["serve"]].asyncMap { try await CLI.run($0 + resolved, environment: [:]) }
        for result in results {
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(result.stdout.isEmpty && result.stderr.hasPrefix("error: ") && lines.count == 1)
        }
        #expect(results[0].stderr == results[1].stderr)
        #expect(!FileManager.default.fileExists(atPath: dir.sub("data")), "nothing is created")
    }
}

/// The sync suites' face of the shared runner (LedgerTestSupport's `CLIRunner`): the machine's
/// clock, because the servers check each device's clock lead against their own, and no default
/// ledger (every command passes --ledger). Its own `Result` keeps the other files of this target
/// free of the support module's import.
enum CLI {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(status == 0, "exit \(status): \(stderr)", sourceLocation: sourceLocation)
        }
    }

    private static let runner = CLIRunner(ledger: nil, now: nil)
    static var executable: String { CLIRunner.executable }

    static func run(_ arguments: String...) throws -> Result { try run(arguments, environment: [:]) }

    static func run(_ arguments: [String], environment: [String: String]) throws -> Result {
        let result = try runner.run(arguments, environment: environment)
        return Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// The same, awaited (`CLIRunner`'s async `run`): what every async test calls.
    static func run(_ arguments: String...) async throws -> Result { try await run(arguments, environment: [:]) }

    /// Adds a user to the files store in `data`; her token (printed alone on the last line).
    static func addUser(_ name: String, data: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let added = try await run("server", "add-user", name, "--data", data)
        added.expectSuccess(sourceLocation: sourceLocation)
        return try #require(added.stdout.split(separator: "\n").last.map(String.init), sourceLocation: sourceLocation)
    }

    static func run(_ arguments: [String], environment: [String: String]) async throws -> Result {
        let result = try await runner.run(arguments, environment: environment)
        return Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}
