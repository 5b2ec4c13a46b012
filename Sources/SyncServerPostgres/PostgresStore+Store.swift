import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

/// The one way a user's admitted records reach the tables, for a plaintext push, a sealed push
/// and a conversion's swap alike (under the user row's lock): laid into frames at the user's
/// next positions and inserted, then each device's `last_seq` and the user's `next_position`
/// moved.
extension PostgresStore {
    /// Inserts the frames `fill` lays out from the user's next position; returns one past the
    /// last position used.
    func storeFrames(user id: Int64, userName: String, _ connection: PostgresConnection,
                     _ fill: (inout PostgresFrames) -> Void) async throws -> Int64 {
        var position: Int64 = 0
        for try await next in try await connection.query(
            "SELECT next_position FROM users WHERE id = \(id)", logger: logger).decode(Int64.self) { position = next }
        var frames = PostgresFrames(from: position)
        fill(&frames)
        do {
            try await frames.insert(user: id, connection, logger)
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {  // unique_violation
            // Under the user row's lock no other push of this user stores these ids: a run
            // already there means the rows were changed by hand.
            throw SyncServerError.damaged("the database already holds some of these events; nothing was written, run `oritsubushi server verify`",
                                          detail: "user '\(userName)': event_runs already hold ids of a push no other push could store (rows changed by hand?)")
        }
        return frames.end
    }

    /// After a push stored its frames up to `end`: each device's highest seq (`lastSeqs`, by
    /// device key), the user's next position and last push.
    func notePush(user id: Int64, lastSeqs last: [Int64: Int64], end: Int64, _ connection: PostgresConnection) async throws {
        if !last.isEmpty {
            let keys = Array(last.keys).sorted()
            try await connection.query("""
                UPDATE devices SET last_seq = v.seq FROM unnest(\(keys)::bigint[], \(keys.map { last[$0]! })::bigint[]) AS v(device, seq)
                WHERE devices.device = v.device
                """, logger: logger)
        }
        try await connection.query(
            "UPDATE users SET next_position = \(end), last_push = \(clock.nowMilliseconds()) WHERE id = \(id)", logger: logger)
    }
}
