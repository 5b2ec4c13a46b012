import LedgerCore
import LedgerSync

/// What a store keeps of an end-to-end encrypted account (Schemas/encryption.md §11, "The
/// account"); a plaintext account has none. The server never holds a data key: only the key
/// epoch the account is at, the fingerprint (§5) of that epoch's key once a device registered it,
/// and the key chain, each older epoch's key wrapped under the next one's `K_chain` (§4, purpose
/// 2), which a device holding only the newest key unwraps to read older frames.
package struct AccountEncryption: Sendable, Equatable {
    /// The current key epoch E: 1 when the account is made with `server add-user --encrypted`,
    /// one more at each rotation (§7).
    package var epoch: UInt32
    /// The fingerprint of epoch E's key (`7KQ2-M9XD`); nil until a device registers it.
    package var fingerprint: String?
    /// Epoch e < E → epoch e's key wrapped under epoch e + 1's `K_chain`, 64 bytes each.
    package var keyChain: [UInt32: [UInt8]]

    package init(epoch: UInt32, fingerprint: String? = nil, keyChain: [UInt32: [UInt8]] = [:]) {
        (self.epoch, self.fingerprint, self.keyChain) = (epoch, fingerprint, keyChain)
    }

    /// A new account made with `--encrypted`: epoch 1, its key not yet made by its first device.
    package static let new = AccountEncryption(epoch: 1)

    /// The account after `POST /v1/account/key` registered `fingerprint` for its key, or the
    /// refusal: only an account at epoch 1 without a fingerprint takes one; the same fingerprint
    /// again changes nothing (a retried request); another is a key made by a second device at
    /// the same moment, which must get the account's key instead.
    package func registering(_ fingerprint: String) throws(SyncServerError) -> AccountEncryption {
        if let registered = self.fingerprint {
            guard registered == fingerprint else { throw Self.otherKeyRegistered }
            return self
        }
        guard epoch == 1 else { throw Self.otherKeyRegistered }
        var registered = self
        registered.fingerprint = fingerprint
        return registered
    }

    /// The account after `POST /v1/account/rotation` to `newEpoch`, or the refusal of an epoch
    /// other than E + 1 (a device that missed a rotation, or a second device rotating at once).
    package func rotating(to newEpoch: UInt32, previousWrapped: [UInt8], fingerprint: String) throws(SyncServerError) -> AccountEncryption {
        guard epoch < UInt32.max, newEpoch == epoch + 1 else { throw Self.staleEpoch(current: epoch) }
        var rotated = self
        rotated.keyChain[epoch] = previousWrapped
        rotated.epoch = newEpoch
        rotated.fingerprint = fingerprint
        return rotated
    }

    // MARK: Refusals (409)

    /// A request that needs an encrypted account, on a plaintext one.
    package static var plaintextAccount: SyncServerError {
        SyncServerError(.plaintextAccount, "this account is not end-to-end encrypted: it has no key to register, rotate or send with a link")
    }

    /// `POST /v1/account/key` with a fingerprint other than the one registered.
    package static var otherKeyRegistered: SyncServerError {
        SyncServerError(.conflict, "another device already made this account's key: get it with a link from a device that has it (oritsubushi device link, or 別の端末を追加 in the app), or with the recovery kit")
    }

    /// `POST /v1/account/rotation` to an epoch other than E + 1.
    package static func staleEpoch(current: UInt32) -> SyncServerError {
        SyncServerError(.staleEpoch, "the account is at key epoch \(current): get the current key with a link from one of your devices that has it, or with the recovery kit, then try again")
    }

    // MARK: Wire forms

    /// Whether `text` is a fingerprint as Schemas/encryption.md §5 shows it: 8 characters of
    /// Crockford base32 (upper case) in two groups of 4 joined by a hyphen. Only that one
    /// spelling is taken, so that two devices' fingerprints compare as strings.
    package static func isFingerprint(_ text: String) -> Bool {
        let characters = Array(text.utf8)
        guard characters.count == 9, characters[4] == UInt8(ascii: "-") else { return false }
        return characters.enumerated().allSatisfy { $0.offset == 4 || CrockfordBase32.alphabet.contains($0.element) }
    }

    /// The refusal (422) of a fingerprint `isFingerprint` does not take.
    package static var invalidFingerprint: SyncServerError {
        SyncServerError(.unprocessable, "fingerprint must be 8 Crockford base32 characters in upper case as two groups of 4, such as 7KQ2-M9XD")
    }

    /// A wrapped key (§4) from its 128 lowercase or uppercase hex digits; nil for any other text.
    package static func wrappedKey(hex text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == KeyWrap.wrappedByteCount * 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(KeyWrap.wrappedByteCount)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// The refusal (422) of a wrapped key `wrappedKey(hex:)` does not take.
    package static func invalidWrappedKey(_ field: String) -> SyncServerError {
        SyncServerError(.unprocessable, "\(field) must be a wrapped key: \(KeyWrap.wrappedByteCount * 2) hex digits (\(KeyWrap.wrappedByteCount) bytes)")
    }

    /// 128 lowercase hex digits.
    package static func hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { TokenHash.lowercaseHex($0) }
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
