import LedgerCore
import LedgerSync
import Logging
import PostgresNIO
import SyncServer

/// Finding stored events by `(device, seq)`: `event_runs` names the frame, the frame is decoded
/// (every checksum checked) and the record cut from it.
extension PostgresStore {
    /// The encoded records of those of `ids` the user holds, by id. Only the user's own runs are
    /// looked at (a pull's fork check must not reveal another user's devices), and a seq beyond
    /// the `bigint` range (the API allows up to 2^64 − 1) is simply not held. A frame that does
    /// not decode is damage: the 503 naming it (`userName`).
    static func storedRecords(_ ids: [EventID], user: Int64, userName: String, _ connection: PostgresConnection,
                              _ logger: Logger) async throws -> [EventID: [UInt8]] {
        let wanted = ids.filter { Int64(exactly: $0.seq) != nil }
        guard !wanted.isEmpty else { return [:] }
        let lookingFor = Set(wanted)
        // `user_id + 0`: runs are found by their key (device, first_seq), never by the user's
        // index, which a planner whose statistics predate a large push may choose.
        let rows = try await connection.query("""
            SELECT f.first_position, f.count, f.frame FROM event_frames f
            WHERE f.user_id = \(user) AND f.first_position IN (
                SELECT r.frame_position FROM unnest(\(wanted.map { PostgresRecord.key($0.device) })::bigint[],
                                                    \(wanted.map { Int64($0.seq) })::bigint[]) AS v(d, s)
                JOIN event_runs r ON r.device = v.d AND r.first_seq <= v.s AND r.last_seq >= v.s AND r.user_id + 0 = \(user))
            """, logger: logger)
        let reader = RecordFrames.Reader()
        var found: [EventID: [UInt8]] = [:]
        for try await (first, count, frame) in rows.decode((Int64, Int32, ByteBuffer).self) {
            try frame.withUnsafeReadableBytes { stored in
                let decoded = try decode(stored, reader, user: userName, first: first, count: count)
                RecordStream.forEachValidated(in: decoded.records) { view in
                    if view.hasEventID, lookingFor.contains(view.eventID) {
                        found[view.eventID] = Array(UnsafeRawBufferPointer(start: view.base, count: view.length))
                    }
                }
            }
        }
        return found
    }

    /// The digest of the user's event `id`, or nil when the user holds no such event.
    static func storedDigest(_ id: EventID, user: Int64, userName: String, _ connection: PostgresConnection,
                             _ logger: Logger) async throws -> String? {
        try await storedRecords([id], user: user, userName: userName, connection, logger)[id].map { bytes in
            bytes.withUnsafeBytes { EventDigest.hex($0) }
        }
    }

    /// The frame row at `first` decoded (valid until `reader`'s next frame); one that does not
    /// decode, or does not hold its `count` records, is the user's damage (503).
    static func decode(_ stored: UnsafeRawBufferPointer, _ reader: RecordFrames.Reader, user: String, first: Int64,
                       count: Int32) throws -> SegmentReader.Frame {
        let frame: SegmentReader.Frame
        do { frame = try reader.frame(stored) } catch let fault as RecordFrames.Fault {
            throw damagedFrame(user: user, first: first, count: Int(count), fault.reason)
        }
        guard frame.count == Int(count) else {
            throw damagedFrame(user: user, first: first, count: Int(count), "it holds \(frame.count) records")
        }
        return frame
    }

    /// The 503 of a user one of whose frames does not decode.
    static func damagedFrame(user: String, first: Int64, count: Int, _ why: String) -> SyncServerError {
        SyncServerError(.unavailable, damageMessage(user: user, "table event_frames, \(PostgresFrames.span(first, count)): the frame cannot be read (\(why))"))
    }
}
