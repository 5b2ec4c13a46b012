import Crypto
import LedgerCore

/// The digest of one event as the sync protocol carries it (`have_digests`, `server_digests`,
/// Schemas/merge.md §10) and the PostgreSQL store records it: the first 16 bytes of the SHA-256 of
/// the event's canonical record encoding (Schemas/segment-format.md §4), as 32 lowercase hex
/// digits. Two replicas hold the same event under one `(device, seq)` iff the digests are equal.
package enum EventDigest {
    package static let hexLength = 32

    /// A digest as two numbers (the first 8 bytes, big-endian, then the next 8), for keeping many
    /// in memory (the files store's index holds one per stored event).
    package struct Value: Equatable, Sendable {
        package var high: UInt64
        package var low: UInt64

        package var hex: String {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(EventDigest.hexLength)
            for half in [high, low] {
                for shift in stride(from: 60, through: 0, by: -4) { text.append(digits[Int(half >> UInt64(shift) & 0x0f)]) }
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    package static func value(_ bytes: UnsafeRawBufferPointer) -> Value {
        var high: UInt64 = 0, low: UInt64 = 0
        for (index, byte) in SHA256.hash(data: bytes).prefix(hexLength / 2).enumerated() {
            if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        return Value(high: high, low: low)
    }

    package static func value(_ view: RecordView) -> Value {
        value(UnsafeRawBufferPointer(start: view.base, count: view.length))
    }

    /// The digest of a sealed record's stored form (segment-format.md §3.6): what the server of an
    /// encrypted account answers for a held event, compared by the device that seals its own copy
    /// under the same epoch (encryption.md §11, "Fork detection on pulls").
    package static func value(_ view: SealedRecordView) -> Value {
        value(view.bytes)
    }

    package static func value(_ record: LedgerRecord) -> Value {
        RecordEncoder.bytes(of: record).withUnsafeBytes { value($0) }
    }

    package static func hex(_ bytes: UnsafeRawBufferPointer) -> String { value(bytes).hex }
    package static func hex(_ view: RecordView) -> String { value(view).hex }
    package static func hex(_ record: LedgerRecord) -> String { value(record).hex }
    package static func hex(_ view: SealedRecordView) -> String { value(view).hex }

    /// 32 lowercase hex digits.
    package static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == hexLength && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
