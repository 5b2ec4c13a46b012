import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

/// An end-to-end encrypted account's log in PostgreSQL (Schemas/encryption.md §11): its sealed
/// records kept in `event_frames` and `event_runs` exactly as a plaintext account's (the runs
/// from the clear device and seq), its sealed device names in `sealed_names` once per sealed
/// form, admitted by `SealedAdmission` under the user row's lock, without the key.
extension PostgresStore {
    package func pushSealed(user: String, records: SealedRecords) async throws -> PushResponse {
        try PushRecords.checkCount(records.count, maximum: limits.frames.pushRecords)
        return try await remembersDamage(of: user) {
            do {
                return try await PostgresDeadline.serving(client, logger) { connection in
                    try await connection.transaction(logger: self.logger) { connection in
                        try await self.pushSealed(records, user: user, connection)
                    }
                }
            } catch let error as LedgerError where error.isRefusal {
                throw SyncServerError(refusedMerge: error)
            }
        }
    }

    package func pullSealed(user: String, request: PullRequest) async throws -> SealedPullAnswer {
        let first = try SealedPullPage(request, have: try ForkCheck.decodeHave(request), limits: limits.pages(.frames))
        return try await remembersDamage(of: user) {
            try await PostgresDeadline.serving(client, logger) { connection in
                var page = first
                let id = try await Self.userID(user, connection, self.logger, serving: true)
                guard try await self.keyEpoch(id, connection) != nil else { throw SyncServerError.plaintextAccount }
                do {
                    try await self.fill(&page, id: id, user: user, records: .sealed, connection)
                    let held = try await Self.heldVector(id, connection, self.logger)
                    let haveChecks = try await self.sealedDigests(at: page.have, user: user, id: id, connection)
                    let serverDigests = try await self.sealedDigests(at: held, user: user, id: id, connection)
                    try await connection.query("UPDATE users SET last_pull = \(self.clock.nowMilliseconds()) WHERE id = \(id)", logger: self.logger)
                    return SealedPullAnswer(records: page.records, page: SealedPullResponse(
                        more: page.more, cursor: page.cursor, serverHas: WireVersionVector.encode(held), haveChecks: haveChecks,
                        serverDigests: serverDigests))
                } catch let error as SyncServerError where error.kind == .unavailable {
                    try? await self.recordDamage(id, error.message)
                    throw error
                }
            }
        }
    }

    private func pushSealed(_ records: SealedRecords, user: String, _ connection: PostgresConnection) async throws -> PushResponse {
        let id = try await Self.userID(user, connection, logger, forUpdate: true, serving: true)
        guard let epoch = try await keyEpoch(id, connection) else { throw SyncServerError.plaintextAccount }
        var pushed = Set<DeviceID>()
        records.forEach { pushed.insert($0.device) }
        let held = try await claim(pushed.sorted(), for: id, connection)
        var names = Set<UInt64>()
        for try await print in try await connection.query(
            "SELECT fingerprint FROM sealed_names WHERE user_id = \(id)", logger: logger).decode(Int64.self) {
            names.insert(UInt64(bitPattern: print))
        }
        var admission = SealedAdmission(into: .init(epoch: epoch, held: held, names: names))
        try records.forEach { try admission.receive($0) }
        if !admission.heldIDs.isEmpty {
            var found = Set<EventID>()
            let positions = try await Self.framePositions(admission.heldIDs, user: id, connection, logger)
            let wanted = admission.heldIDs
            try await Self.forEachStoredSealed(positions, user: id, userName: user, connection, logger) { stored in
                for id in wanted where id.device == stored.device && stored.holds(seq: id.seq) { found.insert(id) }
                try admission.checkStored(stored)
            }
            if let missing = admission.heldIDs.first(where: { !found.contains($0) }) {
                throw Self.damaged(user: user, table: "event_runs", id: missing, "an event below the device's highest seq is missing")
            }
        }
        let admitted = try admission.admit()
        let batch = admitted.batch(received: records)
        if !limits.userSize.isOff {
            try limits.userSize.check(stored: try await storedBytes(id, connection), adding: (records: batch.count, bytes: batch.bytes.count))
        }
        let end = try await storeFrames(user: id, userName: user, connection) { $0.append(batch, writer: RecordFrames.Writer()) }
        var last: [Int64: Int64] = [:]
        for event in admitted.events { last[PostgresRecord.key(event.device)] = max(last[PostgresRecord.key(event.device)] ?? 0, Int64(event.seq)) }
        try await notePush(user: id, lastSeqs: last, end: end, connection)
        return PushResponse(appended: admitted.appendedCount, duplicates: admitted.duplicates,
                            serverHas: WireVersionVector.encode(try await Self.heldVector(id, connection, logger)))
    }

    /// The account's current key epoch; nil for a plaintext account.
    func keyEpoch(_ id: Int64, _ connection: PostgresConnection) async throws -> UInt32? {
        var epoch: Int32?
        for try await value in try await connection.query("SELECT key_epoch FROM users WHERE id = \(id)", logger: logger)
            .decode(Int32?.self) { epoch = value }
        return epoch.map { UInt32($0) }
    }

    /// The stored sealed record holding the event `wanted[device]`, for every device that holds
    /// it: its digest, epoch and a run's bounds, for the device to compare (§11 "Fork detection
    /// on pulls").
    private func sealedDigests(at wanted: [DeviceID: UInt64], user: String, id: Int64,
                               _ connection: PostgresConnection) async throws -> [String: SealedPullResponse.StoredDigest] {
        let ids = wanted.filter { $0.value > 0 }.map { EventID(device: $0.key, seq: $0.value) }
        var digests: [String: SealedPullResponse.StoredDigest] = [:]
        try await Self.forEachStoredSealed(try await Self.framePositions(ids, user: id, connection, logger), user: id, userName: user,
                                           connection, logger) { view in
            digests[view.device.description] = .init(of: view)
        }
        return digests
    }
}
