import Crypto
import CryptoExtras
import LedgerCore

/// How a pairing code is kept at rest (Schemas/server-store.md, "Pairing codes"): scrypt of its
/// canonical form with the store's own random salt, as lowercase hex. A code has only 40 bits, so
/// a plain hash in a backup could be walked back to every live code in minutes; scrypt at these
/// costs makes one guess cost about 16 MiB and tens of milliseconds, so walking the space takes
/// longer than any code lives (at most 7 days). The server computes one key per attempt, and only
/// after the attempt was counted (`PairingAttempts`).
extension PairingCode {
    /// scrypt's N, r and p, and the key's length. Changing any of them orphans every live code.
    static let scryptRounds = 1 << 14
    static let scryptBlockSize = 8
    static let scryptParallelism = 1
    static let keyBytes = 32

    /// The stored form of this code under `salt` (a store's `PairingSalt`).
    package func storedKey(salt: PairingSalt) throws -> String {
        let key: SymmetricKey
        do {
            key = try KDF.Scrypt.deriveKey(from: Array(canonical.utf8), salt: salt.bytes, outputByteCount: Self.keyBytes,
                                           rounds: Self.scryptRounds, blockSize: Self.scryptBlockSize,
                                           parallelism: Self.scryptParallelism)
        } catch {
            throw LedgerError(.unavailable, "cannot derive a pairing code's key: \(error)")
        }
        return key.withUnsafeBytes { TokenHash.lowercaseHex($0) }
    }
}

/// A store's salt for pairing codes: 16 random bytes made when the store first keeps a code,
/// stored as hex beside the codes (users.json's `pairing_salt`, PostgreSQL's `server_settings`).
/// It is not a secret; it only makes each store's codes a search of its own.
package struct PairingSalt: Sendable, Equatable {
    package let bytes: [UInt8]

    package static func random() -> PairingSalt {
        var generator = SystemRandomNumberGenerator()
        return PairingSalt(bytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Reads the stored hex; nil when it is not 16 bytes of hex.
    package init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 32 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 32, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    package var hex: String { bytes.withUnsafeBytes { TokenHash.lowercaseHex($0) } }
}
