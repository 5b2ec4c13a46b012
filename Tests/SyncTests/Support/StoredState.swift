import Foundation
import LedgerTestSupport
import SyncServer
import Testing

/// Below the commands, per store: what the operations tests damage and inspect to check that a
/// command changed nothing or left nothing behind. The files store is looked at as files, the
/// PostgreSQL store as rows.
enum StoredState {
    /// Where a flipped byte was put, as `server verify` and `server repair` name it.
    struct Place {
        /// The file or table `verify` names.
        var location: String
        /// The key `verify --json` gives the position under ("offset" for files, "seq" for rows).
        var word: String
        /// What `repair` says it moved aside.
        var moved: String
    }

    /// Flips one bit in the user's first stored event: inside the first frame of the first
    /// segment (not the newest frame, so not a torn tail), or inside the user's first frame row.
    static func flipByte(of user: String, in store: CommandLineStore) async throws -> Place {
        if let data = store.dataDirectory {
            let segment = data + "/ledgers/\(user)/segments/00000001.seg"
            var bytes = try Data(contentsOf: URL(fileURLWithPath: segment))
            bytes[70] ^= 0x40  // after the 52-byte header
            try bytes.write(to: URL(fileURLWithPath: segment))
            return Place(location: "00000001.seg", word: "offset", moved: "00000001.seg")
        }
        let database = try #require(store.database)
        let changed = try await database.sql("""
            UPDATE event_frames SET frame = set_byte(frame, 24, get_byte(frame, 24) # 64)
            WHERE (user_id, first_position) = (SELECT user_id, first_position FROM event_frames
                                               WHERE user_id = (SELECT id FROM users WHERE name = '\(user)')
                                               ORDER BY first_position LIMIT 1)
            RETURNING 'x'
            """)
        #expect(changed.count == 1)
        return Place(location: "event_frames", word: "seq", moved: "event_frames")
    }

    /// Everything the store holds, file by file or row by row.
    static func capture(_ store: CommandLineStore) async throws -> [String: Data] {
        if let data = store.dataDirectory { return try directorySnapshot(data) }
        let rows = try await #require(store.database).sql("""
            SELECT 'users ' || name || ' ' || coalesce(last_push, 0) || ' ' || coalesce(last_pull, 0) || ' ' || next_position FROM users
            UNION ALL SELECT 'tokens ' || hash || ' ' || user_id || ' ' || coalesce(revoked, 0) FROM tokens
            UNION ALL SELECT 'devices ' || device || ' ' || user_id || ' ' || last_seq FROM devices
            UNION ALL SELECT 'event_frames ' || user_id || ' ' || first_position || ' ' || count || ' ' || md5(frame) FROM event_frames
            UNION ALL SELECT 'event_runs ' || device || ' ' || first_seq || ' ' || last_seq || ' ' || frame_position FROM event_runs
            UNION ALL SELECT 'catalog_versions ' || device || ' ' || seq || ' ' || version FROM catalog_versions
            UNION ALL SELECT 'device_names ' || device || ' ' || hlc || ' ' || position || ' ' || md5(record) FROM device_names
            UNION ALL SELECT 'quarantine_frames ' || first_position || ' ' || md5(frame) FROM quarantine_frames
            UNION ALL SELECT 'sealed_names ' || fingerprint || ' ' || position || ' ' || md5(record) FROM sealed_names
            """)
        return Dictionary(rows.map { ($0, Data()) }, uniquingKeysWith: { first, _ in first })
    }

    /// How many of the user's damaged segments or rows were set aside by a repair.
    static func quarantined(of user: String, in store: CommandLineStore) async throws -> Int {
        if let data = store.dataDirectory {
            let quarantine = data + "/ledgers/\(user)/quarantine"
            let runs = (try? FileManager.default.contentsOfDirectory(atPath: quarantine)) ?? []
            return try runs.reduce(0) { count, run in
                count + (try FileManager.default.contentsOfDirectory(atPath: quarantine + "/" + run)).filter { $0.hasSuffix(".seg") }.count
            }
        }
        let counts = try await #require(store.database).sql(
            "SELECT count(*)::text FROM quarantine_frames WHERE user_id = (SELECT id FROM users WHERE name = '\(user)')")
        return Int(counts.first ?? "") ?? 0
    }

    /// Every file that names the user (by path or content), or every row that belongs to the user
    /// (by id, by name or by the token's hash).
    static func leftovers(of user: String, token: String, in store: CommandLineStore) async throws -> [String] {
        if let data = store.dataDirectory {
            return try directorySnapshot(data).filter { path, content in
                path.contains(user) || String(decoding: content, as: UTF8.self).contains(user)
                    || String(decoding: content, as: UTF8.self).contains(TokenHash.hex(token))
            }.keys.sorted()
        }
        let database = try #require(store.database)
        var left = try await database.sql("SELECT 'users ' || id FROM users WHERE name = '\(user)'")
        left += try await database.sql("SELECT 'tokens ' || user_id FROM tokens WHERE hash = '\(TokenHash.hex(token))'")
        // Rows whose user is gone are hers too (the ids of the users that remain are the others'),
        // in every table with a user_id column: information_schema, so none is left out.
        for table in try await database.sql("""
            SELECT table_name::text FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'user_id'
            """) {
            left += try await database.sql("SELECT '\(table) ' || user_id FROM \(table) WHERE user_id NOT IN (SELECT id FROM users)")
        }
        return left
    }
}
