/// Crockford's base32 (Schemas/encryption.md §6): 5 bits a character, most significant bit
/// first, the alphabet without I, L, O and U, read leniently (lower case, O as 0, I and L as 1).
package enum CrockfordBase32 {
    package static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// `bytes` as characters; a last group of fewer than 5 bits is padded with zero bits.
    package static func encode(_ bytes: [UInt8]) -> String {
        BitGroups.encode(bytes, width: 5, alphabet: alphabet)
    }

    /// The value of one character as a reader takes it, or nil for a character outside the
    /// alphabet.
    package static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "o"), UInt8(ascii: "O"): return 0
        case UInt8(ascii: "i"), UInt8(ascii: "I"), UInt8(ascii: "l"), UInt8(ascii: "L"): return 1
        default:
            let upper = character >= UInt8(ascii: "a") && character <= UInt8(ascii: "z") ? character - 32 : character
            return alphabet.firstIndex(of: upper).map { UInt8($0) }
        }
    }

    /// The first `count` bytes of the bits of `values` (characters already read by
    /// `value(of:)`), most significant first.
    package static func decode(_ values: [UInt8], byteCount count: Int) -> [UInt8] {
        Array(BitGroups.decode(values, width: 5).bytes.prefix(count))
    }
}
