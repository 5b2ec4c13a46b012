import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

extension PostgresStore {
    /// The one admission (`MergeAdmission`) against rows instead of a ledger: pushed copies of
    /// held ids are compared with the rows (by fingerprint of the stored record) first, then the
    /// admission's checks run, in the same order and words as on the files store.
    func prepare(_ incoming: EncodedRecords, held: [DeviceID: UInt64], storedNames: [DeviceID: DeviceNameRecord],
                 now: Int64, user: String, userID: Int64, _ connection: PostgresConnection) async throws -> AdmittedBatch {
        var admission = MergeAdmission(into: .init(held: held, deviceNames: storedNames, now: now),
                                       options: .acceptingPush(stations: stations, now: now))
        try incoming.forEach { try admission.receive($0) }
        try await compareHeld(admission, user: user, userID: userID, connection)
        return try admission.admit()
    }

    /// Compares pushed copies of held ids with the rows; a row whose own bytes no longer match
    /// its digest is damage, answered 503.
    private func compareHeld(_ admission: MergeAdmission, user: String, userID: Int64, _ connection: PostgresConnection) async throws {
        let ids = admission.heldIDs
        guard !ids.isEmpty else { return }
        let rows = try await connection.query("""
            SELECT e.device, e.seq, e.record, e.digest FROM events e
            JOIN unnest(\(ids.map { PostgresRecord.key($0.device) })::bigint[], \(ids.map { Int64(clamping: $0.seq) })::bigint[]) AS v(d, s)
              ON e.device = v.d AND e.seq = v.s AND e.user_id + 0 = \(userID)
            """, logger: logger)
        var found = Set<EventID>()
        for try await (device, seq, bytes, digest) in rows.decode((Int64, Int64, ByteBuffer, String).self) {
            let id = EventID(device: PostgresRecord.device(device), seq: UInt64(seq))
            try Self.checkRow(user: user, table: "events", id: id, bytes: bytes, digest: digest)
            try bytes.withUnsafeReadableBytes { try admission.checkStored(id, encoded: $0) }
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
