import LedgerCore

/// A 64-bit FNV-1a hash of a record's canonical encoding. Two copies of one event id are the
/// same event iff their encodings are byte-identical; comparing hashes keeps the check cheap
/// in memory (a forged copy that collides on 64 bits is not a practical concern here).
package enum RecordFingerprint {
    package static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    package static func of(_ view: RecordView) -> UInt64 {
        of(UnsafeRawBufferPointer(start: view.base, count: view.length))
    }

    package static func of(_ record: LedgerRecord) -> UInt64 {
        var encoder = RecordEncoder()
        encoder.append(record)
        return encoder.bytes.withUnsafeBytes { of($0) }
    }
}
