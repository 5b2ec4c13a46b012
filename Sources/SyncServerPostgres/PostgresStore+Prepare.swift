import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

extension PostgresStore {
    /// The one admission (`MergeAdmission`) against rows instead of a ledger: pushed copies of
    /// held ids are compared with the stored records first, then the admission's checks run, in
    /// the same order and words as on the files store.
    func prepare(_ incoming: EncodedRecords, held: [DeviceID: UInt64], storedNames: [DeviceID: DeviceNameRecord],
                 now: Int64, user: String, userID: Int64, _ connection: PostgresConnection) async throws -> AdmittedBatch {
        var admission = MergeAdmission(into: .init(held: held, deviceNames: storedNames, now: now),
                                       options: .acceptingPush(stations: stations, now: now))
        try incoming.forEach { try admission.receive($0) }
        try await compareHeld(admission, user: user, userID: userID, connection)
        var admitted = try admission.admit()
        admitted.keepFrames(of: incoming)
        return admitted
    }

    /// Compares pushed copies of held ids with the stored records; a frame that does not decode
    /// is damage, answered 503, and so is a held id no run names.
    private func compareHeld(_ admission: MergeAdmission, user: String, userID: Int64, _ connection: PostgresConnection) async throws {
        let ids = admission.heldIDs
        guard !ids.isEmpty else { return }
        let stored = try await Self.storedRecords(ids, user: userID, userName: user, connection, logger)
        for id in ids {
            guard let bytes = stored[id] else {
                throw Self.damaged(user: user, table: "event_runs", id: id, "an event below the device's highest seq is missing")
            }
            try bytes.withUnsafeBytes { try admission.checkStored(id, encoded: $0) }
        }
    }

    static func damaged(user: String, table: String, id: EventID, _ why: String) -> SyncServerError {
        let detail = "table \(table), device \(id.device) seq \(id.seq): \(why)"
        return SyncServerError.damaged(damageMessage(user: user, detail), detail: detail)
    }

    /// The 503's sentence for a user whose rows are damaged.
    static func damageMessage(user: String, _ detail: String) -> String {
        "the server's stored events of user '\(user)' are damaged (\(detail)); the operator must run `oritsubushi server verify` and `server repair`; other users are served"
    }
}
