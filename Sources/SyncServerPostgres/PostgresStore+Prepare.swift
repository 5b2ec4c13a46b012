import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

/// What a push appends: new events sorted by (device, seq), newer device names, and how many
/// pushed events were already held (identical).
struct PostgresPushPlan {
    var events: [LedgerRecord] = []
    var names: [DeviceNameRecord] = []
    var duplicates = 0
}

extension PostgresStore {
    /// `LedgerMerger.prepare` against rows instead of a ledger, with the same refusals in the same
    /// order: a held id with other content, one id twice with two contents, a seq gap, a clock
    /// beyond the bound, an invalid or unknown-station edit. Held ids are compared by digest.
    func prepare(_ incoming: [LedgerRecord], held: [DeviceID: UInt64], storedNames: [DeviceID: DeviceNameRecord],
                 now: Int64, user: String, userID: Int64, _ connection: PostgresConnection) async throws -> PostgresPushPlan {
        var result = PostgresPushPlan()
        var names: [DeviceID: DeviceNameRecord] = [:]
        var overlap: [EventID: String] = [:]
        var fresh: [(key: EventID, index: Int)] = []
        for (index, record) in incoming.enumerated() {
            if case .deviceName(let name) = record {
                if let other = names[name.device], other.hlc >= name.hlc { continue }
                names[name.device] = name
                continue
            }
            guard let id = record.eventID else { continue }
            if id.seq <= held[id.device] ?? 0 {
                let digest = EventDigest.hex(record)
                if let other = overlap[id], other != digest { throw RecordChecks.differs(id) }
                overlap[id] = digest
                result.duplicates += 1
                continue
            }
            fresh.append((id, index))
        }
        try await compareHeld(overlap, user: user, userID: userID, connection)

        let nameOf = { (device: DeviceID) -> String in
            if let name = names[device]?.name ?? storedNames[device]?.name { return "'\(name)' (\(device))" }
            return "\(device)"
        }
        fresh.sort { ($0.key, $0.index) < ($1.key, $1.index) }
        var events: [LedgerRecord] = []
        events.reserveCapacity(fresh.count)
        for (i, item) in fresh.enumerated() {
            if i > 0, fresh[i - 1].key == item.key {
                guard incoming[fresh[i - 1].index] == incoming[item.index] else { throw RecordChecks.differsWithin(item.key) }
                continue
            }
            events.append(incoming[item.index])
        }
        var continuity = SeqContinuity(held: held)
        let options = MergeOptions.acceptingPush(stations: stations, now: now)
        for record in events {
            let id = record.eventID!
            if let gap = continuity.accept(id) {
                throw LedgerError(.conflict, "\(gap.message(device: nameOf(id.device))); nothing was written")
            }
            try RecordChecks.checkClock(record.hlc, device: nameOf(id.device), now: now, options: options)
            try RecordChecks.checkContent(record, options: options)
        }
        result.events = events
        for name in names.values.sorted(by: { $0.device < $1.device }) {
            try RecordChecks.checkClock(name.hlc, device: nameOf(name.device), now: now, options: options)
            if let current = storedNames[name.device], current.hlc >= name.hlc { continue }
            result.names.append(name)
        }
        return result
    }

    /// Compares pushed copies of held ids with the rows (by digest); a row whose own bytes no
    /// longer match its digest is damage, answered 503.
    private func compareHeld(_ overlap: [EventID: String], user: String, userID: Int64, _ connection: PostgresConnection) async throws {
        guard !overlap.isEmpty else { return }
        let ids = overlap.keys.sorted()
        let rows = try await connection.query("""
            SELECT e.device, e.seq, e.record, e.digest FROM events e
            JOIN unnest(\(ids.map { PostgresRecord.key($0.device) })::bigint[], \(ids.map { Int64(clamping: $0.seq) })::bigint[]) AS v(d, s)
              ON e.device = v.d AND e.seq = v.s AND e.user_id = \(userID)
            """, logger: logger)
        var found = Set<EventID>()
        for try await (device, seq, bytes, digest) in rows.decode((Int64, Int64, ByteBuffer, String).self) {
            let id = EventID(device: PostgresRecord.device(device), seq: UInt64(seq))
            try Self.checkRow(user: user, table: "events", id: id, bytes: bytes, digest: digest)
            if overlap[id] != digest { throw RecordChecks.differs(id) }
            found.insert(id)
        }
        if let missing = ids.first(where: { !found.contains($0) }) {
            throw Self.damaged(user: user, table: "events", id: missing, "rows below the device's highest seq are missing")
        }
    }

    /// Throws the 503 of a damaged user when a row's bytes do not match its digest.
    static func checkRow(user: String, table: String, id: EventID, bytes: ByteBuffer, digest: String) throws {
        guard PostgresRecord.digest(bytes) == digest else {
            throw damaged(user: user, table: table, id: id, "its record does not match its digest")
        }
    }

    static func damaged(user: String, table: String, id: EventID, _ why: String) -> SyncServerError {
        SyncServerError(.unavailable, damageMessage(user: user, "table \(table), device \(id.device) seq \(id.seq): \(why)"))
    }

    /// The 503's sentence for a user whose rows are damaged.
    static func damageMessage(user: String, _ detail: String) -> String {
        "the server's stored events of user '\(user)' are damaged (\(detail)); the operator must run `oritsubushi server verify` and `server repair`; other users are served"
    }
}
