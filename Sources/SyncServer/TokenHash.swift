import Crypto
import LedgerCore

/// How a bearer token is stored in `users.json`: the lowercase hex SHA-256 of its UTF-8 bytes
/// (swift-crypto). Existing files depend on exactly this form, so it must not change. Both stores
/// look a presented token up by this hash as a key (a dictionary, an index), so no stored hash
/// is ever compared byte by byte with what a client sent.
package enum TokenHash {
    package static func hex(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).withUnsafeBytes { lowercaseHex($0) }
    }

    /// Bytes as lowercase hex, two digits each.
    static func lowercaseHex(_ bytes: UnsafeRawBufferPointer) -> String { Hex.string(bytes) }
}
