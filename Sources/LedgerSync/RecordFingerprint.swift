import LedgerCore

/// A 64-bit hash of a record's canonical encoding. Two copies of one event id are the same
/// event iff their encodings are byte-identical; comparing hashes keeps the check cheap in
/// memory (a forged copy that collides on 64 bits is not a practical concern here). Never
/// stored or sent: only compared within one process.
package enum RecordFingerprint {
    /// FNV-1a over 8-byte words (then the remaining bytes), with a final avalanche: a merge
    /// fingerprints every shared event, and a byte-at-a-time loop was most of that cost.
    package static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime
            hash ^= hash >> 29
            offset += 8
        }
        while offset < bytes.count {
            hash = (hash ^ UInt64(bytes[offset])) &* prime
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return hash
    }

    package static func of(_ view: RecordView) -> UInt64 {
        of(UnsafeRawBufferPointer(start: view.base, count: view.length))
    }

    package static func of(_ record: LedgerRecord) -> UInt64 {
        RecordEncoder.bytes(of: record).withUnsafeBytes { of($0) }
    }
}
