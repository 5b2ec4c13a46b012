import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import Testing

/// A device whose clock ran fast is not locked out (Schemas/merge.md §11): the built executable
/// against the real sync server, the fast clock set with ORITSUBUSHI_NOW.
@Suite("Reissue (a clock that ran fast)")
struct ReissueTests {
    /// Two days ahead of the machine's clock, as Unix seconds.
    static var twoDaysAhead: [String: String] {
        ["ORITSUBUSHI_NOW": String(Int(Date().timeIntervalSince1970) + 2 * 86_400)]
    }

    @Test("events dated two days ahead are refused, reissued with the real clock, then synced with nothing lost",
          arguments: StoreKind.allCases)
    func reissueThenSync(store: StoreKind) async throws {
        let dir = try TemporaryDirectory("reissue")
        defer { dir.remove() }
        let server = try await SyncTestServer.start(dir, store)
        defer { server.stop() }
        let phone = dir.sub("phone"), tablet = dir.sub("tablet")
        try await CLI.run("init", "--ledger", phone, "--device", "phone", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "202919", "2020-05", "--ledger", phone).expectSuccess()
        try await server.sync(phone).expectSuccess()
        try await CLI.run(["complete", "120004", "2021-03-04", "--ledger", phone], environment: Self.twoDaysAhead).expectSuccess()
        try await CLI.run(["memo", "120004", "未来から", "--ledger", phone], environment: Self.twoDaysAhead).expectSuccess()

        let refused = try await server.sync(phone, environment: Self.twoDaysAhead)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("then run 'oritsubushi reissue' on it"), "\(refused.stderr)")

        let before = try directorySnapshot(phone)
        let dryRun = try await CLI.run("reissue", "--dry-run", "--ledger", phone)
        dryRun.expectSuccess()
        #expect(dryRun.stdout.hasPrefix("would reissue device "), "\(dryRun.stdout)")
        #expect(try directorySnapshot(phone) == before, "--dry-run changes nothing")

        let reissued = try await CLI.run("reissue", "--json", "--ledger", phone)
        reissued.expectSuccess()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reissued.stdout.utf8)) as? [String: Any])
        #expect(object["reissued"] as? Bool == true)
        #expect(object["first_seq"] as? Int == 2 && object["last_seq"] as? Int == 3, "\(object)")
        #expect(object["station_edits"] as? Int == 2)
        let newDevice = try #require(object["new_device"] as? String)
        #expect(newDevice != object["old_device"] as? String)
        #expect((object["quarantine"] as? String)?.hasPrefix("quarantine/") == true)
        let stats = try await CLI.run("export", "--format", "tsv", "--ledger", phone)
        #expect(stats.stdout.contains("未来から"), "nothing lost locally")

        try await server.sync(phone).expectSuccess()
        try await CLI.run("init", "--ledger", tablet, "--device", "tablet", "--no-catalog").expectSuccess()
        let pulled = try await server.sync(tablet)
        pulled.expectSuccess()
        let exports = try await [phone, tablet].asyncMap { try await CLI.run("export", "--format", "tsv", "--ledger", $0).stdout }
        #expect(exports[0] == exports[1])
        #expect(exports[1].contains("120004\t20210304") && exports[1].contains("未来から"), "\(exports[1])")

        let again = try await CLI.run("reissue", "--ledger", phone)
        again.expectSuccess()
        #expect(again.stdout.hasPrefix("nothing to reissue"), "\(again.stdout)")
    }

    /// Reissuing events someone received would leave two versions of them: refused, nothing
    /// changed. Received by another device (its knowledge mark, merged back) or acknowledged by
    /// the server (`sync-state.json`).
    @Test("events already received are not reissued: exit 65, nothing changed", arguments: ["mark", "server"])
    func receivedRefused(by receiver: String) async throws {
        let dir = try TemporaryDirectory("reissue-refused")
        defer { dir.remove() }
        let phone = dir.sub("phone"), other = dir.sub("other")
        try await CLI.run("init", "--ledger", phone, "--device", "phone", "--no-catalog").expectSuccess()
        try await CLI.run(["complete", "120004", "2021", "--ledger", phone], environment: Self.twoDaysAhead).expectSuccess()
        if receiver == "mark" {
            try await CLI.run("init", "--ledger", other, "--device", "other", "--no-catalog").expectSuccess()
            try await CLI.run(["merge", phone, "--ledger", other], environment: Self.twoDaysAhead).expectSuccess()
            try await CLI.run(["merge", other, "--ledger", phone], environment: Self.twoDaysAhead).expectSuccess()
        } else {
            let metadata = try LedgerMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: phone + "/ledger.json"))), path: phone)
            try "{\"server_has\": {\"\(metadata.device)\": 1}}".write(toFile: phone + "/" + SyncState.fileName, atomically: true, encoding: .utf8)
        }
        let before = try directorySnapshot(phone)
        let refused = try await CLI.run("reissue", "--ledger", phone)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("already received them up to #1"), "\(refused.stderr)")
        #expect(refused.stderr.contains(receiver == "mark" ? "device 'other'" : "the sync server"))
        #expect(try directorySnapshot(phone) == before)
    }
}
