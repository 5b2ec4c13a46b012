/// Bytes as groups of a few bits, most significant bit first: the one packing under Crockford's
/// base32 (the kit and the fingerprint, Schemas/encryption.md §5, §6) and base64url (the key
/// file, §11). Each encoding keeps its own alphabet and its own reading rules.
enum BitGroups {
    /// `bytes` as characters of `alphabet`, `width` bits each; a last group of fewer bits is
    /// padded with zero bits.
    static func encode(_ bytes: [UInt8], width: Int, alphabet: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 8 + width - 1) / width)
        let mask = UInt32(1) << UInt32(width) - 1
        var buffer: UInt32 = 0, bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= width {
                bits -= width
                text.append(alphabet[Int(buffer >> UInt32(bits) & mask)])
            }
        }
        if bits > 0 { text.append(alphabet[Int(buffer << UInt32(width - bits) & mask)]) }
        return String(decoding: text, as: UTF8.self)
    }

    /// The whole bytes that `values` (each `width` bits) spell, and the bits left over after
    /// the last whole byte: how many, and their value (a reader refuses them or not).
    static func decode(_ values: [UInt8], width: Int) -> (bytes: [UInt8], leftoverBits: Int, leftover: UInt32) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * width / 8)
        var buffer: UInt32 = 0, bits = 0
        for value in values {
            // Never more than 7 + width bits are held: the mask keeps the shift from overflowing.
            buffer = (buffer << UInt32(width) | UInt32(value)) & 0xFFFF
            bits += width
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return (bytes, bits, buffer & (UInt32(1) << UInt32(bits) - 1))
    }
}
