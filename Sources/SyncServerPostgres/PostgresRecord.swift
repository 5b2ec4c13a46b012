import LedgerCore
import LedgerSync
import NIOCore

/// One record as a row stores it: the canonical record encoding (Schemas/segment-format.md §4)
/// in `record`, its `EventDigest` in `digest`, and signed bigints for the unsigned ids.
enum PostgresRecord {
    static func bytes(_ record: LedgerRecord) -> ByteBuffer {
        var encoder = RecordEncoder()
        encoder.append(record)
        return ByteBuffer(bytes: encoder.bytes)
    }

    /// Appends the 16 bytes of the `EventDigest` of `bytes` (its hex is the `digest` column),
    /// for batches whose digests the database encodes or decodes in SQL.
    static func writeDigest(of bytes: UnsafeRawBufferPointer, to buffer: inout ByteBuffer) {
        let value = EventDigest.value(bytes)
        buffer.writeInteger(value.high)
        buffer.writeInteger(value.low)
    }

    static func digest(_ bytes: ByteBuffer) -> String {
        Array(bytes.readableBytesView).withUnsafeBytes { EventDigest.hex($0) }
    }

    /// Calls `body` with the one record the bytes hold, validated as a segment reader validates it.
    static func withRecord(in bytes: ByteBuffer, _ body: (RecordView) -> Void) throws {
        let count = try bytes.withUnsafeReadableBytes { raw -> Int in
            var count = 0
            try RecordStream.forEach(in: raw) { (_: RecordView) throws -> RecordIteration in
                count += 1
                return .continue
            }
            return count
        }
        guard count == 1 else { throw LedgerError(.corruption, "a row holds \(count) records, not one") }
        bytes.withUnsafeReadableBytes { raw in body(RecordView(validated: raw.baseAddress!, length: raw.count)) }
    }

    /// The one record the bytes hold, validated as a segment reader validates it.
    static func decode(_ bytes: ByteBuffer) throws -> LedgerRecord {
        let array = Array(bytes.readableBytesView)
        var result: LedgerRecord?
        var count = 0
        _ = try array.withUnsafeBytes { raw in
            try RecordStream.forEach(in: raw) { (view: RecordView) throws -> RecordIteration in
                result = view.record
                count += 1
                return .continue
            }
        }
        guard count == 1, let result else { throw LedgerError(.corruption, "a row holds \(count) records, not one") }
        return result
    }

    static func key(_ device: DeviceID) -> Int64 { Int64(bitPattern: device.rawValue) }
    static func device(_ key: Int64) -> DeviceID { DeviceID(rawValue: UInt64(bitPattern: key)) }
    static func hlc(_ value: Int64) -> HybridTimestamp { HybridTimestamp(rawValue: UInt64(bitPattern: value)) }
    static func key(_ hlc: HybridTimestamp) -> Int64 { Int64(bitPattern: hlc.rawValue) }
}
