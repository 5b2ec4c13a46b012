import LedgerCore
import LedgerSync
import PostgresNIO
import SyncServer

/// Turning a plaintext account encrypted on PostgreSQL (Schemas/encryption.md §9): the sealed
/// copy is staged in `conversion_records`, a record a row, admitted as a sealed push is, while
/// the plaintext frames keep serving; the upload that completes it swaps the plaintext frames for
/// the sealed ones in its own transaction (the user row locked), so a crash leaves either the
/// plaintext account, its staged rows kept for the next upload, or the encrypted one.
extension PostgresStore {
    package func convert(user: String, fingerprint: String, records: SealedRecords) async throws -> ConversionAnswer {
        try PushRecords.checkCount(records.count, maximum: limits.frames.pushRecords)
        return try await remembersDamage(of: user) {
            do {
                return try await PostgresDeadline.serving(client, logger) { connection in
                    try await connection.transaction(logger: self.logger) { connection in
                        try await self.convert(records, fingerprint: fingerprint, user: user, connection)
                    }
                }
            } catch let error as LedgerError where error.isRefusal {
                throw SyncServerError(refusedMerge: error)
            }
        }
    }

    private func convert(_ records: SealedRecords, fingerprint: String, user: String,
                         _ connection: PostgresConnection) async throws -> ConversionAnswer {
        let id = try await Self.userID(user, connection, logger, forUpdate: true, serving: true)
        var state: (epoch: Int32?, key: String?, converting: String?) = (nil, nil, nil)
        for try await row in try await connection.query(
            "SELECT key_epoch, key_fingerprint, converting_fingerprint FROM users WHERE id = \(id)", logger: logger)
            .decode((Int32?, String?, String?).self) { state = row }
        let held = try await Self.heldVector(id, connection, logger)
        if state.epoch != nil {
            guard state.key == fingerprint else {
                throw SyncServerError(.conflict, "this account is end-to-end encrypted already, with another key: get it with a link from one of your devices or with the recovery kit")
            }
            return ConversionAnswer(encrypted: true, sealedHas: WireVersionVector.encode(held), serverHas: WireVersionVector.encode(held))
        }
        if let converting = state.converting, converting != fingerprint {
            throw SyncServerError(.conflict, "another device is turning encryption on for this account with another key: get that key with a link from it, or wait until it has finished")
        }
        if state.converting == nil {
            try await connection.query("UPDATE users SET converting_fingerprint = \(fingerprint) WHERE id = \(id)", logger: logger)
        }
        var pushed = Set<DeviceID>()
        records.forEach { pushed.insert($0.device) }
        _ = try await claim(pushed.sorted(), for: id, connection)
        var staged = try await stagedVector(id, connection)
        var names = Set<UInt64>()
        for try await print in try await connection.query(
            "SELECT fingerprint FROM conversion_records WHERE user_id = \(id) AND seq = 0", logger: logger).decode(Int64.self) {
            names.insert(UInt64(bitPattern: print))
        }
        var admission = SealedAdmission(into: .init(epoch: 1, held: staged, names: names))
        try records.forEach { try admission.receive($0) }
        for stored in try await stagedRecords(admission.heldIDs, user: id, connection) {
            try stored.withUnsafeBytes { bytes in
                try SealedRecordStream.forEach(in: bytes) { try admission.checkStored($0) }
            }
        }
        let admitted = try admission.admit()
        for record in admitted.events + admitted.names {
            var bytes = ByteBuffer()
            bytes.writeBytes(record.recordBytes)
            let print = record.kind == .name ? Int64(bitPattern: record.recordBytes.withUnsafeBytes { RecordFingerprint.of($0) }) : 0
            try await connection.query("""
                INSERT INTO conversion_records (user_id, device, seq, fingerprint, record)
                VALUES (\(id), \(PostgresRecord.key(record.device)), \(Int64(record.seq)), \(print), \(bytes))
                """, logger: logger)
            if record.kind.holdsEvents { staged[record.device] = max(staged[record.device] ?? 0, record.seq) }
        }
        guard held.allSatisfy({ staged[$0.key] ?? 0 >= $0.value }) else {
            return ConversionAnswer(encrypted: false, sealedHas: WireVersionVector.encode(staged), serverHas: WireVersionVector.encode(held))
        }
        try await swap(id, user: user, fingerprint: fingerprint, connection)
        return ConversionAnswer(encrypted: true, sealedHas: WireVersionVector.encode(staged), serverHas: WireVersionVector.encode(held))
    }

    /// Replaces the user's plaintext frames by the staged sealed records (events in (device,
    /// seq) order, then names), at positions after every position used so far, and marks the
    /// account encrypted at epoch 1: one statement list in the caller's transaction.
    private func swap(_ id: Int64, user: String, fingerprint: String, _ connection: PostgresConnection) async throws {
        var sealed = SealedRecords()
        for try await bytes in try await connection.query("""
            SELECT record FROM conversion_records WHERE user_id = \(id) ORDER BY (seq = 0), device, seq, fingerprint
            """, logger: logger).decode(ByteBuffer.self) {
            let record = Array(bytes.readableBytesView)
            try record.withUnsafeBytes { raw in try SealedRecordStream.forEach(in: raw) { sealed.append($0) } }
        }
        for table in ["event_runs", "event_frames", "device_names", "catalog_versions"] {
            try await connection.query(PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE user_id = \(id)"), logger: logger)
        }
        let end = try await storeFrames(user: id, userName: user, connection) { $0.append(sealed, writer: RecordFrames.Writer()) }
        try await connection.query("""
            UPDATE users SET next_position = \(end), key_epoch = 1, key_fingerprint = \(fingerprint), converting_fingerprint = NULL
            WHERE id = \(id)
            """, logger: logger)
        try await connection.query("DELETE FROM conversion_records WHERE user_id = \(id)", logger: logger)
        // An encrypted account keeps no device name in the clear (encryption.md §8, "Device names").
        try await connection.query("UPDATE tokens SET device_name = NULL WHERE user_id = \(id) AND device_name NOT LIKE 'sealed:%'", logger: logger)
        try await connection.query("UPDATE pairing_codes SET device_name = NULL WHERE user_id = \(id)", logger: logger)
    }

    /// The highest staged seq of each device.
    private func stagedVector(_ id: Int64, _ connection: PostgresConnection) async throws -> [DeviceID: UInt64] {
        var vector: [DeviceID: UInt64] = [:]
        for try await (device, seq) in try await connection.query(
            "SELECT device, max(seq) FROM conversion_records WHERE user_id = \(id) AND seq > 0 GROUP BY device", logger: logger)
            .decode((Int64, Int64).self) { vector[PostgresRecord.device(device)] = UInt64(seq) }
        return vector
    }

    /// The staged records of `ids` (held copies a new upload brings again).
    private func stagedRecords(_ ids: [EventID], user id: Int64, _ connection: PostgresConnection) async throws -> [[UInt8]] {
        guard !ids.isEmpty else { return [] }
        var found: [[UInt8]] = []
        for try await bytes in try await connection.query("""
            SELECT c.record FROM unnest(\(ids.map { PostgresRecord.key($0.device) })::bigint[], \(ids.map { Int64($0.seq) })::bigint[]) AS v(d, s)
            JOIN conversion_records c ON c.user_id = \(id) AND c.device = v.d AND c.seq = v.s
            """, logger: logger).decode(ByteBuffer.self) { found.append(Array(bytes.readableBytesView)) }
        return found
    }
}
