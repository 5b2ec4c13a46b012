import Foundation
import LedgerCore
import LedgerTestSupport
import SyncServer
import SyncServerPostgres
import Testing

/// A pairing code at rest is its scrypt key under the store's own salt (Schemas/server-store.md,
/// "Pairing codes"): neither the code nor a plain hash of it is in what a backup copies, and the
/// code still pairs once.
@Suite("Pairing codes at rest")
struct PairingAtRestTests {
    @Test("users.json keeps the code's scrypt key under its salt, never the code or its SHA-256; the code pairs once")
    func filesStoreKeepsTheKey() async throws {
        let dir = try TemporaryDirectory("pairing-at-rest")
        defer { dir.remove() }
        let users = UserStore(dataDirectory: dir.sub("data"))
        try await users.addUser("alice", tokenHash: TestPostgres.token().hash, now: StoreFixture.now)
        let code = PairingCode.random()
        try users.addPairingCode(user: "alice", code: code, now: StoreFixture.now, expires: StoreFixture.now + 600_000)

        let text = try String(contentsOfFile: users.path, encoding: .utf8)
        #expect(!text.contains(code.canonical) && !text.contains(TokenHash.hex(code.canonical)), "\(text)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let salt = try #require((json["pairing_salt"] as? String).flatMap(PairingSalt.init(hex:)), "\(json)")
        #expect(text.contains("\"key\" : \"\(try code.storedKey(salt: salt))\""), "\(text)")
        #expect(try code.storedKey(salt: salt) != code.storedKey(salt: .random()), "the salt changes the key")

        let user = try users.redeemPairingCode(code, tokenHash: TestPostgres.token().hash, deviceName: "Pixel", now: StoreFixture.now + 1).user
        #expect(user == "alice")
        #expect(throws: SyncServerError.self) {
            try users.redeemPairingCode(code, tokenHash: TestPostgres.token().hash, deviceName: "Pixel", now: StoreFixture.now + 2)
        }
    }

    @Test("PostgreSQL keeps the code's scrypt key under the database's salt; the code pairs once", .requiresPostgres)
    func postgresKeepsTheKey() async throws {
        let database = try await TestPostgres.database()
        let store = database.store(clock: FixedClock(milliseconds: StoreFixture.now))
        let code = PairingCode.random()
        let user = try await store.whileRunning {
            try await store.addUser("alice", tokenHash: TestPostgres.token().hash, now: StoreFixture.now)
            try await store.addPairingCode(user: "alice", code: code, now: StoreFixture.now, expires: StoreFixture.now + 600_000)
            return try await store.redeemPairingCode(code, tokenHash: TestPostgres.token().hash, deviceName: "Pixel", now: StoreFixture.now + 1).user
        }
        let stored = try await database.sql("SELECT hash FROM pairing_codes")
        let salt = try #require(try await database.sql("SELECT value FROM server_settings WHERE name = 'pairing_salt'").first
            .flatMap(PairingSalt.init(hex:)))
        await database.drop()
        #expect(user == "alice")
        #expect(stored == [try code.storedKey(salt: salt)], "\(stored)")
        #expect(!stored.contains(TokenHash.hex(code.canonical)))
    }
}
