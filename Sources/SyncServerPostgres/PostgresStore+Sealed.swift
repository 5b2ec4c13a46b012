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
            try await forEachStoredSealed(positions, user: id, userName: user, connection) { stored in
                found.insert(EventID(device: stored.device, seq: stored.seq))
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
        var position: Int64 = 0
        for try await next in try await connection.query(
            "SELECT next_position FROM users WHERE id = \(id)", logger: logger).decode(Int64.self) { position = next }
        var frames = PostgresFrames(from: position)
        frames.append(batch, writer: RecordFrames.Writer())
        try await frames.insert(user: id, connection, logger)
        var last: [Int64: Int64] = [:]
        for event in admitted.events { last[PostgresRecord.key(event.device)] = Int64(event.seq) }
        if !last.isEmpty {
            let keys = Array(last.keys).sorted()
            try await connection.query("""
                UPDATE devices SET last_seq = v.seq FROM unnest(\(keys)::bigint[], \(keys.map { last[$0]! })::bigint[]) AS v(device, seq)
                WHERE devices.device = v.device
                """, logger: logger)
        }
        try await connection.query(
            "UPDATE users SET next_position = \(frames.end), last_push = \(clock.nowMilliseconds()) WHERE id = \(id)", logger: logger)
        return PushResponse(appended: batch.count, duplicates: admitted.duplicates,
                            serverHas: WireVersionVector.encode(try await Self.heldVector(id, connection, logger)))
    }

    /// The account's current key epoch; nil for a plaintext account.
    func keyEpoch(_ id: Int64, _ connection: PostgresConnection) async throws -> UInt32? {
        var epoch: Int32?
        for try await value in try await connection.query("SELECT key_epoch FROM users WHERE id = \(id)", logger: logger)
            .decode(Int32?.self) { epoch = value }
        return epoch.map { UInt32($0) }
    }

    /// The stored sealed event at `wanted[device]` for every device that holds it: its digest
    /// and epoch, for the device to compare (§11 "Fork detection on pulls").
    private func sealedDigests(at wanted: [DeviceID: UInt64], user: String, id: Int64,
                               _ connection: PostgresConnection) async throws -> [String: SealedPullResponse.StoredDigest] {
        let ids = wanted.filter { $0.value > 0 }.map { EventID(device: $0.key, seq: $0.value) }
        var digests: [String: SealedPullResponse.StoredDigest] = [:]
        try await forEachStoredSealed(try await Self.framePositions(ids, user: id, connection, logger), user: id, userName: user,
                                      connection) { view in
            digests[view.device.description] = .init(digest: EventDigest.hex(view), epoch: view.epoch)
        }
        return digests
    }

    /// `forEachStored` for sealed events: each frame read once and decoded with every checksum
    /// and §3.6 checked; a frame that does not decode is damage (503).
    private func forEachStoredSealed(_ positions: [EventID: Int64], user: Int64, userName: String, _ connection: PostgresConnection,
                                     _ body: (SealedRecordView) throws -> Void) async throws {
        guard !positions.isEmpty else { return }
        var wanted: [Int64: [EventID]] = [:]
        for (id, frame) in positions { wanted[frame, default: []].append(id) }
        let rows = try await connection.query("""
            SELECT first_position, count, frame FROM event_frames
            WHERE user_id = \(user) AND first_position = ANY(\(Array(wanted.keys)))
            """, logger: logger)
        let reader = RecordFrames.Reader()
        for try await (first, count, frame) in rows.decode((Int64, Int32, ByteBuffer).self) {
            let ids = wanted[first] ?? []
            try frame.withUnsafeReadableBytes { stored in
                let decoded = try Self.decode(stored, reader, user: userName, first: first, count: count, records: .sealed)
                try SealedRecordStream.forEach(in: decoded.records) { view in
                    guard view.kind == .event, ids.contains(where: { $0.seq == view.seq && $0.device == view.device }) else { return }
                    try body(view)
                }
            }
        }
    }
}
