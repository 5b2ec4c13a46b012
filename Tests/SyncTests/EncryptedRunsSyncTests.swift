import Foundation
import LedgerTestSupport
import Testing

/// A merged log on an end-to-end encrypted account, through the built binaries: a push seals each
/// device's events together as long runs (Schemas/encryption.md §3.5 "Who makes runs"), and a
/// pulling device keeps a page's runs as frames, appended as they are (§11 "The client",
/// sync-frames.md "Stored as they come").
@Suite("Sealed runs of a merged log, through the binaries")
struct EncryptedRunsSyncTests {
    @Test("a log whose devices' events interleave pushes as a few long runs; a page of more events than a merge batch keeps each run as a frame")
    func mergedLog() async throws {
        let dir = try TemporaryDirectory("encrypted-runs")
        let store = try await CommandLineStore.make(.files, in: dir)
        let token = try CommandLineStore.token(try await store.server("add-user", "hana", "--encrypted"))
        let server = try await store.serve()
        defer { server.terminate() }
        let laptop = dir.sub("laptop"), desk = dir.sub("desk")

        // Three devices whose trips interleave in the log, more events than a merge batch
        // (MergeOptions.batchSize, 100,000), all in one pull page (at most 8 MiB).
        let events = 120_000
        try await CLI.run("generate", "--ledger", laptop, "--events", String(events), "--seed", "3").expectSuccess()
        try await CLI.run("sync", "--server", server.url, "--token", token, "--ledger", laptop).expectSuccess()
        // About 4.7 MB of records: some 80 runs of at most 60,000 bytes, and the names. Cut in
        // the log's order, a run a trip, they would be thousands.
        let status = try #require(try JSONSerialization.jsonObject(with: Data(try await EncryptedSyncTests.status(server.url, token: token).utf8))
                                  as? [String: Any])
        let records = try #require(status["records"] as? Int, "\(status)")
        #expect(records > 70 && records < 200, "sealed records stored: \(records)")

        try await CLI.run("init", "--ledger", desk, "--device", "desk", "--no-catalog").expectSuccess()
        try FileManager.default.copyItem(atPath: laptop + "/encryption-keys", toPath: desk + "/encryption-keys")
        let pulled = try await CLI.run("sync", "--server", server.url, "--token", token, "--ledger", desk)
        pulled.expectSuccess()
        let summary = try await Self.verified(desk)
        let (held, sent) = (summary["events"] as? Int ?? 0, (try await Self.verified(laptop))["events"] as? Int ?? 0)
        // The laptop's events, and the knowledge mark the desk wrote after its pull.
        #expect(sent >= events && held == sent + 1, "the desk holds \(held) events, the laptop \(sent)")
        // Each run's block is a frame of the desk's log, as it was checked: not the page's
        // events encoded again in batches (a frame holds up to 2 MiB of records).
        let frames = try #require(summary["frames"] as? Int)
        #expect(frames >= records - 10, "frames \(frames) for \(records) sealed records")
    }

    /// `verify --json` of `ledger`, which must pass.
    static func verified(_ ledger: String) async throws -> [String: Any] {
        let verified = try await CLI.run("verify", "--json", "--ledger", ledger)
        verified.expectSuccess()
        return try #require(try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])
    }
}
