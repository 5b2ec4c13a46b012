import Foundation
import LedgerTestSupport
import Testing

/// A copied ledger directory mended without a server (Schemas/merge.md §10.1), through the
/// built binary: `merge` names the way out, `reidentify` takes it, nothing is lost.
@Suite("reidentify (end to end)")
struct ReidentifyCLITests {
    @Test func aCopyIsMendedLocallyAndEveryEditSurvives() async throws {
        let dir = try TemporaryDirectory("cli-reidentify")
        defer { dir.remove() }
        let original = dir.sub("original"), copy = dir.sub("copy")
        try await CLI.run("init", "--ledger", original, "--device", "laptop", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "202919", "2020-05", "--ledger", original).expectSuccess()
        try FileManager.default.copyItem(atPath: original, toPath: copy)
        try await CLI.run("complete", "120004", "2021", "--memo", "original", "--ledger", original).expectSuccess()
        try await CLI.run("complete", "201111", "2013-09", "--memo", "copy", "--ledger", copy).expectSuccess()
        try await CLI.run("memo", "202919", "copy too", "--ledger", copy).expectSuccess()

        let copyBefore = try directorySnapshot(copy), originalBefore = try directorySnapshot(original)
        for (into, from) in [(original, copy), (copy, original)] {
            let refused = try await CLI.run("merge", from, "--ledger", into)
            #expect(refused.status == 65, "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
            #expect(refused.stderr.contains("are copies of one ledger"), "\(refused.stderr)")
            #expect(refused.stderr.contains(from) && refused.stderr.contains(into), "\(refused.stderr)")
            #expect(refused.stderr.contains("oritsubushi reidentify --from \(into)' in \(from)"), "\(refused.stderr)")
        }
        #expect(try directorySnapshot(copy) == copyBefore)
        #expect(try directorySnapshot(original) == originalBefore)

        let device = try Self.device(copy)
        let mended = try await CLI.run("reidentify", "--from", original, "--ledger", copy)
        mended.expectSuccess()
        #expect(mended.stdout.contains("now belong to its new device id"), "\(mended.stdout)")
        #expect(try Self.device(copy) != device)
        #expect(try Self.device(original) == device)
        for (into, from) in [(original, copy), (copy, original), (original, copy)] {
            try await CLI.run("merge", from, "--ledger", into).expectSuccess()
        }
        let exportOriginal = try await CLI.run("export", "--format", "tsv", "--ledger", original).stdout
        let exportCopy = try await CLI.run("export", "--format", "tsv", "--ledger", copy).stdout
        #expect(exportOriginal == exportCopy)
        for edit in ["120004", "201111", "202919", "original", "copy", "copy too"] {
            #expect(exportOriginal.contains(edit), "\(edit) lost: \(exportOriginal)")
        }
        try await CLI.run("verify", "--ledger", copy).expectSuccess()
        // Done once, there is nothing left to re-identify.
        let again = try await CLI.run("reidentify", "--from", original, "--ledger", copy)
        #expect(again.status == 65, "\(again.stderr)")
    }

    /// Refusals: not a copy of this device, nothing differing, the ledger itself; exit 65 or 64,
    /// one sentence, nothing changed.
    @Test func whatIsNotACopyIsRefused() async throws {
        let dir = try TemporaryDirectory("cli-reidentify-no")
        defer { dir.remove() }
        let a = dir.sub("a"), b = dir.sub("b"), twin = dir.sub("twin")
        try await CLI.run("init", "--ledger", a, "--device", "phone", "--no-catalog").expectSuccess()
        try await CLI.run("init", "--ledger", b, "--device", "tablet", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "202919", "2020-05", "--ledger", a).expectSuccess()
        try FileManager.default.copyItem(atPath: a, toPath: twin)
        try await CLI.run("complete", "120004", "2021", "--ledger", twin).expectSuccess()   // ahead, not forked
        let before = try directorySnapshot(dir.path)
        for (ledger, from, status, phrase) in [(a, b, Int32(65), "is not a copy of this ledger"),
                                               (twin, a, 65, "nothing to re-identify"),
                                               (a, a, 64, "is this ledger itself")] {
            let refused = try await CLI.run("reidentify", "--from", from, "--ledger", ledger)
            #expect(refused.status == status, "\(refused.stderr)")
            #expect(refused.stderr.contains(phrase), "\(refused.stderr)")
        }
        #expect(try directorySnapshot(dir.path) == before)
    }

    static func device(_ ledger: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: ledger + "/ledger.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["device"] as? String)
    }
}
