import Crypto

/// A data key wrapped for travel or storage (Schemas/encryption.md §4): 12 random nonce bytes,
/// then AES-256-GCM of the epoch and the key under a wrapping key, authenticated with its purpose.
package enum KeyWrap {
    /// What a wrapped key is for; part of what the tag authenticates.
    package enum Purpose: UInt8, Sendable {
        /// For the device a link adds; the wrapping key comes from the link's secret.
        case link = 1
        /// The epoch before the wrapping key's, in the server's key chain.
        case chain = 2
        /// A device's own storage of its keys.
        case device = 3
    }

    package static let wrappedByteCount = 64
    package static let linkSecretByteCount = 32

    /// `key` wrapped under `wrappingKey`; `nonce` (12 bytes) only for fixed test vectors.
    package static func wrap(_ key: DataKey, under wrappingKey: SymmetricKey, purpose: Purpose,
                             nonce: [UInt8]? = nil) -> [UInt8] {
        var plaintext: [UInt8] = []
        plaintext.appendLittleEndian(key.epoch)
        plaintext.append(contentsOf: key.bytes)
        do {
            let gcmNonce = try nonce.map { try AES.GCM.Nonce(data: $0) } ?? AES.GCM.Nonce()
            let box = try AES.GCM.seal(plaintext, using: wrappingKey, nonce: gcmNonce,
                                       authenticating: associatedData(purpose))
            return Array(gcmNonce) + Array(box.ciphertext) + Array(box.tag)
        } catch {
            preconditionFailure("AES-GCM refused a well-formed key wrap: \(error)")
        }
    }

    /// The key `wrapped` holds; refused unless it is 64 bytes sealed under `wrappingKey` for `purpose`.
    package static func unwrap(_ wrapped: [UInt8], under wrappingKey: SymmetricKey,
                               purpose: Purpose) throws(SealingError) -> DataKey {
        guard wrapped.count == wrappedByteCount else { throw .length }
        let plaintext: [UInt8]
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: wrapped.prefix(12)),
                                            ciphertext: wrapped[12..<48], tag: wrapped.suffix(16))
            plaintext = Array(try AES.GCM.open(box, using: wrappingKey, authenticating: associatedData(purpose)))
        } catch {
            throw .unauthentic
        }
        return DataKey(epoch: plaintext.littleEndianUInt32(at: 0), bytes: Array(plaintext.suffix(DataKey.byteCount)))!
    }

    /// The wrapping key of a link: HKDF-SHA256 of the link's secret (32 random bytes carried in
    /// the link's fragment, never sent to the server); a secret of another length is refused.
    package static func linkKey(secret: [UInt8]) throws(SealingError) -> SymmetricKey {
        guard secret.count == linkSecretByteCount else { throw .length }
        return HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: secret), salt: [UInt8](),
                               info: Array("oritsubushi/v1 link".utf8), outputByteCount: 32)
    }

    private static func associatedData(_ purpose: Purpose) -> [UInt8] {
        Array("ORTSBWRAP1".utf8) + [purpose.rawValue]
    }
}
