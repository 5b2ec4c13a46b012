/// Why a sealed record, a wrapped key or a recovery kit is refused (Schemas/encryption.md §3.3,
/// §4, §6). `reason` is the stable string of Conformance/encryption.jsonl and of the app's
/// `SealError.reason`.
package enum SealingError: Error, Equatable, Sendable {
    /// The tag did not authenticate: another key, epoch, device, seq or purpose, or a changed byte.
    case unauthentic
    /// The nonce is not the one the content gives: not the one sealed form of this content.
    case noncanonical
    /// The bytes after the sealed record are not all zero, or the record runs past them.
    case padding
    /// A sealed event that holds a device name, or a sealed name that holds an event.
    case kind
    /// The sealed record's device or seq differs from the clear ones.
    case identity
    /// The sealed record is one segment-format.md §3 refuses.
    case record(String)
    /// A wrapped key or a kit of the wrong length.
    case length
    /// A kit character outside Crockford's alphabet.
    case character
    /// A kit whose checksum does not match: a mistyped character.
    case checksum

    package var reason: String {
        switch self {
        case .unauthentic: return "unauthentic"
        case .noncanonical: return "noncanonical"
        case .padding: return "padding"
        case .kind: return "kind"
        case .identity: return "identity"
        case .record: return "record"
        case .length: return "length"
        case .character: return "character"
        case .checksum: return "checksum"
        }
    }
}
