import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import NIOHTTP1
import SyncServer
import Testing

/// A link carries an encrypted account's key to a new device (Schemas/encryption.md §4 purpose 1,
/// §8; Schemas/sync-api.yaml `/v1/devices/link`, `/v1/pair`): the server keeps the wrapped key
/// with the code and hands it over once, with the account's epoch; a code without one still pairs
/// and says the account is encrypted. Through a real `serve` on loopback, on both stores.
@Suite struct LinkKeyTransportTests {
    @Test("a link's wrapped key is answered once by the pair that uses its code, with the epoch; the link secret unwraps it to the key",
          arguments: StoreKind.allCases)
    func linkCarriesTheKey(kind: StoreKind) async throws {
        let fixture = try await AccountsFixture.start(kind, "link-key")
        defer { fixture.stop() }
        let (store, hana) = (fixture.store, fixture.hana)
        let key = DataKey.random(epoch: 1)
        #expect(try await fixture.call(.POST, "/v1/account/key", token: hana, ["fingerprint": key.fingerprint]).0 == 200)
        let secret = (0..<KeyWrap.linkSecretByteCount).map { _ in UInt8.random(in: 0...255) }
        let wrapped = KeyWrap.wrap(key, under: try KeyWrap.linkKey(secret: secret), purpose: .link)

        for (bad, why) in [(String(repeating: "0", count: 126), "short"), (String(repeating: "z", count: 128), "not hex")] {
            let (status, refusal) = try await fixture.call(.POST, "/v1/devices/link", token: hana, ["wrapped_key": bad])
            #expect(status == 422 && (refusal["message"] as? String)?.contains("wrapped_key") == true, "\(why): \(status) \(refusal)")
        }
        let (linked, link) = try await fixture.call(.POST, "/v1/devices/link", token: hana,
                                                    ["wrapped_key": AccountsFixture.hex(wrapped), "device_name": "desk"])
        #expect(linked == 200, "\(link)")
        let code = try #require(link["code"] as? String)
        let hex = AccountsFixture.hex(wrapped)
        #expect(try await Self.keptLinkKeys(store, hex) == 1, "kept with the code until it is used")
        let (paired, answer) = try await fixture.call(.POST, "/v1/pair", token: nil, ["code": code, "device_name": "x"])
        // An encrypted account keeps no name in the clear, the link's neither (encryption.md §8,
        // "Device names"): the answer echoes the name asked for, and no token carries one.
        #expect(paired == 200 && answer["device_name"] as? String == "x", "\(answer)")
        let (_, listed) = try await fixture.call(.GET, "/v1/devices", token: hana, nil)
        let names = (listed["devices"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == [], "\(listed)")
        #expect(answer["encrypted"] as? Bool == true && answer["epoch"] as? Int == 1, "\(answer)")
        let handed = try #require((answer["wrapped_key"] as? String).flatMap { AccountEncryption.wrappedKey(hex: $0) }, "\(answer)")
        #expect(try KeyWrap.unwrap(handed, under: try KeyWrap.linkKey(secret: secret), purpose: .link) == key)

        // Once: the code is used, and the store keeps no copy of the wrapped key.
        let (again, refusal) = try await fixture.call(.POST, "/v1/pair", token: nil, ["code": code, "device_name": "y"])
        #expect(again == 410 && refusal["wrapped_key"] == nil, "\(again) \(refusal)")
        #expect(try await Self.keptLinkKeys(store, hex) == 0, "the store keeps no used link's key")

        // After a rotation, a link's pair names the account's epoch now.
        let two = DataKey.random(epoch: 2)
        let rotation: [String: Any] = ["epoch": 2, "previous_wrapped": AccountsFixture.hex(KeyWrap.wrap(key, under: two.chainKey, purpose: .chain)),
                                       "fingerprint": two.fingerprint]
        #expect(try await fixture.call(.POST, "/v1/account/rotation", token: hana, rotation).0 == 200)
        let newWrapped = KeyWrap.wrap(two, under: try KeyWrap.linkKey(secret: secret), purpose: .link)
        let (_, second) = try await fixture.call(.POST, "/v1/devices/link", token: hana, ["wrapped_key": AccountsFixture.hex(newWrapped)])
        let (_, rotated) = try await fixture.call(.POST, "/v1/pair", token: nil,
                                                  ["code": try #require(second["code"] as? String), "device_name": "tablet"])
        #expect(rotated["epoch"] as? Int == 2 && rotated["wrapped_key"] as? String == AccountsFixture.hex(newWrapped), "\(rotated)")
    }

    @Test("a code without a key still pairs on an encrypted account and says it is encrypted; a plaintext account's pair says not, and takes no key",
          arguments: StoreKind.allCases)
    func codesWithoutKey(kind: StoreKind) async throws {
        let fixture = try await AccountsFixture.start(kind, "link-no-key")
        defer { fixture.stop() }
        let (store, hana, ken) = (fixture.store, fixture.hana, fixture.ken)

        let (_, link) = try await fixture.call(.POST, "/v1/devices/link", token: hana, ["device_name": "desk"])
        let operatorCode = try await store.server("pair", "hana")
        operatorCode.expectSuccess()
        let plainCode = try await store.server("pair", "ken")
        plainCode.expectSuccess()
        let codes: [(String, Bool, String)] = [
            (try #require(link["code"] as? String), true, "a link without a key"),
            (try #require(operatorCode.stdout.split(separator: "\n").dropFirst().first.map(String.init)), true, "server pair"),
            (try #require(plainCode.stdout.split(separator: "\n").dropFirst().first.map(String.init)), false, "a plaintext account"),
        ]
        for (code, encrypted, why) in codes {
            let (status, answer) = try await fixture.call(.POST, "/v1/pair", token: nil, ["code": code, "device_name": "phone"])
            #expect(status == 200 && answer["encrypted"] as? Bool == encrypted, "\(why): \(status) \(answer)")
            #expect(answer["wrapped_key"] == nil, "\(why): no key: \(answer)")
            #expect((answer["epoch"] as? Int) == (encrypted ? 1 : nil), "\(why): \(answer)")
        }

        let key = DataKey.random(epoch: 1)
        let wrapped = KeyWrap.wrap(key, under: try KeyWrap.linkKey(secret: Array(repeating: 7, count: 32)), purpose: .link)
        let (refused, refusal) = try await fixture.call(.POST, "/v1/devices/link", token: ken, ["wrapped_key": AccountsFixture.hex(wrapped)])
        #expect(refused == 409 && refusal["error"] as? String == "plaintext-account", "\(refusal)")
    }

    /// How many link keys the store holds: copies of `hex` in users.json, or rows of
    /// `pairing_codes` with a wrapped key.
    private static func keptLinkKeys(_ store: CommandLineStore, _ hex: String) async throws -> Int {
        switch store.kind {
        case .files:
            let users = try String(contentsOfFile: try #require(store.dataDirectory) + "/" + UserStore.fileName, encoding: .utf8)
            return users.components(separatedBy: hex).count - 1
        case .postgres:
            let counted = try await #require(store.database).sql("SELECT count(*)::text FROM pairing_codes WHERE wrapped_key IS NOT NULL")
            return Int(counted.first ?? "") ?? -1
        }
    }
}
