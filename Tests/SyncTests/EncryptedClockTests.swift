import Foundation
import LedgerTestSupport
import Testing

/// The clock checks an encrypted account's server cannot make (its events' hlc is sealed), made
/// by the pushing device against the server's clock (Schemas/encryption.md §1, "The clock stays
/// sealed"), through the built binaries on both stores: a device whose clock ran two days fast
/// sends nothing and is told, as a plaintext account's server would tell it, to reissue.
@Suite("An encrypted account's clock checks, made by the pushing device")
struct EncryptedClockTests {
    /// Two days ahead of the machine's clock, as Unix seconds.
    static var twoDaysAhead: [String: String] {
        ["ORITSUBUSHI_NOW": String(Int(Date().timeIntervalSince1970) + 2 * 86_400)]
    }

    @Test("events dated two days ahead of the server's clock are not sent; reissued, they sync and a linked device reads them",
          arguments: StoreKind.allCases)
    func fastClockSendsNothing(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("encrypted-clock")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try CommandLineStore.token(try await store.server("add-user", "hana", "--encrypted"))
        let server = try await store.serve()
        defer { server.terminate() }
        let phone = dir.sub("phone"), tablet = dir.sub("tablet")
        try await CLI.run("init", "--ledger", phone, "--device", "phone", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "1130101", "2024-05-03", "--ledger", phone).expectSuccess()
        try await CLI.run("sync", "--server", server.url, "--token", token, "--ledger", phone).expectSuccess()
        let before = try await Self.storedRecords(server.url, token: token)

        try await CLI.run(["complete", "1130102", "2024-05-04", "--memo", "未来から", "--ledger", phone], environment: Self.twoDaysAhead)
            .expectSuccess()
        let refused = try await CLI.run(["sync", "--ledger", phone], environment: Self.twoDaysAhead)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("against the server's clock") && refused.stderr.contains("then run 'oritsubushi reissue' on it"),
                "\(refused.stderr)")
        let after = try await Self.storedRecords(server.url, token: token)
        #expect(before != nil && after == before, "the server got nothing: \(String(describing: before)) then \(String(describing: after))")

        try await CLI.run("reissue", "--ledger", phone).expectSuccess()
        try await CLI.run("sync", "--ledger", phone).expectSuccess()
        try await CLI.run("init", "--ledger", tablet, "--device", "tablet", "--no-catalog").expectSuccess()
        try FileManager.default.copyItem(atPath: phone + "/encryption-keys", toPath: tablet + "/encryption-keys")
        try await CLI.run("sync", "--server", server.url, "--token", token, "--ledger", tablet).expectSuccess()
        let exported = try await CLI.run("export", "--format", "tsv", "--ledger", tablet)
        #expect(exported.stdout.contains("1130102\t20240504") && exported.stdout.contains("未来から"), "\(exported.stdout)")
    }

    /// How many records the server holds for the token's user (`GET /v1/status`).
    static func storedRecords(_ url: String, token: String) async throws -> Int? {
        let body = try await EncryptedSyncTests.status(url, token: token)
        return (try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["records"] as? Int
    }
}
