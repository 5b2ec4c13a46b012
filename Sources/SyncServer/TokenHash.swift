import Crypto

/// How a bearer token is stored in `users.json`: the lowercase hex SHA-256 of its UTF-8 bytes
/// (swift-crypto). Existing files depend on exactly this form, so it must not change.
package enum TokenHash {
    package static func hex(_ token: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(token.utf8)) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Compares a stored hash with a presented token's hash in time independent of where they
    /// differ, so response timing tells an attacker nothing about a stored hash.
    package static func matches(_ stored: String, _ presented: String) -> Bool {
        let x = Array(stored.utf8), y = Array(presented.utf8)
        guard x.count == y.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<x.count { diff |= x[i] ^ y[i] }
        return diff == 0
    }
}
