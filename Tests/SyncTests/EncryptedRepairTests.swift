import Foundation
import LedgerTestSupport
import Testing

/// `server repair` of an end-to-end encrypted account (Schemas/encryption.md §11, "Repairing a
/// sealed log"), through the built binaries on both stores: from a device's own ledger holding
/// the key (sealed first, the key not kept), and from a sealed replica (`encryption replica`, no
/// key and no plaintext in it) without any key; the devices then read everything, with no fork.
@Suite("Repairing an encrypted account from a sealed replica")
struct EncryptedRepairTests {
    @Test("a flipped byte in an encrypted account: refused from a keyless ledger, repaired from the device's ledger, then from a sealed replica, nothing lost",
          arguments: StoreKind.allCases)
    func repairFromSealedReplica(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("encrypted-repair")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try CommandLineStore.token(try await store.server("add-user", "hana", "--encrypted"))
        let server = try await store.serve()
        defer { server.terminate() }
        let secret = "修復のメモ-" + UUID().uuidString
        let laptop = dir.sub("laptop"), desk = dir.sub("desk")
        try await CLI.run("init", "--ledger", laptop, "--device", "laptop", "--no-catalog").expectSuccess()
        for (station, day) in [("1130101", "2024-05-03"), ("1130102", "2024-05-04"), ("1130103", "2024-05-05")] {
            try await CLI.run("complete", station, day, "--memo", secret, "--ledger", laptop).expectSuccess()
        }
        try await CLI.run("sync", "--server", server.url, "--token", token, "--ledger", laptop).expectSuccess()
        let deskToken = try CommandLineStore.token(try await store.server("add-token", "hana"))
        try await CLI.run("init", "--ledger", desk, "--device", "desk", "--no-catalog").expectSuccess()
        try FileManager.default.copyItem(atPath: laptop + "/encryption-keys", toPath: desk + "/encryption-keys")
        try await CLI.run("complete", "1130104", "2024-05-06", "--ledger", desk).expectSuccess()
        try await CLI.run("sync", "--server", server.url, "--token", deskToken, "--ledger", desk).expectSuccess()
        try await CLI.run("sync", "--ledger", laptop).expectSuccess()

        let place = try await StoredState.flipByte(of: "hana", in: store)
        let verify = try await store.server("verify")
        #expect(verify.status == 65 && verify.stderr.contains("user 'hana'"), "\(verify.stdout)\(verify.stderr)")
        // The server finds the damage at the user's next request (503), and lets the ledger go.
        let refused = try await CLI.run("sync", "--ledger", desk)
        #expect(refused.status == 69, "503 for hana: \(refused.stderr)")

        // A device's plaintext ledger without the key cannot stand for a sealed log: refused,
        // nothing changed.
        let keyless = dir.sub("keyless")
        try await CLI.run("init", "--ledger", keyless, "--device", "keyless", "--no-catalog").expectSuccess()
        let before = try await StoredState.capture(store)
        let plaintext = try await store.server("repair", "hana", "--from", keyless)
        #expect(plaintext.status == 64 && plaintext.stderr.contains("encryption replica"), "\(plaintext.stderr)")
        #expect(try await StoredState.capture(store) == before, "nothing changed")

        // A device's own ledger, holding the key: sealed with it first (the key is not kept).
        let fromDevice = try await store.server("repair", "hana", "--from", laptop)
        fromDevice.expectSuccess()
        #expect(fromDevice.stdout.contains("sealed the replica \(laptop)") && fromDevice.stdout.contains("moved \(place.moved)"),
                "\(fromDevice.stdout)")
        try await store.server("verify").expectSuccess()
        // The key file's line is "EPOCH KEY": the key's 43 base64url characters are nowhere stored.
        let keyText = try #require(try String(contentsOfFile: laptop + "/encryption-keys", encoding: .utf8)
            .split(separator: "\n").first?.split(separator: " ").dropFirst().first.map(String.init))
        #expect(keyText.count == 43)
        let keyStored = EncryptedSyncTests.contains(try await EncryptedSyncTests.storedBytes(store), keyText)
        #expect(!keyStored, "the key is nowhere in the store")

        // The sealed replica: written without the network, holding neither key nor plaintext.
        let replica = dir.sub("sealed-replica")
        let written = try await CLI.run("encryption", "replica", replica, "--ledger", laptop)
        written.expectSuccess()
        #expect(written.stdout.contains("sealed event"), "\(written.stdout)")
        let again = try await CLI.run("encryption", "replica", replica, "--ledger", laptop)
        #expect(again.status == 64, "an existing directory is refused: \(again.stderr)")
        let noKey = try await CLI.run("encryption", "replica", dir.sub("keyless-replica"), "--ledger", keyless)
        #expect(noKey.status == 77 && noKey.stderr.contains("holds no key"), "\(noKey.stderr)")
        let replicaBytes = try Self.allBytes(under: replica)
        let (memoInReplica, nameInReplica) = (EncryptedSyncTests.contains(replicaBytes, secret), EncryptedSyncTests.contains(replicaBytes, "laptop"))
        #expect(!memoInReplica && !nameInReplica, "the replica holds no plaintext")
        #expect(!FileManager.default.fileExists(atPath: replica + "/encryption-keys"), "and no key")

        // Damaged again, and repaired from the sealed replica, without any key.
        let second = try await StoredState.flipByte(of: "hana", in: store)
        #expect(try await CLI.run("sync", "--ledger", desk).status == 69, "503 for hana again")
        let repaired = try await store.server("repair", "hana", "--from", replica)
        repaired.expectSuccess()
        #expect(repaired.stdout.contains("moved \(second.moved)") && repaired.stdout.contains("restored from \(replica)"), "\(repaired.stdout)")
        #expect(try await StoredState.quarantined(of: "hana", in: store) >= 2, "kept, never deleted")
        try await store.server("verify").expectSuccess()
        let stored = try await EncryptedSyncTests.storedBytes(store)
        #expect(!EncryptedSyncTests.contains(stored, secret), "still no byte of the memo is stored")

        // Both devices sync again without a fork, and a new device reads everything.
        try await CLI.run("complete", "1130105", "2024-06-01", "--ledger", laptop).expectSuccess()
        try await CLI.run("sync", "--ledger", laptop).expectSuccess()
        try await CLI.run("sync", "--ledger", desk).expectSuccess()
        let phone = dir.sub("phone")
        try await CLI.run("init", "--ledger", phone, "--device", "phone", "--no-catalog").expectSuccess()
        try FileManager.default.copyItem(atPath: laptop + "/encryption-keys", toPath: phone + "/encryption-keys")
        try await CLI.run("sync", "--server", server.url, "--token", deskToken, "--ledger", phone).expectSuccess()
        let laptopExport = try await CLI.run("export", "--format", "tsv", "--ledger", laptop)
        #expect(laptopExport.stdout.contains(secret) && laptopExport.stdout.contains("1130104"), "\(laptopExport.stdout)")
        #expect(laptopExport.stdout == (try await CLI.run("export", "--format", "tsv", "--ledger", phone)).stdout)
        #expect(laptopExport.stdout == (try await CLI.run("export", "--format", "tsv", "--ledger", desk)).stdout)
    }

    /// Every byte of every file under `directory`, one after another.
    static func allBytes(under directory: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        for file in files.sorted() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory + "/" + file, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            bytes += try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))
        }
        return bytes
    }
}
