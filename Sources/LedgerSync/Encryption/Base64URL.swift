/// Base64url without padding (RFC 4648 §5): how a data key is written in a device's key file
/// and a link secret in a link (Schemas/encryption.md §8, §11). Read strictly: one spelling per
/// value (no padding, no other characters, unused trailing bits zero), so that a key file or
/// a link has one form and a damaged character is refused rather than read as another key.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        BitGroups.encode(bytes, width: 6, alphabet: alphabet)
    }

    /// The bytes `text` spells, or nil when it is not exactly one encoding's text.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var values: [UInt8] = []
        for character in text.utf8 {
            guard let value = value(of: character) else { return nil }
            values.append(value)
        }
        let (bytes, leftoverBits, leftover) = BitGroups.decode(values, width: 6)
        // A lone last character holds no whole byte; unused bits must be zero (the one spelling).
        guard leftoverBits < 6, leftover == 0 else { return nil }
        return bytes
    }

    private static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): return 62
        case UInt8(ascii: "_"): return 63
        default: return nil
        }
    }
}
