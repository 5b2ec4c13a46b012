import Foundation
import LedgerTestSupport
import Testing

/// The names an encrypted account's devices are known by on the server (Schemas/encryption.md §8,
/// "Device names"), through the built binaries on both stores: a linked device's name is not kept
/// in the clear, each device names itself sealed at its sync, `device list` opens the names with
/// the key, a rename is sealed too, and a name in the clear is refused.
@Suite("An encrypted account's device names, sealed")
struct EncryptedDeviceNamesTests {
    @Test("no device name in the clear on the server; device list opens them; rename seals; a clear rename is 409",
          arguments: StoreKind.allCases)
    func sealedNames(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("encrypted-names")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try CommandLineStore.token(try await store.server("add-user", "hana", "--encrypted"))
        let server = try await store.serve()
        defer { server.terminate() }
        let laptopName = "laptop-" + UUID().uuidString, phoneName = "phone-" + UUID().uuidString
        let laptop = dir.sub("laptop"), phone = dir.sub("phone")
        try await CLI.run("init", "--ledger", laptop, "--device", laptopName, "--no-catalog").expectSuccess()
        try await CLI.run("complete", "1130101", "2024-05-03", "--ledger", laptop).expectSuccess()
        try await CLI.run("sync", "--server", server.url, "--token", token, "--ledger", laptop).expectSuccess()

        let linked = try await CLI.run("device", "link", "--json", "--ledger", laptop)
        linked.expectSuccess()
        let offer = try #require(try JSONSerialization.jsonObject(with: Data(linked.stdout.utf8)) as? [String: Any])
        let url = try #require(offer["url"] as? String)
        try await CLI.run("init", "--ledger", phone, "--device", phoneName, "--no-catalog").expectSuccess()
        try await CLI.run("device", "join", url, "--ledger", phone).expectSuccess()
        try await CLI.run("sync", "--ledger", phone).expectSuccess()
        try await CLI.run("sync", "--ledger", laptop).expectSuccess()

        let stored = try await EncryptedSyncTests.storedBytes(store)
        let (laptopStored, phoneStored) = (EncryptedSyncTests.contains(stored, laptopName), EncryptedSyncTests.contains(stored, phoneName))
        #expect(!laptopStored && !phoneStored, "no device name is stored in the clear")
        let listed = try await CLI.run("device", "list", "--ledger", laptop)
        listed.expectSuccess()
        #expect(listed.stdout.contains(laptopName) && listed.stdout.contains(phoneName) && !listed.stdout.contains("sealed:"),
                "the names opened with the key: \(listed.stdout)")

        let renamed = "新しい名前-" + UUID().uuidString
        let rename = try await CLI.run("device", "rename", renamed, "--ledger", phone)
        rename.expectSuccess()
        #expect(rename.stdout.contains(renamed), "\(rename.stdout)")
        let renamedStored = EncryptedSyncTests.contains(try await EncryptedSyncTests.storedBytes(store), renamed)
        #expect(!renamedStored, "a rename is sealed too")
        #expect(try await CLI.run("device", "list", "--ledger", laptop).stdout.contains(renamed))

        let phoneToken = try String(contentsOfFile: phone + "/sync-token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let clear = try await EncryptedSyncTests.post(server.url + "/v1/devices/rename", token: phoneToken, body: #"{"name":"clear name"}"#)
        #expect(clear.status == 409 && clear.body.contains("encrypted-account"), "\(clear.status) \(clear.body)")
    }
}
