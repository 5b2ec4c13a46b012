import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

/// `server export` and `server repair` on PostgreSQL.
extension PostgresStore {
    /// A new ledger directory holding the user's records in position order (`LedgerExport`); a damaged row refuses the export (exit 65).
    package func export(user: String, to directory: String, now: Int64) async throws -> Int {
        guard let (id, name) = try await userRows(user).first else { return 0 }
        var records: [LedgerRecord] = []
        let rows = try await client.query("""
            SELECT position, device, seq, record, digest FROM events WHERE user_id = \(id)
            UNION ALL SELECT position, device, 0, record, digest FROM device_names WHERE user_id = \(id)
            ORDER BY position
            """, logger: logger)
        for try await (_, device, seq, bytes, digest) in rows.decode((Int64, Int64, Int64, ByteBuffer, String).self) {
            let eventID = EventID(device: PostgresRecord.device(device), seq: UInt64(seq))
            guard PostgresRecord.digest(bytes) == digest, let record = try? PostgresRecord.decode(bytes) else {
                throw LedgerError(.corruption, "cannot export user '\(name)': the row of event \(eventID) in table \(seq > 0 ? "events" : "device_names") does not match its digest; run `oritsubushi server verify` and `server repair` first")
            }
            records.append(record)
        }
        return try LedgerExport.write(records, to: directory, deviceName: "export of \(name)", clock: clock)
    }

    /// Replaces the user's damaged rows (bytes that do not match their digest) and missing seqs
    /// from the replicas' events, in one transaction under the user row's lock (safe while
    /// `serve` runs). The damaged rows are first copied to `quarantine_events`. If no replica
    /// holds an event needed, nothing changes and the refusal names them; with `--accept-loss`
    /// that event and its device's later rows are given up instead (moved to the quarantine
    /// too, `LostEvents`). A replica holding another version of an event is always refused.
    package func repair(_ request: StoreRepairRequest, now: Int64) async throws -> StoreRepairReport {
        guard let (id, name) = try await userRows(request.user).first else { return StoreRepairReport(quarantine: nil, moved: [], restoredEvents: 0) }
        let scan = try await scan(id, name)
        var needed = Set(scan.unreadable.keys).union(scan.missing)
        guard !needed.isEmpty else {
            try await recordDamage(id, nil)  // sound: a flag left by an earlier finding is stale
            return StoreRepairReport(quarantine: nil, moved: [], restoredEvents: 0)
        }
        let found = try Self.events(needed, in: request.replicas, clock: clock)
        let lacking = needed.filter { found[$0] == nil }
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
        for (eventID, digests) in scan.unreadable where !lost.cuts(eventID) {
            let theirs = EventDigest.hex(found[eventID]!)
            guard theirs == digests.recorded || theirs == digests.actual else {
                throw LedgerError(.conflict, "a replica holds another version of event \(eventID) than the server recorded (a copied or forged ledger); nothing was changed")
            }
        }
        guard request.loss != .plan else {
            return StoreRepairReport(quarantine: nil, moved: [], restoredEvents: needed.count, lost: lost, applied: false)
        }
        let bad = scan.unreadable.keys.sorted()
        let cuts = lost.ranges.mapValues(\.lowerBound).sorted { $0.key < $1.key }
        try await client.transaction(logger: logger) { connection in
            _ = try await Self.userID(name, connection, logger, forUpdate: true)
            let devices = bad.map { PostgresRecord.key($0.device) }, seqs = bad.map { Int64($0.seq) }
            let cutDevices = cuts.map { PostgresRecord.key($0.key) }, cutSeqs = cuts.map { Int64(clamping: $0.value) }
            try await connection.query("""
                WITH moved AS (
                    DELETE FROM events e
                    WHERE e.user_id = \(id) AND (
                        (e.device, e.seq) IN (SELECT d, s FROM unnest(\(devices)::bigint[], \(seqs)::bigint[]) AS v(d, s))
                        OR EXISTS (SELECT 1 FROM unnest(\(cutDevices)::bigint[], \(cutSeqs)::bigint[]) AS c(d, s)
                                   WHERE e.device = c.d AND e.seq >= c.s))
                    RETURNING e.*)
                INSERT INTO quarantine_events (user_id, quarantined, device, seq, position, kind, hlc, record, digest)
                SELECT user_id, \(now), device, seq, position, kind, hlc, record, digest FROM moved
                """, logger: logger)
            if !cuts.isEmpty {
                try await connection.query("""
                    UPDATE devices SET last_seq = c.s - 1 FROM unnest(\(cutDevices)::bigint[], \(cutSeqs)::bigint[]) AS c(d, s)
                    WHERE devices.device = c.d AND devices.user_id = \(id)
                    """, logger: logger)
            }
            var next: Int64 = 0
            for try await value in try await connection.query(
                "SELECT next_position FROM users WHERE id = \(id)", logger: logger).decode(Int64.self) { next = value }
            // A replaced row keeps its position; a missing one is appended after the last.
            var positions: [EventID: Int64] = [:]
            for try await (device, seq, position) in try await connection.query("""
                SELECT device, seq, position FROM quarantine_events WHERE user_id = \(id) AND quarantined = \(now)
                """, logger: logger).decode((Int64, Int64, Int64).self) {
                positions[EventID(device: PostgresRecord.device(device), seq: UInt64(seq))] = position
            }
            for eventID in needed.sorted() {
                let record = found[eventID]!
                let bytes = PostgresRecord.bytes(record)
                let position = positions[eventID] ?? next
                if positions[eventID] == nil { next += 1 }
                try await connection.query("""
                    INSERT INTO events (device, seq, user_id, position, kind, hlc, record, digest)
                    VALUES (\(PostgresRecord.key(eventID.device)), \(Int64(eventID.seq)), \(id), \(position),
                            \(Int16(bytes.getInteger(at: bytes.readerIndex, as: UInt8.self)!)), \(PostgresRecord.key(record.hlc)),
                            \(bytes), \(PostgresRecord.digest(bytes)))
                    """, logger: logger)
            }
            try await connection.query("UPDATE users SET next_position = \(next), damage = NULL WHERE id = \(id)", logger: logger)
        }
        let quarantined = !scan.unreadable.isEmpty || !lost.isEmpty
        return StoreRepairReport(quarantine: quarantined ? "quarantine_events" : nil,
                                 moved: bad.map { "events \($0)" }, restoredEvents: needed.count, lost: lost)
    }

    /// The events of `ids` that the replicas hold; one event held in two versions is refused.
    private static func events(_ ids: Set<EventID>, in replicas: [String], clock: any WallClock) throws -> [EventID: LedgerRecord] {
        var found: [EventID: LedgerRecord] = [:]
        for replica in replicas {
            let source = try Ledger.open(directory: replica, clock: clock)
            defer { source.close() }
            try source.forEachRecord { view, _ in
                guard view.hasEventID, ids.contains(view.eventID) else { return }
                if let other = found[view.eventID], other != view.record {
                    throw LedgerError(.conflict, "the replicas hold two versions of event \(view.eventID) (\(replica) differs); nothing was changed")
                }
                found[view.eventID] = view.record
            }
        }
        return found
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
