import Crypto
import Foundation

/// One epoch's data key of an end-to-end encrypted account and the subkeys derived from it
/// (Schemas/encryption.md §2). The 32 bytes come from the system's secure generator, never from
/// a password.
package struct DataKey: Sendable, Equatable {
    /// The byte length of a data key.
    package static let byteCount = 32

    package let epoch: UInt32
    package let bytes: [UInt8]
    /// The AES-256-GCM key that seals records.
    package let sealKey: SymmetricKey
    /// The HMAC-SHA256 key of the synthetic nonce (the keyed content id).
    package let nonceKey: SymmetricKey
    /// An HMAC-SHA256 under `nonceKey` that has taken no data yet: each record's nonce starts
    /// from a copy, so the key's pads are hashed once, not at each record.
    package let nonceMAC: HMAC<SHA256>

    /// A key of these bytes; nil unless there are exactly 32. The subkeys every record uses are
    /// derived once here, not at each record (a sync seals or opens every record of a log).
    package init?(epoch: UInt32, bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.epoch = epoch
        self.bytes = bytes
        sealKey = Self.subkey(of: bytes, "oritsubushi/v1 seal", byteCount: 32)
        nonceKey = Self.subkey(of: bytes, "oritsubushi/v1 nonce", byteCount: 32)
        nonceMAC = HMAC<SHA256>(key: nonceKey)
    }

    package static func == (lhs: DataKey, rhs: DataKey) -> Bool { lhs.epoch == rhs.epoch && lhs.bytes == rhs.bytes }

    /// A new random key for `epoch`.
    package static func random(epoch: UInt32) -> DataKey {
        let key = SymmetricKey(size: .bits256)
        return DataKey(epoch: epoch, bytes: key.withUnsafeBytes { Array($0) })!
    }

    /// The key that wraps the epoch before this one in the server's key chain.
    package var chainKey: SymmetricKey { Self.subkey(of: bytes, "oritsubushi/v1 chain", byteCount: 32) }

    /// The key's fingerprint: 8 Crockford base32 characters in two groups of 4 (`7KQ2-M9XD`).
    package var fingerprint: String {
        let digits = Self.subkey(of: bytes, "oritsubushi/v1 fingerprint", byteCount: 5).withUnsafeBytes { CrockfordBase32.encode(Array($0)) }
        return "\(digits.prefix(4))-\(digits.suffix(4))"
    }

    /// HKDF-SHA256 with an empty salt (Schemas/encryption.md §2).
    private static func subkey(of bytes: [UInt8], _ label: String, byteCount: Int) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: bytes), salt: [UInt8](),
                               info: Array(label.utf8), outputByteCount: byteCount)
    }
}
