import Foundation
import LedgerTestSupport
import Testing

/// Turning a plaintext account encrypted through the binaries (Schemas/encryption.md §9):
/// `encryption enable` uploads a sealed copy of every event; the server swaps only when it holds
/// all of them; a server killed (SIGKILL) after any step of the swap finishes it when started
/// again, and nothing is lost: a device restored from the kit reads every event, and no byte of a
/// memo is left on the server's disk.
@Suite("Converting an account to end-to-end encryption")
struct EncryptionConversionTests {
    /// Each step of the files store's swap to kill `serve` after, and "none"; PostgreSQL swaps in
    /// one transaction (a kill rolls it back), so it runs uninterrupted.
    static let cases: [(StoreKind, String)] = ["none", "staged", "set-aside", "in-place", "marked", "removed"].map { (.files, $0) }
        + [(.postgres, "none")]

    @Test("a conversion killed after each step resumes and loses nothing", arguments: cases)
    func killedAndResumed(_ kind: StoreKind, _ step: String) async throws {
        let dir = try TemporaryDirectory("convert")
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try await store.addUser("hana")
        var server: ServerProcess? = try await store.serve()
        let url = server!.url
        let laptop = dir.sub("laptop"), phone = dir.sub("phone"), spare = dir.sub("spare")
        let memos = (0..<3).map { "旅のメモ-\($0)-" + UUID().uuidString }
        try await CLI.run("init", "--ledger", laptop, "--device", "laptop", "--no-catalog").expectSuccess()
        for (index, memo) in memos.enumerated() {
            try await CLI.run("complete", "\(1130101 + index)", "2024-05-0\(index + 1)", "--memo", memo, "--ledger", laptop).expectSuccess()
        }
        try await CLI.run("sync", "--server", url, "--token", token, "--ledger", laptop).expectSuccess()
        let phoneToken = try CommandLineStore.token(try await store.server("add-token", "hana"))
        let phoneMemo = "電話のメモ-" + UUID().uuidString
        try await CLI.run("init", "--ledger", phone, "--device", "phone", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "1130200", "2024-06-01", "--memo", phoneMemo, "--ledger", phone).expectSuccess()
        try await CLI.run("sync", "--server", url, "--token", phoneToken, "--ledger", phone).expectSuccess()
        // A name the server keeps in the clear while the account is plaintext (encryption.md §8).
        let phoneName = "電話の名前-" + UUID().uuidString
        try await CLI.run("device", "rename", phoneName, "--ledger", phone).expectSuccess()

        if step != "none" {
            // The same port, so that the devices' remembered server is this one.
            _ = await server?.stop()
            server = try await ServerProcess(storeArguments: store.arguments, environment: ["ORITSUBUSHI_KILL_AT_CONVERSION": step],
                                             port: Int(url.split(separator: ":").last!)!)
            let interrupted = try await CLI.run("encryption", "enable", "--ledger", laptop)
            #expect(interrupted.status != 0, "the server died after step \(step): \(interrupted.stdout)")
            await server?.kill()
            server = try await ServerProcess(storeArguments: store.arguments, port: Int(url.split(separator: ":").last!)!)
        }
        defer { server?.terminate() }
        let enabled = try await CLI.run("encryption", "enable", "--ledger", laptop)
        enabled.expectSuccess()
        #expect(enabled.stdout.contains("end-to-end encrypted"), "\(enabled.stdout)")
        if let data = store.dataDirectory {
            #expect(!FileManager.default.fileExists(atPath: data + "/converting/hana"), "the readable copy and the staging are gone")
        }

        // Nothing readable is left, and nothing was lost: the kit restores every event.
        let stored = try await EncryptedSyncTests.storedBytes(store)
        let leaked = (memos + [phoneMemo, phoneName]).filter { EncryptedSyncTests.contains(stored, $0) }
        #expect(leaked.isEmpty, "no byte of a memo or of a device's name is stored: \(leaked)")
        let refused = try await CLI.run("sync", "--ledger", phone)
        #expect(refused.status == 77, "the phone has no key yet: \(refused.stderr)")
        try await CLI.run("init", "--ledger", spare, "--device", "spare", "--no-catalog").expectSuccess()
        let spareToken = try CommandLineStore.token(try await store.server("add-token", "hana"))
        try await CLI.run("encryption", "recover", "--recovery-kit", laptop + "/recovery-kit.txt", "--server", url,
                          "--token", spareToken, "--ledger", spare).expectSuccess()
        try await CLI.run("sync", "--server", url, "--token", spareToken, "--ledger", spare).expectSuccess()
        for (index, memo) in memos.enumerated() {
            #expect(try await CLI.run("history", "\(1130101 + index)", "--ledger", spare).stdout.contains(memo))
        }
        #expect(try await CLI.run("history", "1130200", "--ledger", spare).stdout.contains(phoneMemo), "the other device's event too")
        let verified = try await store.server("verify")
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
    }
}
