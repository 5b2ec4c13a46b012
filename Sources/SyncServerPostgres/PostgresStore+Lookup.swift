import LedgerCore
import LedgerSync
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import SyncServer

/// Finding stored events by `(device, seq)`: `event_runs` names the frame, the frame is decoded
/// (every checksum checked) and the record cut from it; the digests a pull names are remembered.
extension PostgresStore {
    /// A digest remembered (`RecentDigests`) for the event `id` of user `user` as read from the
    /// frame row at `frame`: a frame row is never changed, so the entry cannot outlive its bytes
    /// on any instance (a repair sets frames aside and stores the events at new positions).
    struct StoredEventKey: Hashable {
        let user: Int64, id: EventID, frame: Int64
    }

    /// The first position of the frame holding each of `ids` the user holds: from `event_runs`
    /// alone, no frame read. Only the user's own runs are looked at (a pull's fork check must not
    /// reveal another user's devices), and a seq beyond the `bigint` range (the API allows up to
    /// 2^64 − 1) is simply not held.
    static func framePositions(_ ids: [EventID], user: Int64, _ connection: PostgresConnection,
                               _ logger: Logger) async throws -> [EventID: Int64] {
        let wanted = ids.filter { Int64(exactly: $0.seq) != nil }
        guard !wanted.isEmpty else { return [:] }
        // The run starting at or before each seq, by the runs' key (device, first_seq), one index
        // probe an id: a device has a run per frame it has events in.
        let rows = try await connection.query("""
            SELECT v.d, v.s, r.frame_position FROM unnest(\(wanted.map { PostgresRecord.key($0.device) })::bigint[],
                                                          \(wanted.map { Int64($0.seq) })::bigint[]) AS v(d, s)
            CROSS JOIN LATERAL (SELECT last_seq, user_id, frame_position FROM event_runs
                                WHERE device = v.d AND first_seq <= v.s ORDER BY first_seq DESC LIMIT 1) r
            WHERE r.last_seq >= v.s AND r.user_id = \(user)
            """, logger: logger)
        var positions: [EventID: Int64] = [:]
        for try await (device, seq, frame) in rows.decode((Int64, Int64, Int64).self) {
            positions[EventID(device: PostgresRecord.device(device), seq: UInt64(seq))] = frame
        }
        return positions
    }

    /// Calls `body` with each of the records at `positions` (id → first position of its frame,
    /// from `framePositions`), reading each frame once and decoding it with every checksum
    /// checked; a frame that does not decode is damage, the 503 naming it (`userName`).
    static func forEachStored(_ positions: [EventID: Int64], user: Int64, userName: String, _ connection: PostgresConnection,
                              _ logger: Logger, _ body: (RecordView) -> Void) async throws {
        try await forEachStoredFrame(positions, user: user, userName: userName, records: .plain, connection, logger) { records, ids in
            RecordStream.forEachValidated(in: records) { view in
                guard view.hasEventID else { return }
                let seq = view.seq
                if ids.contains(where: { $0.seq == seq && $0.device == view.device }) { body(view) }
            }
        }
    }

    /// The same for an encrypted account's sealed events (Schemas/encryption.md §11): each stored
    /// record that holds one of the ids (a sealed run holds several, §3.5), once.
    static func forEachStoredSealed(_ positions: [EventID: Int64], user: Int64, userName: String, _ connection: PostgresConnection,
                                    _ logger: Logger, _ body: (SealedRecordView) throws -> Void) async throws {
        try await forEachStoredFrame(positions, user: user, userName: userName, records: .sealed, connection, logger) { records, ids in
            try SealedRecordStream.forEach(in: records) { view in
                guard ids.contains(where: { $0.device == view.device && view.holds(seq: $0.seq) }) else { return }
                try body(view)
            }
        }
    }

    /// Reads each frame named by `positions` once, decoded as `form` with every checksum checked,
    /// and hands its record stream to `body` with the ids wanted from it.
    private static func forEachStoredFrame(
        _ positions: [EventID: Int64], user: Int64, userName: String, records form: LedgerRecords, _ connection: PostgresConnection,
        _ logger: Logger, _ body: (UnsafeRawBufferPointer, [EventID]) throws -> Void
    ) async throws {
        guard !positions.isEmpty else { return }
        var wanted: [Int64: [EventID]] = [:]
        for (id, frame) in positions { wanted[frame, default: []].append(id) }
        let rows = try await connection.query("""
            SELECT first_position, count, frame FROM event_frames
            WHERE user_id = \(user) AND first_position = ANY(\(Array(wanted.keys)))
            """, logger: logger)
        let reader = RecordFrames.Reader()
        for try await (first, count, frame) in rows.decode((Int64, Int32, ByteBuffer).self) {
            // A few ids a frame: compared in turn, not hashed for each of its records.
            let ids = wanted[first] ?? []
            try frame.withUnsafeReadableBytes { stored in
                try body(try decode(stored, reader, user: userName, first: first, count: count, records: form).records, ids)
            }
        }
    }

    /// The encoded records of those of `ids` the user holds, by id (`framePositions`).
    static func storedRecords(_ ids: [EventID], user: Int64, userName: String, _ connection: PostgresConnection,
                              _ logger: Logger) async throws -> [EventID: [UInt8]] {
        var found: [EventID: [UInt8]] = [:]
        try await forEachStored(try await framePositions(ids, user: user, connection, logger), user: user, userName: userName,
                                connection, logger) { view in
            found[view.eventID] = Array(UnsafeRawBufferPointer(start: view.base, count: view.length))
        }
        return found
    }

    /// The digests of those of `ids` the user holds, by id: remembered ones (`recentDigests`)
    /// without reading a frame, the others read and then remembered. A held id that no frame
    /// yields is missing (the caller decides whether that is damage).
    func storedDigests(_ ids: [EventID], user: Int64, userName: String, _ connection: PostgresConnection) async throws -> [EventID: String] {
        let positions = try await Self.framePositions(ids, user: user, connection, logger)
        var digests: [EventID: String] = [:]
        var unread: [EventID: Int64] = [:]
        recentDigests.withLockedValue { recent in
            for (id, frame) in positions {
                if let digest = recent[StoredEventKey(user: user, id: id, frame: frame)] { digests[id] = digest } else { unread[id] = frame }
            }
        }
        var read: [StoredEventKey: String] = [:]
        try await Self.forEachStored(unread, user: user, userName: userName, connection, logger) { view in
            let digest = EventDigest.hex(view)
            digests[view.eventID] = digest
            read[StoredEventKey(user: user, id: view.eventID, frame: unread[view.eventID]!)] = digest
        }
        if !read.isEmpty { recentDigests.withLockedValue { $0.remember(read) } }
        return digests
    }

    /// Remembers the digests of events a pull page sends (`EncodedRecords.newestEventDigests`),
    /// which the client's next pull names, with the frame rows holding them.
    func rememberSent(_ sent: [EventID: String], user: Int64, _ connection: PostgresConnection) async throws {
        guard !sent.isEmpty else { return }
        let positions = try await Self.framePositions(Array(sent.keys), user: user, connection, logger)
        var entries: [StoredEventKey: String] = [:]
        for (id, frame) in positions { entries[StoredEventKey(user: user, id: id, frame: frame)] = sent[id] }
        recentDigests.withLockedValue { $0.remember(entries) }
    }

    /// The frame row at `first` decoded (valid until `reader`'s next frame); one that does not
    /// decode, or does not hold its `count` records, is the user's damage (503).
    static func decode(_ stored: UnsafeRawBufferPointer, _ reader: RecordFrames.Reader, user: String, first: Int64,
                       count: Int32, records form: LedgerRecords = .plain) throws -> SegmentReader.Frame {
        let frame: SegmentReader.Frame
        do { frame = try reader.frame(stored, records: form) } catch let fault as RecordFrames.Fault {
            throw damagedFrame(user: user, first: first, count: Int(count), fault.reason)
        }
        guard frame.count == Int(count) else {
            throw damagedFrame(user: user, first: first, count: Int(count), "it holds \(frame.count) records")
        }
        return frame
    }

    /// The 503 of a user one of whose frames does not decode.
    static func damagedFrame(user: String, first: Int64, count: Int, _ why: String) -> SyncServerError {
        let detail = "table event_frames, \(PostgresFrames.span(first, count)): the frame cannot be read (\(why))"
        return SyncServerError.damaged(damageMessage(user: user, detail), detail: detail)
    }
}
