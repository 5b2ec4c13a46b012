import LedgerCore
import LedgerSync
import Logging
import PostgresNIO

/// What `PostgresStore.repair` needs of a form of records beyond `RepairableRecord`: where the
/// device names of a damaged frame are kept again (`device_names` for plaintext records,
/// `sealed_names` for an encrypted account's, Schemas/server-store.md), how a stored frame's
/// records read, and how records become frames. One repair serves both forms.
protocol PostgresRepairRecord: RepairableRecord {
    /// The device names the table of names holds at positions `positions` of user `id`, in order.
    static func names(user id: Int64, at positions: Range<Int64>, _ connection: PostgresConnection, _ logger: Logger) async throws -> [Self]
    /// The records of a stored frame's record bytes (read by `RecordFrames.Reader` in this form).
    static func records(ofFrame records: UnsafeRawBufferPointer) throws -> [Self]
    /// Adds `records`, in order, at the next positions of `frames`.
    static func append(_ records: [Self], to frames: inout PostgresFrames)
}

extension LedgerRecord: PostgresRepairRecord {
    static func names(user id: Int64, at positions: Range<Int64>, _ connection: PostgresConnection, _ logger: Logger) async throws -> [LedgerRecord] {
        var names: [LedgerRecord] = []
        for try await bytes in try await connection.query("""
            SELECT record FROM device_names WHERE user_id = \(id) AND position >= \(positions.lowerBound) AND position < \(positions.upperBound) ORDER BY position
            """, logger: logger).decode(ByteBuffer.self) {
            if let name = try? PostgresRecord.decode(bytes) { names.append(name) }
        }
        return names
    }

    static func records(ofFrame records: UnsafeRawBufferPointer) throws -> [LedgerRecord] {
        var found: [LedgerRecord] = []
        RecordStream.forEachValidated(in: records) { found.append($0.record) }
        return found
    }

    static func append(_ records: [LedgerRecord], to frames: inout PostgresFrames) {
        var encoded = EncodedRecords()
        for record in records { encoded.append(record) }
        frames.append(encoded, writer: RecordFrames.Writer())
    }
}

extension SealedRecord: PostgresRepairRecord {
    static func names(user id: Int64, at positions: Range<Int64>, _ connection: PostgresConnection, _ logger: Logger) async throws -> [SealedRecord] {
        var names: [SealedRecord] = []
        for try await bytes in try await connection.query("""
            SELECT record FROM sealed_names WHERE user_id = \(id) AND position >= \(positions.lowerBound) AND position < \(positions.upperBound) ORDER BY position
            """, logger: logger).decode(ByteBuffer.self) {
            // Checked as §3.6 says when it was pushed; a row that no longer reads is left out.
            try? bytes.withUnsafeReadableBytes { raw in
                try SealedRecordStream.forEach(in: raw) { if $0.kind == .name { names.append(SealedRecord($0)) } }
            }
        }
        return names
    }

    static func records(ofFrame records: UnsafeRawBufferPointer) throws -> [SealedRecord] {
        var found: [SealedRecord] = []
        try SealedRecordStream.forEach(in: records) { found.append(SealedRecord($0)) }
        return found
    }

    static func append(_ records: [SealedRecord], to frames: inout PostgresFrames) {
        var sealed = SealedRecords()
        for record in records { sealed.append(record) }
        frames.append(sealed, writer: RecordFrames.Writer())
    }
}
