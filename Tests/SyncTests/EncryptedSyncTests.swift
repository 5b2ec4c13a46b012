import AsyncHTTPClient
import Foundation
import LedgerCore
import LedgerTestSupport
import NIOHTTP1
import SyncClient
import Testing

/// An end-to-end encrypted account through the built binaries and the real server on both
/// stores (Schemas/encryption.md §11): the first device makes the key and the kit, the server
/// keeps only sealed records (no byte of a memo or a device name anywhere in its files or
/// tables, read raw), a device with the key reads everything, one without it is refused and
/// pushes nothing, and JSON is refused.
@Suite("End-to-end encrypted sync through the binaries")
struct EncryptedSyncTests {
    @Test("the server stores what it cannot read; a device with the key reads it, one without is refused", arguments: StoreKind.allCases)
    func encryptedAccount(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("encrypted-sync")
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try CommandLineStore.token(try await store.server("add-user", "hana", "--encrypted"))
        let plainToken = try await store.addUser("taro")
        let server = try await store.serve()
        defer { server.terminate() }
        let secret = "秘密のメモ-" + UUID().uuidString
        let deviceName = "laptop-" + UUID().uuidString
        let laptop = dir.sub("laptop"), desk = dir.sub("desk"), plain = dir.sub("plain")

        // The bundled catalogue, so that the edit is of a station with a name: 稚内 (202510).
        try await CLI.run("init", "--ledger", laptop, "--device", deviceName).expectSuccess()
        try await CLI.run("complete", "稚内", "2024-05-03", "--memo", secret, "--ledger", laptop).expectSuccess()
        let first = try await CLI.run("sync", "--server", server.url, "--token", token, "--ledger", laptop)
        first.expectSuccess()
        #expect(first.stdout.contains("end-to-end encrypted") && first.stdout.contains("recovery-kit.txt"), "\(first.stdout)")
        // Its catalogue version and edit went as one sealed run: the server counts both events.
        #expect(first.stdout.contains("pushed 3;"), "the two events and the device's name: \(first.stdout)")
        for file in ["encryption-keys", "recovery-kit.txt"] {
            let mode = try FileManager.default.attributesOfItem(atPath: laptop + "/" + file)[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file) is its owner's only")
        }

        // The control: a memo synced to a plaintext account is found by the same scan.
        let control = "見えるメモ-" + UUID().uuidString
        try await CLI.run("init", "--ledger", plain, "--device", "plain", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "1130101", "2024-05-03", "--memo", control, "--ledger", plain).expectSuccess()
        try await CLI.run("sync", "--server", server.url, "--token", plainToken, "--ledger", plain).expectSuccess()
        let stored = try await Self.storedBytes(store)
        let (controlFound, secretFound, nameFound) = (Self.contains(stored, control), Self.contains(stored, secret), Self.contains(stored, deviceName))
        let stationFound = Self.contains(stored, "稚内")
        #expect(controlFound, "the scan finds a plaintext account's memo")
        #expect(!secretFound, "no byte of the encrypted account's memo is stored")
        #expect(!nameFound, "no byte of its device's name is stored")
        #expect(!stationFound, "no byte of the station's name is stored")

        // A device with a token but not the key is refused, and pushes nothing.
        let deskToken = try CommandLineStore.token(try await store.server("add-token", "hana"))
        try await CLI.run("init", "--ledger", desk, "--device", "desk", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "1130102", "2024-05-04", "--ledger", desk).expectSuccess()
        let refused = try await CLI.run("sync", "--server", server.url, "--token", deskToken, "--ledger", desk)
        #expect(refused.status == 77 && refused.stderr.contains("does not have its key"), "\(refused.stderr)")
        let status = try await Self.status(server.url, token: token)
        #expect(status.contains("\"records\":2") || status.contains("\"records\": 2"),
                "the laptop's name, and its catalogue version and edit sealed as one run, only: \(status)")

        // With the key (carried here by hand; a link carries it, §8), it reads everything.
        try FileManager.default.copyItem(atPath: laptop + "/encryption-keys", toPath: desk + "/encryption-keys")
        let joined = try await CLI.run("sync", "--server", server.url, "--token", deskToken, "--ledger", desk)
        joined.expectSuccess()
        #expect(joined.stdout.contains("pulled 2 events"), "the laptop's catalogue version and edit: \(joined.stdout)")
        let history = try await CLI.run("history", "202510", "--ledger", desk)
        #expect(history.stdout.contains(secret), "the desk opened the laptop's memo: \(history.stdout)")
        try await CLI.run("sync", "--ledger", laptop).expectSuccess()
        let back = try await CLI.run("history", "1130102", "--ledger", laptop)
        #expect(back.stdout.contains("2024"), "the laptop opened the desk's event: \(back.stdout)")
        let nameStored = Self.contains(try await Self.storedBytes(store), deviceName)
        #expect(!nameStored, "no byte of the device names pushed since")

        // JSON is refused (415), and the operator's integrity commands work without the key.
        let json = try await Self.post(server.url + "/v1/push", token: token, body: #"{"records":[]}"#)
        #expect(json.status == 415, "\(json.body)")
        let verified = try await store.server("verify")
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        let users = try await store.server("users")
        #expect(users.stdout.contains("hana"), "\(users.stdout)")
    }

    @Test("the key travels with a link and the kit, never the server; a rotation refuses the old key at once", arguments: StoreKind.allCases)
    func linkKitAndRotation(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("encrypted-keys")
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try CommandLineStore.token(try await store.server("add-user", "hana", "--encrypted"))
        let server = try await store.serve()
        defer { server.terminate() }
        let laptop = dir.sub("laptop"), phone = dir.sub("phone"), spare = dir.sub("spare"), late = dir.sub("late")
        let secret = "古いメモ-" + UUID().uuidString
        try await CLI.run("init", "--ledger", laptop, "--device", "laptop", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "1130101", "2024-05-03", "--memo", secret, "--ledger", laptop).expectSuccess()
        try await CLI.run("sync", "--server", server.url, "--token", token, "--ledger", laptop).expectSuccess()

        // A link carries the key in its fragment; both sides show one fingerprint.
        let linked = try await CLI.run("device", "link", "--json", "--ledger", laptop)
        linked.expectSuccess()
        let offer = try #require(try JSONSerialization.jsonObject(with: Data(linked.stdout.utf8)) as? [String: Any])
        let url = try #require(offer["url"] as? String), fingerprint = try #require(offer["fingerprint"] as? String)
        #expect(url.contains("#pair=") && url.contains("&key="), "\(url)")
        try await CLI.run("init", "--ledger", phone, "--device", "phone", "--no-catalog").expectSuccess()
        let joined = try await CLI.run("device", "join", url, "--ledger", phone)
        joined.expectSuccess()
        #expect(joined.stdout.contains("fingerprint \(fingerprint)"), "\(joined.stdout)")
        #expect(try await CLI.run("history", "1130101", "--ledger", phone).stdout.contains(secret), "the linked device reads the memo")
        let keySecret = try #require(url.split(separator: "&key=").last.map(String.init))
        let secretStored = Self.contains(try await Self.storedBytes(store), keySecret)
        #expect(!secretStored, "the link's secret never reached the server")

        // The kit alone restores a new device.
        try await CLI.run("init", "--ledger", spare, "--device", "spare", "--no-catalog").expectSuccess()
        let spareToken = try CommandLineStore.token(try await store.server("add-token", "hana"))
        let wrongKit = dir.sub("wrong-kit.txt")
        try "0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000 0000\n".write(toFile: wrongKit, atomically: true, encoding: .utf8)
        let bad = try await CLI.run("encryption", "recover", "--recovery-kit", wrongKit, "--server", server.url, "--token", spareToken,
                                    "--ledger", spare)
        #expect(bad.status == 64 && !FileManager.default.fileExists(atPath: spare + "/encryption-keys"), "\(bad.stderr)")
        try await CLI.run("encryption", "recover", "--recovery-kit", laptop + "/recovery-kit.txt", "--server", server.url,
                          "--token", spareToken, "--ledger", spare).expectSuccess()
        try await CLI.run("sync", "--server", server.url, "--token", spareToken, "--ledger", spare).expectSuccess()
        #expect(try await CLI.run("history", "1130101", "--ledger", spare).stdout.contains(secret), "the kit restored the key")

        // A rotation: the phone's old key is refused at once, by the client and by the server.
        let oldKey = try #require(try KeyRing.load(ledgerDirectory: phone, fileSystem: PosixFileSystem()))
        let rotated = try await CLI.run("encryption", "rotate", "--ledger", laptop)
        rotated.expectSuccess()
        #expect(rotated.stdout.contains("epoch 2"), "\(rotated.stdout)")
        try await CLI.run("complete", "1130102", "2024-06-01", "--memo", "after rotation", "--ledger", laptop).expectSuccess()
        try await CLI.run("sync", "--ledger", laptop).expectSuccess()
        try await CLI.run("complete", "1130101", "2024-06-02", "--ledger", phone).expectSuccess()
        let stale = try await CLI.run("sync", "--ledger", phone)
        #expect(stale.status == 77 && stale.stderr.contains("rotated"), "\(stale.stderr)")
        var edit = EncodedRecords()
        edit.append(.stationEdit(StationEdit(id: EventID(device: DeviceID(rawValue: 0xABCDEF), seq: 1), hlc: HybridTimestamp(milliseconds: 1_780_000_000_000, counter: 0),
                                             station: 1130104, compDate: .day(2024, 6, 3), memo: nil, origin: .user)))
        let body = try SyncConnection.sealedFramesBody(edit, key: oldKey.current)
        let phoneToken = try String(contentsOfFile: phone + "/sync-token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let (status, _, reply) = try await testRequest(.POST, server.url + "/v1/push", token: phoneToken, json: body,
                                                       contentType: "application/x-oritsubushi-frames")
        #expect(status == 409 && String(decoding: reply, as: UTF8.self).contains("stale-epoch"), "\(String(decoding: reply, as: UTF8.self))")

        // A device with only the new kit reads the records of both epochs (the key chain).
        try await CLI.run("init", "--ledger", late, "--device", "late", "--no-catalog").expectSuccess()
        let lateToken = try CommandLineStore.token(try await store.server("add-token", "hana"))
        try await CLI.run("encryption", "recover", "--recovery-kit", laptop + "/recovery-kit.txt", "--server", server.url,
                          "--token", lateToken, "--ledger", late).expectSuccess()
        try await CLI.run("sync", "--server", server.url, "--token", lateToken, "--ledger", late).expectSuccess()
        #expect(try await CLI.run("history", "1130101", "--ledger", late).stdout.contains(secret), "epoch 1's record, through the chain")
        #expect(try await CLI.run("history", "1130102", "--ledger", late).stdout.contains("after rotation"), "epoch 2's record")
    }

    /// Every byte the store keeps: the files store's data directory read file by file, or every
    /// row of every table of the PostgreSQL database as text (bytea as hex digits).
    static func storedBytes(_ store: CommandLineStore) async throws -> [UInt8] {
        if let data = store.dataDirectory {
            var bytes: [UInt8] = []
            let files = FileManager.default.enumerator(atPath: data)
            while let path = files?.nextObject() as? String {
                var isDirectory: ObjCBool = false
                let full = data + "/" + path
                guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                bytes += try [UInt8](Data(contentsOf: URL(fileURLWithPath: full)))
                bytes.append(0)
            }
            return bytes
        }
        let database = try #require(store.database)
        var text = ""
        for table in try await database.sql("SELECT tablename::text FROM pg_tables WHERE schemaname = 'public'") {
            text += try await database.sql("SELECT COALESCE(string_agg(t::text, E'\\n'), '') FROM \(table) t").joined(separator: "\n")
        }
        return Array(text.utf8)
    }

    /// Whether `text`'s UTF-8 bytes, or their hex digits (PostgreSQL's bytea as text), occur.
    static func contains(_ stored: [UInt8], _ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let hex = Array(bytes.map { String(format: "%02x", $0) }.joined().utf8)
        return find(bytes, in: stored) || find(hex, in: stored)
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Bool { range(of: needle, in: haystack) != nil }

    static func range(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        let first = needle[0]
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == first && haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index..<(index + needle.count)
            }
            index += 1
        }
        return nil
    }

    static func status(_ url: String, token: String) async throws -> String {
        let (_, _, body) = try await testRequest(.GET, url + "/v1/status", token: token, json: nil)
        return String(decoding: body, as: UTF8.self)
    }

    static func post(_ url: String, token: String, body: String) async throws -> (status: Int, body: String) {
        let (status, _, reply) = try await testRequest(.POST, url, token: token, json: Array(body.utf8))
        return (status, String(decoding: reply, as: UTF8.self))
    }
}
