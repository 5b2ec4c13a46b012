import Foundation
import LedgerTestSupport
import Testing

/// `conflicts resolve` through the built binary: two devices in conflict, resolved on one,
/// merged both ways (Schemas/merge.md §6.1).
@Suite("conflicts resolve (end to end)")
struct ConflictsResolveCLITests {
    /// Arguments after `conflicts resolve 202919` → what `conflicts` lists afterwards on both.
    static let keeps: [([String], [String])] = [([], []), (["--keep", "both"], []), (["--keep", "date"], ["memo"]),
                                                (["--keep", "memo"], ["date"])]

    @Test(arguments: keeps) func resolveAndMergeBothWays(_ arguments: [String], _ remaining: [String]) async throws {
        let dir = try TemporaryDirectory("cli-resolve")
        defer { dir.remove() }
        let a = dir.sub("a"), b = dir.sub("b")
        try await CLI.run("init", "--ledger", a, "--device", "phone", "--no-catalog").expectSuccess()
        try await CLI.run("init", "--ledger", b, "--device", "tablet", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "202919", "2020-05", "--memo", "a", "--ledger", a).expectSuccess()
        try await CLI.run("complete", "202919", "2019", "--memo", "b", "--ledger", b).expectSuccess()
        try await CLI.run("merge", b, "--ledger", a).expectSuccess()
        try await CLI.run("merge", a, "--ledger", b).expectSuccess()
        let listed = try await CLI.run("conflicts", "--json", "--ledger", b).stdout
        #expect((try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [String: Any])?["count"] as? Int == 2, "\(listed)")
        let resolved = try await CLI.run(["conflicts", "resolve", "202919", "--ledger", b] + arguments, environment: [:])
        resolved.expectSuccess()
        #expect(resolved.stdout.hasPrefix("202919: kept the current"), "\(resolved.stdout)")
        try await CLI.run("merge", b, "--ledger", a).expectSuccess()
        try await CLI.run("merge", a, "--ledger", b).expectSuccess()
        for ledger in [a, b] {
            let listed = try await CLI.run("conflicts", "--json", "--ledger", ledger)
            listed.expectSuccess()
            let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
            let fields = (object["conflicts"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
            #expect(fields == remaining, "\(listed.stdout)")
        }
        let exportA = try await CLI.run("export", "--format", "tsv", "--ledger", a).stdout
        #expect(exportA == (try await CLI.run("export", "--format", "tsv", "--ledger", b).stdout))
        // The winner (tablet's edit, made later) is kept: 2019 and memo b.
        #expect(exportA.contains("2019") && exportA.contains("\tb") && !exportA.contains("\ta"), "\(exportA)")
    }

    /// A station without a conflict, or a conflict in another field: exit 65, one sentence, nothing written.
    @Test func nothingToResolveIsRefused() async throws {
        let dir = try TemporaryDirectory("cli-resolve-none")
        defer { dir.remove() }
        let a = dir.sub("a")
        try await CLI.run("init", "--ledger", a, "--device", "phone", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "202919", "2020-05", "--ledger", a).expectSuccess()
        let before = try directorySnapshot(a)
        for arguments in [["202919"], ["202919", "--keep", "memo"], ["120004"]] {
            let refused = try await CLI.run(["conflicts", "resolve", "--ledger", a] + arguments, environment: [:])
            #expect(refused.status == 65, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains("has no") && refused.stderr.contains("conflict to resolve"), "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1)
        }
        let badKeep = try await CLI.run("conflicts", "resolve", "202919", "--keep", "neither", "--ledger", a)
        #expect(badKeep.status == 64)
        #expect(try directorySnapshot(a) == before)
    }

    /// With the bundled catalogue the line names the station as `station find` does, in the
    /// language of `--lang` (an option of `resolve` itself, not only of `conflicts`).
    @Test(arguments: [("en", "202919  東京駅  ", ": kept the current date and memo; 2 conflicts resolved"),
                      ("ja", "202919  東京駅  ", ": 現在の乗下車日とメモを採用し、競合 2件を解決しました")])
    func namesTheStation(_ language: String, _ label: String, _ rest: String) async throws {
        let dir = try TemporaryDirectory("cli-resolve-label")
        defer { dir.remove() }
        let a = dir.sub("a"), b = dir.sub("b")
        try await CLI.run("init", "--ledger", a, "--device", "phone").expectSuccess()
        try await CLI.run("init", "--ledger", b, "--device", "tablet").expectSuccess()
        try await CLI.run("complete", "202919", "2020-05", "--memo", "a", "--ledger", a).expectSuccess()
        try await CLI.run("complete", "202919", "2019", "--memo", "b", "--ledger", b).expectSuccess()
        try await CLI.run("merge", a, "--ledger", b).expectSuccess()
        let resolved = try await CLI.run("conflicts", "resolve", "202919", "--lang", language, "--ledger", b)
        resolved.expectSuccess()
        let line = resolved.stdout.trimmingCharacters(in: .newlines)
        #expect(line.hasPrefix(label) && line.hasSuffix(rest), "\(line)")
    }
}
