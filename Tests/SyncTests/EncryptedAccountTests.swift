import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import NIOHTTP1
import SyncServer
import Testing

/// An end-to-end encrypted account on the server (Schemas/encryption.md §11, Schemas/sync-api.yaml
/// `/v1/account…`): made by the built `server add-user --encrypted`, then asked and changed through
/// a real `serve` on loopback, on both stores. Keys are real ones (`DataKey`), so the fingerprints
/// and wrapped keys are the shapes devices send.
@Suite struct EncryptedAccountTests {
    @Test("add-user --encrypted makes an account at epoch 1 with no key; server users and GET /v1/account say so, a plaintext account is unchanged",
          arguments: StoreKind.allCases)
    func encryptedAccountIsListedAndAnswered(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("encrypted-account")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let made = try await store.server("add-user", "hana", "--encrypted")
        #expect(made.stdout.contains("created end-to-end encrypted user hana"), "\(made.stdout)")
        let hana = try CommandLineStore.token(made)
        let plain = try await store.addUser("ken")

        let listed = try await store.server("users", "--json")
        listed.expectSuccess()
        let users = try #require(try Self.object(listed.stdout)["users"] as? [[String: Any]], "\(listed.stdout)")
        let byName = Dictionary(uniqueKeysWithValues: users.map { ($0["name"] as? String ?? "", $0) })
        #expect((byName["hana"]?["encryption"] as? [String: Any])?["epoch"] as? Int == 1, "\(listed.stdout)")
        #expect(byName["ken"]?["encryption"] is NSNull, "a plaintext account's encryption is null: \(listed.stdout)")
        #expect(byName["ken"]?["active_tokens"] as? Int == 1 && byName["ken"]?["tokens"] is [Any], "the other keys are unchanged")
        let text = try await store.server("users")
        #expect(text.stdout.contains("hana; end-to-end encrypted, key epoch 1: tokens 1 active"), "\(text.stdout)")
        #expect(text.stdout.contains("ken: tokens 1 active"), "\(text.stdout)")

        let server = try await store.serve()
        defer { server.terminate() }
        let (status, account) = try await Self.call(.GET, server.url + "/v1/account", token: hana)
        #expect(status == 200, "\(account)")
        #expect(account["encrypted"] as? Bool == true && account["epoch"] as? Int == 1, "\(account)")
        #expect(account["fingerprint"] is NSNull && (account["key_chain"] as? [String: Any])?.isEmpty == true, "\(account)")
        let (plainStatus, plainAccount) = try await Self.call(.GET, server.url + "/v1/account", token: plain)
        #expect(plainStatus == 200, "\(plainAccount)")
        #expect(plainAccount["encrypted"] as? Bool == false && plainAccount["epoch"] is NSNull && plainAccount["fingerprint"] is NSNull,
                "\(plainAccount)")
        #expect((plainAccount["key_chain"] as? [String: Any])?.isEmpty == true, "\(plainAccount)")
        #expect(try await Self.call(.GET, server.url + "/v1/account", token: "ots_nobody").0 == 401)
    }

    @Test("the first key's fingerprint is registered once: again 200, another 409 naming the link and the kit; plaintext 409; malformed 422",
          arguments: StoreKind.allCases)
    func keyRegistration(kind: StoreKind) async throws {
        let fixture = try await AccountsFixture.start(kind, "account-key")
        defer { fixture.stop() }
        let (hana, plain, server) = (fixture.hana, fixture.ken, fixture.server)
        let url = server.url + "/v1/account/key"
        let key = DataKey.random(epoch: 1)

        for bad in ["7kq2-m9xd", "7KQ2M9XD", "7KQ2-M9XU", "7KQ2-M9X", " 7KQ2-M9XD"] {
            let (status, body) = try await Self.call(.POST, url, token: hana, ["fingerprint": bad])
            #expect(status == 422 && body["error"] as? String == "invalid", "\(bad): \(status) \(body)")
        }
        #expect(try await Self.call(.POST, url, token: hana, ["fingerprint": 7]).0 == 400)
        let (first, registered) = try await Self.call(.POST, url, token: hana, ["fingerprint": key.fingerprint])
        #expect(first == 200 && registered["fingerprint"] as? String == key.fingerprint && registered["epoch"] as? Int == 1, "\(registered)")
        let (again, same) = try await Self.call(.POST, url, token: hana, ["fingerprint": key.fingerprint])
        #expect(again == 200 && same["fingerprint"] as? String == key.fingerprint, "idempotent: \(same)")

        let other = DataKey.random(epoch: 1)
        let (conflict, refusal) = try await Self.call(.POST, url, token: hana, ["fingerprint": other.fingerprint])
        #expect(conflict == 409 && refusal["error"] as? String == "conflict", "\(refusal)")
        let sentence = refusal["message"] as? String ?? ""
        #expect(sentence.contains("link") && sentence.contains("recovery kit"), "\(sentence)")
        let (_, account) = try await Self.call(.GET, server.url + "/v1/account", token: hana)
        #expect(account["fingerprint"] as? String == key.fingerprint, "the first one stays: \(account)")

        let (plainStatus, plainRefusal) = try await Self.call(.POST, url, token: plain, ["fingerprint": key.fingerprint])
        #expect(plainStatus == 409 && plainRefusal["error"] as? String == "plaintext-account", "\(plainRefusal)")
        #expect((plainRefusal["message"] as? String)?.contains("not end-to-end encrypted") == true, "\(plainRefusal)")
    }

    @Test("a rotation to E+1 keeps epoch E's wrapped key in the chain and the new fingerprint; a stale epoch is 409, a bad body 422",
          arguments: StoreKind.allCases)
    func rotation(kind: StoreKind) async throws {
        let fixture = try await AccountsFixture.start(kind, "account-rotation")
        defer { fixture.stop() }
        let (hana, plain, server) = (fixture.hana, fixture.ken, fixture.server)
        let url = server.url + "/v1/account/rotation"
        let (one, two, three) = (DataKey.random(epoch: 1), DataKey.random(epoch: 2), DataKey.random(epoch: 3))
        #expect(try await Self.call(.POST, server.url + "/v1/account/key", token: hana, ["fingerprint": one.fingerprint]).0 == 200)
        let chained = KeyWrap.wrap(one, under: two.chainKey, purpose: .chain)

        for (body, why) in [(["epoch": 2, "previous_wrapped": String(Self.hex(chained).dropLast(2)), "fingerprint": two.fingerprint], "short"),
                            (["epoch": 2, "previous_wrapped": String(repeating: "g", count: 128), "fingerprint": two.fingerprint], "not hex"),
                            (["epoch": 2, "previous_wrapped": Self.hex(chained), "fingerprint": "nope"], "fingerprint")] as [([String: Any], String)] {
            let (status, refusal) = try await Self.call(.POST, url, token: hana, body)
            #expect(status == 422, "\(why): \(status) \(refusal)")
        }
        #expect(try await Self.call(.POST, url, token: hana, ["epoch": -1, "previous_wrapped": Self.hex(chained), "fingerprint": two.fingerprint]).0 == 400)
        for stale in [1, 3] {
            let (status, refusal) = try await Self.call(.POST, url, token: hana,
                                                        ["epoch": stale, "previous_wrapped": Self.hex(chained), "fingerprint": two.fingerprint])
            #expect(status == 409 && refusal["error"] as? String == "stale-epoch", "\(stale): \(refusal)")
            #expect((refusal["message"] as? String)?.contains("at key epoch 1") == true, "\(refusal)")
        }

        let (rotated, account) = try await Self.call(.POST, url, token: hana,
                                                     ["epoch": 2, "previous_wrapped": Self.hex(chained).uppercased(), "fingerprint": two.fingerprint])
        #expect(rotated == 200 && account["epoch"] as? Int == 2 && account["fingerprint"] as? String == two.fingerprint, "\(account)")
        let (_, read) = try await Self.call(.GET, server.url + "/v1/account", token: hana)
        let chain = try #require(read["key_chain"] as? [String: String], "\(read)")
        #expect(chain.keys.sorted() == ["1"] && read["epoch"] as? Int == 2, "\(read)")
        // The chain unwraps to epoch 1's key under epoch 2's: the device holding only the newest reads the older.
        let kept = try #require(chain["1"].flatMap { AccountEncryption.wrappedKey(hex: $0) })
        #expect(try KeyWrap.unwrap(kept, under: two.chainKey, purpose: .chain) == one)

        let (again, stale) = try await Self.call(.POST, url, token: hana,
                                                 ["epoch": 2, "previous_wrapped": Self.hex(chained), "fingerprint": two.fingerprint])
        #expect(again == 409 && (stale["message"] as? String)?.contains("at key epoch 2") == true, "a second device rotating to 2: \(stale)")
        let next = KeyWrap.wrap(two, under: three.chainKey, purpose: .chain)
        let (third, moved) = try await Self.call(.POST, url, token: hana, ["epoch": 3, "previous_wrapped": Self.hex(next), "fingerprint": three.fingerprint])
        #expect(third == 200 && (moved["key_chain"] as? [String: String])?.keys.sorted() == ["1", "2"], "\(moved)")
        // A registration after a rotation is of another key: refused, the rotated key stays.
        #expect(try await Self.call(.POST, server.url + "/v1/account/key", token: hana, ["fingerprint": one.fingerprint]).0 == 409)

        let (plainStatus, plainRefusal) = try await Self.call(.POST, url, token: plain,
                                                              ["epoch": 2, "previous_wrapped": Self.hex(chained), "fingerprint": two.fingerprint])
        #expect(plainStatus == 409 && plainRefusal["error"] as? String == "plaintext-account", "\(plainRefusal)")
    }

    @Test("a JSON push or pull on an encrypted account is 415 saying it takes frames only; a plaintext account's are unchanged",
          arguments: StoreKind.allCases)
    func jsonRecordsRefused(kind: StoreKind) async throws {
        let fixture = try await AccountsFixture.start(kind, "account-json")
        defer { fixture.stop() }
        let (hana, plain, server) = (fixture.hana, fixture.ken, fixture.server)
        let pull: [String: Any] = ["have": [String: Int](), "have_digests": [String: String]()]
        let push: [String: Any] = ["records": [["kind": "device_name", "device": "00000000000000a1", "hlc": "111000000000000000", "name": "phone"]]]
        for (path, body) in [("/v1/pull", pull), ("/v1/push", push)] {
            let (status, refusal) = try await Self.call(.POST, server.url + path, token: hana, body)
            #expect(status == 415 && refusal["error"] as? String == "unsupported_media_type", "\(path): \(status) \(refusal)")
            let sentence = refusal["message"] as? String ?? ""
            #expect(sentence.contains("end-to-end encrypted") && sentence.contains(FramesBody.mediaType), "\(sentence)")
            #expect(try await Self.call(.POST, server.url + path, token: plain, body).0 == 200, "\(path) on a plaintext account")
        }
        // A body that is not even JSON is told the same: the account, not the body, decides.
        let (status, _, _) = try await testRequest(.POST, server.url + "/v1/push", token: hana, json: Array("{".utf8))
        #expect(status == 415)
    }

    @Test("a users.json written before encryption existed still opens: its accounts are plaintext")
    func olderUsersFileOpens() async throws {
        let dir = try TemporaryDirectory("account-older-users")
        defer { dir.remove() }
        let data = dir.sub("server")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let token = "ots_" + String(repeating: "ab", count: 32)
        // As an earlier version wrote it: no "encryption", no "generation", a pairing code without "wrapped_key".
        let older = """
            {"version": 1, "pairing_salt": "00112233445566778899aabbccddeeff", "users": [{"name": "old", "tokens": [
              {"sha256": "\(TokenHash.hex(token))", "created": "2024-01-01T00:00:00.000Z"}],
              "pairing": [{"key": "\(String(repeating: "0", count: 64))", "created": "2024-01-01T00:00:00.000Z", "expires": "2099-01-01T00:00:00.000Z"}]}]}
            """
        try older.write(toFile: data + "/" + UserStore.fileName, atomically: true, encoding: .utf8)
        let listed = try await CLI.run(["server", "users", "--json", "--data", data], environment: [:])
        listed.expectSuccess()
        let user = try #require((try Self.object(listed.stdout)["users"] as? [[String: Any]])?.first, "\(listed.stdout)")
        #expect(user["name"] as? String == "old" && user["encryption"] is NSNull, "\(listed.stdout)")

        let server = try await ServerProcess(data: data)
        defer { server.terminate() }
        let (status, account) = try await Self.call(.GET, server.url + "/v1/account", token: token)
        #expect(status == 200 && account["encrypted"] as? Bool == false, "\(status) \(account)")
        #expect(try await Self.call(.GET, server.url + "/v1/status", token: token).0 == 200)
    }

    // MARK: Helpers

    static func call(_ method: HTTPMethod, _ url: String, token: String?, _ body: Any? = nil) async throws -> (Int, [String: Any]) {
        try await AccountsFixture.call(method, url, token: token, body)
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func hex(_ bytes: [UInt8]) -> String { AccountsFixture.hex(bytes) }
}
