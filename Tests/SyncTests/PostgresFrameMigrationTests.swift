import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import NIOHTTP1
import SyncClient
import SyncServer
import SyncServerPostgres
import Testing

/// Schema version 5 moves a version-4 database's `events` rows, with the device names between
/// them, into frames at their positions (Schemas/server-store.md, "Schema and migrations").
@Suite("PostgreSQL store: version-4 rows become frames", .requiresPostgres)
struct PostgresFrameMigrationTests {
    @Test("rows with a gap between positions become frames at the same positions; a cursor from before still works; a new device pulls the whole log")
    func rowsBecomeFrames() async throws {
        let database = try await TestPostgres.database()
        try await TestPostgres.withClient(database.location) { client in
            try await PostgresSchema.migrate(client, logger: TestPostgres.logger, through: 4)
        }
        let dir = try TemporaryDirectory("pg-migration")
        defer { dir.remove() }
        let source = try Ledger.create(directory: dir.sub("source"), deviceName: "phone", clock: DeviceClock(base: StoreFixture.now))
        defer { source.close() }
        _ = try source.appendCatalogVersion(176)
        for n in 0..<20 { _ = try source.edit(UInt32(100 + n), date: .year(2000 + n)) }
        var records: [LedgerRecord] = []
        try source.forEachRecord { view, _ in records.append(view.record) }

        // The rows as version 4 wrote them, with position 10 left unused (as a repair left it).
        let user = try #require(try await database.sql(
            "INSERT INTO users (name, created, next_position) VALUES ('alice', 0, \(records.count + 1)) RETURNING id::text").first)
        var position = 0
        for record in records {
            if position == 10 { position += 1 }
            var encoder = RecordEncoder()
            encoder.append(record)
            let bytes = "decode('\(encoder.bytes.map { String(format: "%02x", $0) }.joined())', 'hex')"
            let device = Int64(bitPattern: record.device.rawValue), hlc = Int64(bitPattern: record.hlc.rawValue)
            if let id = record.eventID {
                _ = try await database.sql("""
                    INSERT INTO events (device, seq, user_id, position, kind, hlc, record, digest)
                    VALUES (\(device), \(id.seq), \(user), \(position), \(encoder.bytes[0]), \(hlc), \(bytes), '\(EventDigest.hex(record))')
                    RETURNING 'x'
                    """)
            } else {
                _ = try await database.sql("""
                    INSERT INTO device_names (device, hlc, user_id, position, record, digest)
                    VALUES (\(device), \(hlc), \(user), \(position), \(bytes), '\(EventDigest.hex(record))') RETURNING 'x'
                    """)
            }
            position += 1
        }
        let held = try #require(source.versionVector[source.localDevice])
        _ = try await database.sql("""
            INSERT INTO devices (device, user_id, last_seq) VALUES (\(Int64(bitPattern: source.localDevice.rawValue)), \(user), \(held))
            RETURNING 'x'
            """)

        // Started as `serve` starts: migrated to version 5.
        let store = database.store(clock: DeviceClock(base: StoreFixture.now))
        let server = try await StoreServer.start(store)
        let (token, hash) = TestPostgres.token()
        try await store.addToken(user: "alice", tokenHash: hash, now: StoreFixture.now)
        #expect(try await database.sql("SELECT count(*)::text FROM information_schema.tables WHERE table_name = 'events'") == ["0"])
        #expect(try await database.sql("SELECT first_position || '+' || count FROM event_frames ORDER BY first_position")
                == ["0+10", "11+\(records.count - 10)"], "a frame never spans the gap")
        #expect(try await database.sql("SELECT version::text FROM catalog_versions") == ["176"])
        #expect(try await store.verify(user: nil).isEmpty)

        // A cursor of before the migration: the records from position 11 on.
        let (status, page) = try await server.call(.POST, "/v1/pull", token: token, ["have": [String: Int](), "have_digests": [String: String](), "cursor": 11, "limit": 1_000])
        #expect(status == 200 && (page["records"] as? [Any])?.count == records.count - 10, "\(status) \(page)")
        #expect(page["catalog_version"] as? Int == 176)

        let device = try Ledger.create(directory: dir.sub("device"), deviceName: "device", clock: DeviceClock(base: StoreFixture.now))
        defer { device.close() }
        _ = try await SyncSession(connection: try SyncConnection(server: server.url, token: token)).run(device)
        #expect(device.versionVector[source.localDevice] == held)
        #expect(try device.projection() == source.projection())
        await server.stop()
        await store.close()
        await database.drop()
    }
}
