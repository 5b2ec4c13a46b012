import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

extension PostgresStore {
    /// One transaction: the user row is locked (so one push of a user at a time, positions in
    /// order, on every instance), devices are claimed by key, `MergeAdmission` runs against what
    /// the runs and frames hold, and the admitted records are stored as frames (`PostgresFrames`).
    package func push(user: String, request: PushRequest) async throws -> PushResponse {
        try await push(user: user, records: try PushRecords.decode(request, maximum: limits.json.pushRecords))
    }

    package func push(user: String, records: EncodedRecords) async throws -> PushResponse {
        try PushRecords.check(records, maximum: limits.frames.pushRecords)
        let now = clock.nowMilliseconds()
        return try await remembersDamage(of: user) {
            do {
                return try await PostgresDeadline.serving(client, logger) { connection in
                    try await connection.transaction(logger: self.logger) { connection in
                        try await self.push(records, user: user, now: now, connection)
                    }
                }
            } catch let error as LedgerError where error.isRefusal {
                throw SyncServerError(refusedMerge: error)
            } catch let error as LedgerError where error.category == .corruption {
                throw SyncServerError.damaged(Self.damageMessage(user: user, error.message), cause: error)
            }
        }
    }

    private func push(_ records: EncodedRecords, user: String, now: Int64, _ connection: PostgresConnection) async throws -> PushResponse {
        let id = try await Self.userID(user, connection, logger, forUpdate: true, serving: true)
        var pushed = Set<DeviceID>()
        var previous: DeviceID?  // pushes hold long runs of one device: one insert a run
        records.forEach { view in
            guard view.device != previous else { return }
            previous = view.device
            pushed.insert(view.device)
        }
        let devices = pushed.sorted()
        let held = try await claim(devices, for: id, connection)
        let storedNames = try await Self.newestNames(devices, connection, logger)
        let prepared = try await prepare(records, held: held, storedNames: storedNames, now: now, user: user, userID: id, connection)
        if !limits.userSize.isOff {
            try limits.userSize.check(stored: try await storedBytes(id, connection), adding: prepared.appendedSize)
        }

        // The frames as they came when every record of them was admitted (a device's first
        // push of a long log), else the admitted records as new frames: events, then names.
        let end = try await storeFrames(user: id, userName: user, connection) { frames in
            let writer = RecordFrames.Writer()
            if let received = prepared.asReceived {
                frames.append(received, writer: writer)
            } else if !prepared.isEmpty {
                var admitted = EncodedRecords()
                prepared.forEachEvent { admitted.append($0) }
                for name in prepared.names { admitted.append(.deviceName(name)) }
                frames.append(admitted, writer: writer)
            }
        }
        var last: [Int64: Int64] = [:]
        prepared.forEachNewest { last[PostgresRecord.key($0.device)] = Int64($0.seq) }
        try await notePush(user: id, lastSeqs: last, end: end, connection)
        let vector = try await Self.heldVector(id, connection, logger)
        return PushResponse(appended: prepared.eventCount + prepared.names.count, duplicates: prepared.duplicates,
                            serverHas: WireVersionVector.encode(vector))
    }

    /// The bytes of the user's stored frames (`--max-user-bytes`; compressed, as the files store
    /// counts its segments): a sum over the user's rows, run only when the limit is set, under
    /// the push's lock of the user row.
    func storedBytes(_ id: Int64, _ connection: PostgresConnection) async throws -> Int64 {
        var total: Int64 = 0
        for try await bytes in try await connection.query("""
            SELECT COALESCE(sum(octet_length(frame)), 0) FROM event_frames WHERE user_id = \(id)
            """, logger: logger).decode(Int64.self) { total = bytes }
        return total
    }

    /// Claims every device for the user (a device row names one owner: INSERT … ON CONFLICT DO
    /// NOTHING waits for a concurrent claim to commit) and returns the highest seq held for each.
    func claim(_ devices: [DeviceID], for id: Int64, _ connection: PostgresConnection) async throws -> [DeviceID: UInt64] {
        let keys = devices.map(PostgresRecord.key)
        try await connection.query("""
            INSERT INTO devices (device, user_id) SELECT d, \(id) FROM unnest(\(keys)::bigint[]) AS d ORDER BY d
            ON CONFLICT (device) DO NOTHING
            """, logger: logger)
        var held: [DeviceID: UInt64] = [:]
        var foreign: [DeviceID] = []
        // What is held is what the runs hold (the last run of a device ends at its highest seq).
        for try await (device, owner, seq) in try await connection.query("""
            SELECT d.device, d.user_id, COALESCE((SELECT r.last_seq FROM event_runs r WHERE r.device = d.device
                                                  ORDER BY r.first_seq DESC LIMIT 1), 0)
            FROM devices d WHERE d.device = ANY(\(keys))
            """, logger: logger).decode((Int64, Int64, Int64).self) {
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
}
