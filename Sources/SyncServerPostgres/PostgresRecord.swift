import LedgerCore
import LedgerSync
import NIOCore

/// One record as a `device_names` row stores it: the canonical record encoding
/// (Schemas/segment-format.md §4) in `record`, its `EventDigest` in `digest`; and signed bigints
/// for the unsigned ids in every table.
enum PostgresRecord {
    static func digest(_ bytes: ByteBuffer) -> String {
        Array(bytes.readableBytesView).withUnsafeBytes { EventDigest.hex($0) }
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
