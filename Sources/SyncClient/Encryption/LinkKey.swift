import LedgerCore
import LedgerSync

/// The account's key carried by a link (Schemas/encryption.md §8): `device link` wraps the
/// current key under a one-time secret that travels only in the link's fragment (after `#`, which
/// no server sees); the server keeps the wrapped key with the code and gives it once to the
/// device that redeems the code, which unwraps it with the secret from the link.
package enum LinkKey {
    /// What `device link` sends and prints: the secret for the link, the key wrapped under it.
    package struct Offer: Sendable {
        package var secret: [UInt8]
        package var wrapped: [UInt8]
        package var fingerprint: String
        /// The link's fragment field: `&key=SECRET` (base64url, no padding, 43 characters).
        package var fragment: String { "&key=" + Base64URL.encode(secret) }
    }

    /// A fresh secret and `key` wrapped under it.
    package static func offer(_ key: DataKey) -> Offer {
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<KeyWrap.linkSecretByteCount).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let wrapped: [UInt8]
        do { wrapped = KeyWrap.wrap(key, under: try KeyWrap.linkKey(secret: secret), purpose: .link) } catch {
            preconditionFailure("a secret of linkSecretByteCount bytes is a link secret")
        }
        return Offer(secret: secret, wrapped: wrapped, fingerprint: key.fingerprint)
    }

    /// The key a joining device receives: `wrappedHex` (the pair answer's) unwrapped with the
    /// link's secret; it must be of the account's `epoch`.
    /// - Throws: `LedgerError` `.permission` for a key that does not unwrap (a link whose secret
    ///   was changed, or a code redeemed with another link's secret).
    package static func receive(wrappedHex: String, secret: [UInt8], epoch: UInt32?) throws -> DataKey {
        let refused = LedgerError(.permission, "the link's key does not open (the link was changed, or its code belongs to another link): ask for a new link")
        guard let wrapped = Hex.bytes(wrappedHex) else { throw refused }
        let key: DataKey
        do { key = try KeyWrap.unwrap(wrapped, under: try KeyWrap.linkKey(secret: secret), purpose: .link) } catch { throw refused }
        guard epoch == nil || key.epoch == epoch else { throw refused }
        return key
    }
}
