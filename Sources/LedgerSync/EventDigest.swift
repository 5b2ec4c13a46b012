import Crypto
import LedgerCore

/// The digest of one event as the sync protocol carries it (`have_digests`, `server_digests`,
/// Schemas/merge.md §10) and the PostgreSQL store records it: the first 16 bytes of the SHA-256 of
/// the event's canonical record encoding (Schemas/segment-format.md §4), as 32 lowercase hex
/// digits. Two replicas hold the same event under one `(device, seq)` iff the digests are equal.
package enum EventDigest {
    package static let hexLength = 32

    package static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(hexLength)
        for byte in SHA256.hash(data: bytes).prefix(hexLength / 2) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    package static func hex(_ view: RecordView) -> String {
        hex(UnsafeRawBufferPointer(start: view.base, count: view.length))
    }

    package static func hex(_ record: LedgerRecord) -> String {
        var encoder = RecordEncoder()
        encoder.append(record)
        return encoder.bytes.withUnsafeBytes { hex($0) }
    }

    /// 32 lowercase hex digits.
    package static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == hexLength && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
