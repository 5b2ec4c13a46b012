import Foundation
import LedgerTestSupport
import Testing

/// `sync` remembers its server and token, `status` shows the last sync (docs/ledger-cli.md, "Commands"):
/// the built executable against a real `serve` on loopback.
@Suite("sync remembers its server; status shows the last sync (end to end)")
struct SyncRememberTests {
    /// `status --json` as an object.
    private func status(_ ledger: String) async throws -> [String: Any] {
        let result = try await CLI.run("status", "--json", "--ledger", ledger)
        result.expectSuccess()
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test("first sync with --server/--token, then a plain sync; the token file is 0600; pending events counted")
    func remembers() async throws {
        let dir = try TemporaryDirectory("cli-remember")
        defer { dir.remove() }
        let data = dir.sub("server")
        let token = try await CLI.addUser("alice", data: data)
        let server = try await ServerProcess(data: data, command: ["serve"])
        defer { server.terminate() }
        let url = "http://127.0.0.1:\(server.port)"
        let phone = dir.sub("phone")
        try await CLI.run("init", "--ledger", phone, "--device", "phone", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "202919", "2024-05-03", "--ledger", phone).expectSuccess()

        let never = try await status(phone)
        for key in ["last_sync", "server"] {
            #expect(never[key] is NSNull, "\(key) is null before any sync")
        }
        #expect(never["pending_push"] as? Int == 1, "before any sync every event waits to be pushed")
        #expect(try await CLI.run("status", "--ledger", phone).stdout.contains("last sync  never; 1 event to push"))

        // No --server and none remembered: one sentence, exit 64, nothing written.
        let refused = try await CLI.run(["sync", "--ledger", phone], environment: ["ORITSUBUSHI_TOKEN": token])
        #expect(refused.status == 64, "\(refused.stderr)")
        #expect(refused.stderr.contains("--server") && refused.stderr.split(separator: "\n").count == 1)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: phone))
        #expect(!names.contains("sync-state.json") && !names.contains("sync-token"))

        try await CLI.run("sync", "--server", url, "--token", token, "--ledger", phone).expectSuccess()
        let tokenFile = phone + "/sync-token"
        #expect(try String(contentsOfFile: tokenFile, encoding: .utf8) == token + "\n")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: tokenFile)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let synced = try await status(phone)
        #expect(synced["server"] as? String == url)
        let lastSync = try #require(synced["last_sync"] as? String)
        #expect(lastSync.hasSuffix("Z") && lastSync.count >= 20, "ISO 8601 UTC: \(lastSync)")
        #expect(synced["pending_push"] as? Int == 0)

        try await CLI.run("complete", "120004", "2024-05-04", "--ledger", phone).expectSuccess()
        try await CLI.run("memo", "120004", "小田原", "--ledger", phone).expectSuccess()
        await #expect(try status(phone)["pending_push"] as? Int == 2)
        #expect(try await CLI.run("status", "--ledger", phone).stdout.contains("with \(url); 2 events to push"))

        // A plain sync: the remembered server, the kept token (no --token, no environment).
        let plain = try await CLI.run("sync", "--ledger", phone)
        plain.expectSuccess()
        #expect(plain.stdout.contains("synced with \(url)") && plain.stdout.contains("pushed 2"))
        await #expect(try status(phone)["pending_push"] as? Int == 0)

        // A second device: the same server, its pull counts nothing pending.
        let laptop = dir.sub("laptop")
        try await CLI.run("init", "--ledger", laptop, "--device", "laptop", "--no-catalog").expectSuccess()
        try await CLI.run("sync", "--server", url, "--token", token, "--no-save-token", "--ledger", laptop).expectSuccess()
        #expect(!FileManager.default.fileExists(atPath: laptop + "/sync-token"), "--no-save-token keeps no file")
        await #expect(try status(laptop)["pending_push"] as? Int == 0)
        // The server is remembered, the token is not: it must come from somewhere.
        #expect(try await CLI.run("sync", "--ledger", laptop).status == 64)
        // The summary in Japanese with --lang ja, as `merge` writes it.
        let japanese = try await CLI.run(["sync", "--ledger", laptop, "--lang", "ja"], environment: ["ORITSUBUSHI_TOKEN": token])
        japanese.expectSuccess()
        #expect(japanese.stdout == "\(url) と同期しました: 0件を受信、0件を送信。新しい競合 0件\n", "\(japanese.stdout)")
        let exports = try await [phone, laptop].asyncMap { try await CLI.run("export", "--format", "tsv", "--ledger", $0).stdout }
        #expect(exports[0] == exports[1] && exports[0].contains("小田原"))
        await #expect(server.stop() == 0)
    }
}
