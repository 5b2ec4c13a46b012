import Foundation
import LedgerCore
import LedgerTestSupport
import NIOHTTP1
import SyncServer
import SyncServerPostgres
import Testing

/// Schema version 9 adds what an end-to-end encrypted account keeps (Schemas/server-store.md,
/// "Schema and migrations"; Schemas/encryption.md §11): `users.key_epoch` and `key_fingerprint`,
/// `key_chain`, and `pairing_codes.wrapped_key`. A version-8 database's accounts become plaintext
/// accounts, and what they held keeps working.
@Suite("PostgreSQL store: version 8 gains encrypted accounts", .requiresPostgres)
struct PostgresKeyMigrationTests {
    @Test("a version-8 account is plaintext after migration 9; its token and a pairing code made before still work; encrypted accounts can be made")
    func version8Migrates() async throws {
        let database = try await TestPostgres.database()
        try await TestPostgres.withClient(database.location) { client in
            try await PostgresSchema.migrate(client, logger: TestPostgres.logger, through: 8)
        }
        #expect(try await database.sql("SELECT max(version)::text FROM schema_migrations") == ["8"])
        // As version 8 wrote them: a user, its token and a link code with a name (which never
        // expires: `/v1/pair` reads the system's clock, not the store's fixed one).
        let (token, hash) = TestPostgres.token()
        let user = try #require(try await database.sql("INSERT INTO users (name, created) VALUES ('old', 0) RETURNING id::text").first)
        _ = try await database.sql("INSERT INTO tokens (hash, user_id, created) VALUES ('\(hash)', \(user), 0) RETURNING 'x'")
        let saltHex = try await database.sql("SELECT value FROM server_settings WHERE name = 'pairing_salt'").first
        let salt = try #require(saltHex.flatMap { PairingSalt(hex: $0) })
        let code = PairingCode.random()
        _ = try await database.sql("""
            INSERT INTO pairing_codes (hash, user_id, created, expires, device_name)
            VALUES ('\(try code.storedKey(salt: salt))', \(user), 0, \(Int64.max), 'desk') RETURNING 'x'
            """)

        // Started as `serve` starts: migrated to the newest version (9 and later).
        let store = database.store(clock: FixedClock(milliseconds: StoreFixture.now))
        let server = try await StoreServer.start(store)
        #expect(try await database.sql("SELECT max(version)::text FROM schema_migrations") == [String(PostgresSchema.versions.max() ?? 0)])
        #expect(try await database.sql("SELECT count(*)::text FROM users WHERE key_epoch IS NULL AND key_fingerprint IS NULL") == ["1"])
        #expect(try await database.sql("SELECT count(*)::text FROM key_chain") == ["0"])
        let (status, account) = try await server.call(.GET, "/v1/account", token: token)
        #expect(status == 200 && account["encrypted"] as? Bool == false && account["epoch"] is NSNull, "\(account)")
        let (paired, answer) = try await server.call(.POST, "/v1/pair", token: nil, ["code": code.canonical, "device_name": "phone"])
        #expect(paired == 200 && answer["device_name"] as? String == "desk" && answer["encrypted"] as? Bool == false, "\(answer)")
        #expect(answer["wrapped_key"] == nil && answer["epoch"] == nil, "\(answer)")

        let (newToken, newHash) = TestPostgres.token()
        try await store.addUser("new", tokenHash: newHash, encrypted: true, now: StoreFixture.now)
        #expect(try await store.users().map { "\($0.name):\($0.encryptionEpoch.map(String.init) ?? "-")" } == ["new:1", "old:-"])
        let (_, encrypted) = try await server.call(.GET, "/v1/account", token: newToken)
        #expect(encrypted["encrypted"] as? Bool == true && encrypted["epoch"] as? Int == 1, "\(encrypted)")

        // Deleting an account removes its key chain with it (the foreign key cascades).
        _ = try await database.sql("INSERT INTO key_chain (user_id, epoch, wrapped) SELECT id, 1, '\\x00'::bytea FROM users WHERE name = 'new' RETURNING 'x'")
        try await store.deleteUser("new")
        #expect(try await database.sql("SELECT count(*)::text FROM key_chain") == ["0"])
        await server.stop()
        await store.close()
        await database.drop()
    }
}
