import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

extension PostgresStore {
    /// One transaction: the user row is locked (positions in order), devices are claimed by key,
    /// and `MergeAdmission` runs against what the rows hold; the event key
    /// `(device, seq)` decides between two instances inserting one id at the same moment.
    package func push(user: String, request: PushRequest) async throws -> PushResponse {
        try await push(user: user, records: try PushRecords.decode(request, maximum: limits.json.pushRecords))
    }

    package func push(user: String, records: EncodedRecords) async throws -> PushResponse {
        try PushRecords.check(records, maximum: limits.frames.pushRecords)
        let now = clock.nowMilliseconds()
        do {
            return try await PostgresDeadline.serving(client, logger) { connection in
                try await connection.transaction(logger: self.logger) { connection in
                    try await self.push(records, user: user, now: now, connection)
                }
            }
        } catch let error as LedgerError {
            throw SyncServerError(refusedMerge: error)
        }
    }

    private func push(_ records: EncodedRecords, user: String, now: Int64, _ connection: PostgresConnection) async throws -> PushResponse {
        let id = try await Self.userID(user, connection, logger, forUpdate: true, serving: true)
        var pushed = Set<DeviceID>()
        records.forEach { pushed.insert($0.device) }
        let devices = pushed.sorted()
        let held = try await claim(devices, for: id, connection)
        let storedNames = try await Self.newestNames(devices, connection, logger)
        let prepared = try await prepare(records, held: held, storedNames: storedNames, now: now, user: user, userID: id, connection)
        if !limits.userSize.isOff {
            try limits.userSize.check(stored: try await storedBytes(id, connection), adding: prepared.appendedSize)
        }

        var position: Int64 = 0
        for try await next in try await connection.query(
            "SELECT next_position FROM users WHERE id = \(id)", logger: logger).decode(Int64.self) { position = next }
        var duplicates = prepared.duplicates
        if prepared.eventCount > 0 {
            let first = position
            position += Int64(prepared.eventCount)
            duplicates += try await insertEvents(prepared, user: id, from: first, connection)
        }
        for name in prepared.names {
            let bytes = PostgresRecord.bytes(.deviceName(name))
            try await connection.query("""
                INSERT INTO device_names (device, hlc, user_id, position, record, digest)
                VALUES (\(PostgresRecord.key(name.device)), \(PostgresRecord.key(name.hlc)), \(id), \(position), \(bytes), \(PostgresRecord.digest(bytes)))
                """, logger: logger)
            position += 1
        }
        var last: [Int64: Int64] = [:]
        prepared.forEachEvent { last[PostgresRecord.key($0.device)] = Int64($0.seq) }
        if !last.isEmpty {
            let keys = Array(last.keys).sorted()
            try await connection.query("""
                UPDATE devices SET last_seq = v.seq FROM unnest(\(keys)::bigint[], \(keys.map { last[$0]! })::bigint[]) AS v(device, seq)
                WHERE devices.device = v.device
                """, logger: logger)
        }
        let appended = prepared.eventCount + prepared.names.count
        try await connection.query(
            "UPDATE users SET next_position = \(position), last_push = \(clock.nowMilliseconds()) WHERE id = \(id)", logger: logger)
        let vector = try await Self.heldVector(id, connection, logger)
        return PushResponse(appended: appended - (duplicates - prepared.duplicates), duplicates: duplicates,
                            serverHas: WireVersionVector.encode(vector))
    }

    /// The bytes of the user's stored records (`--max-user-bytes`): a sum over the user's rows,
    /// run only when the limit is set, under the push's lock of the user row.
    private func storedBytes(_ id: Int64, _ connection: PostgresConnection) async throws -> Int64 {
        var total: Int64 = 0
        for try await bytes in try await connection.query("""
            SELECT (SELECT COALESCE(sum(octet_length(record)), 0) FROM events WHERE user_id = \(id))
                 + (SELECT COALESCE(sum(octet_length(record)), 0) FROM device_names WHERE user_id = \(id))
            """, logger: logger).decode(Int64.self) { total = bytes }
        return total
    }

    /// Claims every device for the user (a device row names one owner: INSERT … ON CONFLICT DO
    /// NOTHING waits for a concurrent claim to commit) and returns the highest seq held for each.
    private func claim(_ devices: [DeviceID], for id: Int64, _ connection: PostgresConnection) async throws -> [DeviceID: UInt64] {
        let keys = devices.map(PostgresRecord.key)
        try await connection.query("""
            INSERT INTO devices (device, user_id) SELECT d, \(id) FROM unnest(\(keys)::bigint[]) AS d ORDER BY d
            ON CONFLICT (device) DO NOTHING
            """, logger: logger)
        var held: [DeviceID: UInt64] = [:]
        var foreign: [DeviceID] = []
        for try await (device, owner, seq) in try await connection.query(
            "SELECT device, user_id, last_seq FROM devices WHERE device = ANY(\(keys))", logger: logger).decode((Int64, Int64, Int64).self) {
            if owner != id { foreign.append(PostgresRecord.device(device)) }
            held[PostgresRecord.device(device)] = UInt64(seq)
        }
        if let device = foreign.min() {
            throw SyncServerError(.forbidden, "device \(device) belongs to another user; a token never writes another user's log")
        }
        return held
    }

    /// The newest stored name of each device.
    static func newestNames(_ devices: [DeviceID], _ connection: PostgresConnection, _ logger: Logger) async throws -> [DeviceID: DeviceNameRecord] {
        var names: [DeviceID: DeviceNameRecord] = [:]
        let rows = try await connection.query("""
            SELECT DISTINCT ON (device) record FROM device_names WHERE device = ANY(\(devices.map(PostgresRecord.key)))
            ORDER BY device, hlc DESC
            """, logger: logger)
        for try await bytes in rows.decode(ByteBuffer.self) {
            if case .deviceName(let name)? = try? PostgresRecord.decode(bytes) { names[name.device] = name }
        }
        return names
    }

    /// Inserts the events at consecutive positions; an id that a concurrent transaction inserted
    /// first (the key decides) is a duplicate when its digest is equal and refused otherwise.
    /// Returns the number of such duplicates. The records and their digests go as one `bytea`
    /// each, and the database cuts the rows from them: the serve process sends a few arrays, not
    /// a value per column and row. The rows are first inserted plainly in a savepoint: under the
    /// user row's lock and the device claims no other transaction inserts these ids, and
    /// `ON CONFLICT` costs every row a speculative insertion. Only when the key refuses one is
    /// the insert made again with `ON CONFLICT DO NOTHING`, counting what it inserted.
    private func insertEvents(_ admitted: AdmittedBatch, user id: Int64, from first: Int64,
                              _ connection: PostgresConnection) async throws -> Int {
        let count = admitted.eventCount
        var devices: [Int64] = [], seqs: [Int64] = [], kinds: [Int16] = [], hlcs: [Int64] = []
        var offsets: [Int32] = [], lengths: [Int32] = []
        devices.reserveCapacity(count); seqs.reserveCapacity(count); kinds.reserveCapacity(count)
        hlcs.reserveCapacity(count); offsets.reserveCapacity(count); lengths.reserveCapacity(count)
        var records = ByteBuffer(), digests = ByteBuffer()
        records.reserveCapacity(admitted.appendedSize.bytes)
        digests.reserveCapacity(count * 16)
        // The admitted records' own bytes (the canonical encoding a row stores), not re-encoded.
        admitted.forEachEvent { view in
            let encoded = UnsafeRawBufferPointer(start: view.base, count: view.length)
            devices.append(PostgresRecord.key(view.device))
            seqs.append(Int64(view.seq))
            kinds.append(Int16(encoded[0]))
            hlcs.append(PostgresRecord.key(view.hlc))
            offsets.append(Int32(records.writerIndex))
            lengths.append(Int32(view.length))
            records.writeBytes(encoded)
            PostgresRecord.writeDigest(of: encoded, to: &digests)
        }
        func insert(_ onConflict: String) -> PostgresQuery {
            """
            WITH inserted AS (
                INSERT INTO events (device, seq, user_id, position, kind, hlc, record, digest)
                SELECT d, s, \(id), \(first) + n - 1, k, h, record, encode(substring(\(digests)::bytea FROM (n * 16 - 15)::integer FOR 16), 'hex')
                FROM (SELECT d, s, k, h, n, substring(\(records)::bytea FROM o + 1 FOR l) AS record
                      FROM unnest(\(devices)::bigint[], \(seqs)::bigint[], \(kinds)::smallint[], \(hlcs)::bigint[],
                                  \(offsets)::integer[], \(lengths)::integer[]) WITH ORDINALITY AS v(d, s, k, h, o, l, n)) AS cut
                \(unescaped: onConflict) RETURNING 1)
            SELECT count(*) FROM inserted
            """
        }
        try await connection.query("SAVEPOINT push_events", logger: logger)
        do {
            // Read to its end: the key's refusal may come after the answer began.
            for try await _ in try await connection.query(insert(""), logger: logger).decode(Int64.self) {}
            return 0
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {  // unique_violation
            try await connection.query("ROLLBACK TO SAVEPOINT push_events", logger: logger)
        }
        var inserted = 0
        for try await rows in try await connection.query(insert("ON CONFLICT (device, seq) DO NOTHING"), logger: logger)
            .decode(Int64.self) { inserted = Int(rows) }
        // Another instance inserted some of these ids first: the user's rows at positions
        // outside this push's, each of which must be this very record.
        var pushed: [EventID: String] = [:]
        admitted.forEachEvent { view in
            pushed[view.eventID] = EventDigest.hex(UnsafeRawBufferPointer(start: view.base, count: view.length))
        }
        var duplicates = 0
        for try await (device, seq, digest) in try await connection.query("""
            SELECT e.device, e.seq, e.digest FROM events e
            JOIN unnest(\(devices)::bigint[], \(seqs)::bigint[]) AS v(d, s) ON e.device = v.d AND e.seq = v.s
            WHERE e.user_id + 0 = \(id) AND (e.position < \(first) OR e.position >= \(first + Int64(count)))
            """, logger: logger).decode((Int64, Int64, String).self) {
            let eventID = EventID(device: PostgresRecord.device(device), seq: UInt64(seq))
            guard pushed[eventID] == digest else { throw RecordChecks.differs(eventID) }
            pushed[eventID] = nil
            duplicates += 1
        }
        guard duplicates == count - inserted else {
            // What the key refused is not among the user's rows: not the user's version of it.
            var held = Set<EventID>()
            for try await (device, seq) in try await connection.query("""
                SELECT e.device, e.seq FROM events e JOIN unnest(\(devices)::bigint[], \(seqs)::bigint[]) AS v(d, s)
                  ON e.device = v.d AND e.seq = v.s
                WHERE e.user_id + 0 = \(id) AND e.position >= \(first) AND e.position < \(first + Int64(count))
                """, logger: logger).decode((Int64, Int64).self) {
                held.insert(EventID(device: PostgresRecord.device(device), seq: UInt64(seq)))
            }
            guard let refused = pushed.keys.filter({ !held.contains($0) }).min() ?? pushed.keys.min() else {
                throw SyncServerError(.unavailable, "the database inserted \(inserted) of \(count) events; nothing was written, retry the push")
            }
            throw RecordChecks.differs(refused)
        }
        return duplicates
    }

    /// The digest of the user's event `id`, or nil when the user holds no such event. Only the
    /// user's own rows are looked at (a pull's fork check must not reveal another user's
    /// devices), and a seq beyond the `bigint` range (the API allows up to 2^64 − 1) is simply
    /// not held: no stored seq exceeds 2^63 − 1.
    static func storedDigest(_ id: EventID, user: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws -> String? {
        guard let seq = Int64(exactly: id.seq) else { return nil }
        // `user_id + 0`: found by the primary key, never by the user's position index, which a
        // planner whose statistics predate a large push may choose (and walk a million rows).
        // Every lookup by (device, seq) writes its user condition so (Schemas/server-store.md).
        let rows = try await connection.query(
            "SELECT digest FROM events WHERE device = \(PostgresRecord.key(id.device)) AND seq = \(seq) AND user_id + 0 = \(user)", logger: logger)
        for try await digest in rows.decode(String.self) { return digest }
        return nil
    }
}
