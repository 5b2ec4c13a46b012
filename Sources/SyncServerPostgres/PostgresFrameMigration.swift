import LedgerCore
import LedgerSync
import Logging
import PostgresNIO

/// Schema version 5: every user's `events` rows, with the device names between them, become
/// frames at the same positions (a frame never spans a gap between positions, so every pull
/// cursor stays valid), then the `events` table is dropped. It runs in the migration's
/// transaction: a failure leaves version 4 as it was.
enum PostgresFrameMigration {
    static func run(_ connection: PostgresConnection, _ logger: Logger) async throws {
        var users: [Int64] = []
        for try await id in try await connection.query("SELECT id FROM users ORDER BY id", logger: logger).decode(Int64.self) {
            users.append(id)
        }
        let writer = RecordFrames.Writer()
        for id in users {
            var frames: PostgresFrames?
            var run = EncodedRecords()
            func flush() {
                guard run.count > 0, var current = frames else { return }
                current.append(run, writer: writer)
                frames = current
                run = EncodedRecords()
            }
            let rows = try await connection.query("""
                SELECT position, record FROM events WHERE user_id = \(id)
                UNION ALL SELECT position, record FROM device_names WHERE user_id = \(id)
                ORDER BY position
                """, logger: logger)
            var next: Int64 = -1
            for try await (position, record) in rows.decode((Int64, ByteBuffer).self) {
                if frames == nil { frames = PostgresFrames(from: position) }
                // A row that cannot be read as one record is not moved (its position stays a
                // gap): `server verify` then names its seq as missing, and `server repair`
                // restores it from a replica.
                guard let decoded = try? PostgresRecord.decode(record) else {
                    flush()
                    next = -1
                    continue
                }
                if position != next {
                    flush()
                    frames?.skip(to: position)
                }
                run.append(decoded)
                next = position + 1
            }
            flush()
            try await frames?.insert(user: id, connection, logger)
        }
        try await connection.query("DROP TABLE events", logger: logger)
    }
}
