import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

/// `server export` and `server repair` on PostgreSQL.
extension PostgresStore {
    /// A new ledger directory holding the user's records in position order (`LedgerExport`); a
    /// frame that does not decode refuses the export (exit 65).
    package func export(user: String, to directory: String, now: Int64) async throws -> Int {
        guard let (id, name) = try await userRows(user).first else { return 0 }
        var records: [LedgerRecord] = []
        var sealed = SealedRecords()
        let form = try await recordForm(id)
        let reader = RecordFrames.Reader()
        let rows = try await client.query(
            "SELECT first_position, count, frame FROM event_frames WHERE user_id = \(id) ORDER BY first_position", logger: logger)
        for try await (first, count, stored) in rows.decode((Int64, Int32, ByteBuffer).self) {
            try stored.withUnsafeReadableBytes { bytes in
                guard let frame = try? reader.frame(bytes, records: form) else {
                    throw LedgerError(.corruption, "cannot export user '\(name)': the frame at \(PostgresFrames.span(first, Int(count))) in table event_frames cannot be read; run `oritsubushi server verify` and `server repair` first")
                }
                if form == .sealed {
                    sealed.append(validated: frame.records, count: frame.count)
                } else {
                    RecordStream.forEachValidated(in: frame.records) { records.append($0.record) }
                }
            }
        }
        if form == .sealed { return try LedgerExport.writeSealed(sealed, to: directory, ownerName: "export of \(name)", clock: clock) }
        return try LedgerExport.write(records, to: directory, deviceName: "export of \(name)", clock: clock)
    }

    /// Restores the user's damaged frames (that do not decode, or do not hold the events their
    /// runs name) and missing seqs from the replicas' events, in one transaction under the user
    /// row's lock (safe while `serve` runs). The damaged frames are first copied to
    /// `quarantine_frames`; what they held is stored again as new frames after the user's last
    /// position (a pull cursor anywhere then still meets it), the device names among it from
    /// `device_names`. If no replica holds an event needed, nothing changes and the refusal names
    /// them; with `--accept-loss` that event and its device's later events are given up instead
    /// (their frames set aside too, the rest of them stored again; `LostEvents`).
    package func repair(_ request: StoreRepairRequest, now: Int64) async throws -> StoreRepairReport {
        guard let (id, name) = try await userRows(request.user).first else { return StoreRepairReport(quarantine: nil, moved: [], restoredEvents: 0) }
        let epoch = try await client.withConnection { try await self.keyEpoch(id, $0) }
        if epoch != nil {
            // An end-to-end encrypted account: repaired from sealed replicas, without the key.
            return try await repair(request, user: id, name: name, SealedRecord.self, epoch: epoch, now: now)
        }
        return try await repair(request, user: id, name: name, LedgerRecord.self, epoch: nil, now: now)
    }

    private func repair<Record: PostgresRepairRecord>(_ request: StoreRepairRequest, user id: Int64, name: String, _ form: Record.Type,
                                                      epoch: UInt32?, now: Int64) async throws -> StoreRepairReport {
        let scan = try await scan(id, name)
        var needed = scan.unreadable.union(scan.missing)
        guard !needed.isEmpty || !scan.damagedFrames.isEmpty else {
            try await recordDamage(id, nil)  // sound: a flag left by an earlier finding is stale
            return StoreRepairReport(quarantine: nil, moved: [], restoredEvents: 0)
        }
        let found: (records: [Record], covered: Set<EventID>) = try Self.events(needed, of: name, in: request.replicas, epoch: epoch, clock: clock)
        let lacking = needed.subtracting(found.covered)
        var lost = LostEvents()
        if !lacking.isEmpty {
            guard request.loss != .refuse else {
                throw LedgerError(.badInput, "the replicas (\(request.replicas.joined(separator: ", "))) lack events user '\(name)' needs: \(Self.ranges(lacking)); nothing was changed; 'server repair \(name) --accept-loss' repairs without them")
            }
            for (device, seqs) in Dictionary(grouping: lacking, by: \.device).mapValues({ $0.map(\.seq) }) {
                lost.add(device: device, seqs: seqs.min()!...max(seqs.max()!, scan.lastSeqs[device] ?? 0))
            }
            needed = needed.filter { !lost.cuts($0) }
        }
        guard request.loss != .plan else {
            return StoreRepairReport(quarantine: nil, moved: [], restoredEvents: needed.count, lost: lost, applied: false)
        }
        // The records restoring what is needed: none reaches into what is cut.
        let restoring = found.records.filter { record in !lost.cuts(EventID(device: record.eventID!.device, seq: record.lastSeq)) }
        let cuts = lost.ranges.mapValues(\.lowerBound).sorted { $0.key < $1.key }
        let moved = try await client.transaction(logger: logger) { connection in
            _ = try await Self.userID(name, connection, logger, forUpdate: true)
            return try await self.restore(user: id, scan: scan, restoring: restoring, cuts: cuts, now: now, connection)
        }
        return StoreRepairReport(quarantine: moved.isEmpty ? nil : "quarantine_frames",
                                 moved: moved.map { "event_frames \(PostgresFrames.span($0.first, $0.count))" },
                                 restoredEvents: needed.count, lost: lost)
    }

    /// The repair's writes. The log is stored again from the first frame the repair touches (a
    /// damaged frame, a frame holding a cut event, or a frame holding a later seq of a device
    /// with a restored event), after the user's last position and in the same order: each
    /// restored event just before its device's next higher seq, the damaged frames' device names
    /// (from `device_names`) where the frame was, cut events left out. So every device's events
    /// keep their seq order in positions (a device pulling page by page needs that), and a pull
    /// cursor anywhere still meets all of it. The damaged frames and those holding cut events go
    /// to `quarantine_frames`; the runs of every frame stored again are replaced.
    private func restore<Record: PostgresRepairRecord>(user id: Int64, scan: PostgresScan, restoring: [Record], cuts: [(key: DeviceID, value: UInt64)],
                         now: Int64, _ connection: PostgresConnection) async throws -> [(first: Int64, count: Int)] {
        let cutDevices = cuts.map { PostgresRecord.key($0.key) }, cutSeqs = cuts.map { Int64(clamping: $0.value) }
        var pending = Dictionary(grouping: restoring) { $0.eventID!.device }.mapValues { $0.sorted { $0.eventID!.seq < $1.eventID!.seq } }
        var setAside = Set(scan.damagedFrames.keys)
        for try await frame in try await connection.query("""
            SELECT DISTINCT r.frame_position FROM event_runs r JOIN unnest(\(cutDevices)::bigint[], \(cutSeqs)::bigint[]) AS c(d, s)
              ON r.device = c.d AND r.last_seq >= c.s
            WHERE r.user_id = \(id)
            """, logger: logger).decode(Int64.self) { setAside.insert(frame) }
        var start = setAside.min() ?? .max
        for (device, records) in pending {
            for try await frame in try await connection.query("""
                SELECT frame_position FROM event_runs WHERE device = \(PostgresRecord.key(device)) AND user_id + 0 = \(id)
                  AND last_seq >= \(Int64(records[0].eventID!.seq)) ORDER BY first_seq LIMIT 1
                """, logger: logger).decode(Int64.self) { start = min(start, frame) }
        }
        var again: [Record] = []
        func flush(_ device: DeviceID, below seq: UInt64) {
            guard var records = pending[device] else { return }
            while let first = records.first, first.eventID!.seq < seq {
                again.append(first)
                records.removeFirst()
            }
            pending[device] = records.isEmpty ? nil : records
        }
        let cutFrom = Dictionary(uniqueKeysWithValues: cuts.map { ($0.key, $0.value) })
        var moved: [(first: Int64, count: Int)] = []
        let reader = RecordFrames.Reader()
        // Read whole before the next query: one connection answers one query at a time.
        var region: [(first: Int64, count: Int32, stored: ByteBuffer)] = []
        for try await row in try await connection.query(
            "SELECT first_position, count, frame FROM event_frames WHERE user_id = \(id) AND first_position >= \(start) ORDER BY first_position",
            logger: logger).decode((Int64, Int32, ByteBuffer).self) { region.append(row) }
        for (first, count, stored) in region {
            if setAside.contains(first) { moved.append((first, Int(count))) }
            guard scan.damagedFrames[first] == nil else {
                again += try await Record.names(user: id, at: first..<(first + Int64(count)), connection, logger)
                continue
            }
            let records = try stored.withUnsafeReadableBytes { bytes in try Record.records(ofFrame: try reader.frame(bytes, records: Record.form).records) }
            for record in records {
                guard let event = record.eventID else {
                    again.append(record)
                    continue
                }
                if let cut = cutFrom[event.device], event.seq >= cut { continue }
                flush(event.device, below: event.seq)
                again.append(record)
            }
        }
        for device in pending.keys.sorted() { flush(device, below: .max) }
        try await connection.query("""
            WITH moved AS (DELETE FROM event_frames WHERE user_id = \(id) AND first_position = ANY(\(moved.map(\.first))) RETURNING *)
            INSERT INTO quarantine_frames (user_id, quarantined, first_position, count, frame)
            SELECT user_id, \(now), first_position, count, frame FROM moved
            """, logger: logger)
        try await connection.query("DELETE FROM event_frames WHERE user_id = \(id) AND first_position >= \(start)", logger: logger)
        // The runs of the frames stored again, and those naming a frame that is gone.
        try await connection.query("""
            DELETE FROM event_runs r WHERE r.user_id = \(id) AND (r.frame_position >= \(start) OR NOT EXISTS (
                SELECT 1 FROM event_frames f WHERE f.user_id = \(id) AND f.first_position = r.frame_position))
            """, logger: logger)
        if !cuts.isEmpty {
            try await connection.query("""
                DELETE FROM catalog_versions c USING unnest(\(cutDevices)::bigint[], \(cutSeqs)::bigint[]) AS v(d, s)
                WHERE c.user_id = \(id) AND c.device = v.d AND c.seq >= v.s
                """, logger: logger)
            try await connection.query("""
                UPDATE devices SET last_seq = c.s - 1 FROM unnest(\(cutDevices)::bigint[], \(cutSeqs)::bigint[]) AS c(d, s)
                WHERE devices.device = c.d AND devices.user_id = \(id)
                """, logger: logger)
        }
        var next: Int64 = 0
        for try await value in try await connection.query(
            "SELECT next_position FROM users WHERE id = \(id)", logger: logger).decode(Int64.self) { next = value }
        var frames = PostgresFrames(from: next)
        Record.append(again, to: &frames)
        try await frames.insert(user: id, connection, logger)
        try await connection.query("UPDATE users SET next_position = \(frames.end), damage = NULL WHERE id = \(id)", logger: logger)
        return moved
    }

    /// The records of the replicas that restore `ids`, gathered by the rule of every repair
    /// (`RecordPool`: one event held in two versions is refused), each run of consecutive ids
    /// tiled by records that hold nothing else (a sealed run reaching outside them holds events
    /// stored already, Schemas/encryption.md §11), and the ids they cover. A replica of the other
    /// form than the account's, or holding records of an epoch the account does not have
    /// (`epoch`, a sealed account's current one), is refused.
    private static func events<Record: PostgresRepairRecord>(_ ids: Set<EventID>, of user: String, in replicas: [String], epoch: UInt32?,
                                                              clock: any WallClock) throws -> (records: [Record], covered: Set<EventID>) {
        var pool = RecordPool<Record>()
        for replica in replicas {
            let records = try ReplicaRecords.read(Record.self, from: replica, of: user, epoch: epoch, clock: clock) { $0.map(ids.contains) ?? false }
            try pool.add(records, from: replica)
        }
        var records: [Record] = []
        var covered = Set<EventID>()
        for (device, seqs) in Dictionary(grouping: ids, by: \.device).mapValues({ $0.map(\.seq).sorted() }).sorted(by: { $0.key < $1.key }) {
            var index = 0
            while index < seqs.count {
                var end = index
                while end + 1 < seqs.count, seqs[end + 1] == seqs[end] + 1 { end += 1 }
                // A range of consecutive ids, tiled as far as the pool holds it.
                var from = seqs[index]
                while from <= seqs[end] {
                    let (tiles, next) = pool.tiling(of: device, seqs: from...seqs[end])
                    records += tiles
                    for seq in from..<next { covered.insert(EventID(device: device, seq: seq)) }
                    from = next + 1  // past the seq no record starts at
                }
                index = end + 1
            }
        }
        return (records, covered)
    }

    /// "device D seqs 3–5, 9" for a set of ids.
    static func ranges(_ ids: Set<EventID>) -> String {
        var parts: [String] = []
        for (device, group) in Dictionary(grouping: ids, by: \.device).sorted(by: { $0.key < $1.key }) {
            var runs: [String] = []
            var start: UInt64?, previous: UInt64 = 0
            for seq in group.map(\.seq).sorted() + [UInt64.max] {
                if let first = start, seq != previous + 1 {
                    runs.append(first == previous ? "\(first)" : "\(first)–\(previous)")
                    start = nil
                }
                if start == nil { start = seq }
                previous = seq
            }
            parts.append("device \(device) seq \(runs.joined(separator: ", "))")
        }
        return parts.joined(separator: "; ")
    }
}
