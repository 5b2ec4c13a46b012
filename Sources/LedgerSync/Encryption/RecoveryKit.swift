import Crypto

/// The recovery kit of an encrypted account (Schemas/encryption.md §6): the current epoch's key,
/// its epoch and a checksum, as 16 words of 4 Crockford base32 characters.
package enum RecoveryKit {
    package static let wordCount = 16
    package static let wordLength = 4
    private static let byteCount = 40
    private static let checksumByteCount = 4

    /// The kit of `key`: 16 words separated by spaces.
    package static func text(for key: DataKey) -> String {
        var bytes = key.bytes
        bytes.appendLittleEndian(key.epoch)
        bytes.append(contentsOf: SHA256.hash(data: bytes).prefix(checksumByteCount))
        let characters = Array(CrockfordBase32.encode(bytes))
        return stride(from: 0, to: characters.count, by: wordLength)
            .map { String(characters[$0..<$0 + wordLength]) }
            .joined(separator: " ")
    }

    /// The key a kit holds, read leniently (case, O for 0, I and L for 1, spaces and hyphens).
    package static func key(from text: String) throws(SealingError) -> DataKey {
        let values = try characterValues(of: text)
        guard values.count == wordCount * wordLength else { throw .length }
        let bytes = CrockfordBase32.decode(values, byteCount: byteCount)
        let body = Array(bytes.prefix(byteCount - checksumByteCount))
        guard Array(SHA256.hash(data: body).prefix(checksumByteCount)) == Array(bytes.suffix(checksumByteCount)) else {
            throw .checksum
        }
        return DataKey(epoch: body.littleEndianUInt32(at: DataKey.byteCount), bytes: Array(body.prefix(DataKey.byteCount)))!
    }

    /// The values of a kit's characters (or of some of its words) as a reader takes them,
    /// separators skipped.
    /// - Throws: `.character` for a character outside the alphabet.
    package static func characterValues(of text: String) throws(SealingError) -> [UInt8] {
        var values: [UInt8] = []
        for character in text.utf8 where !isSeparator(character) {
            guard let value = CrockfordBase32.value(of: character) else { throw .character }
            values.append(value)
        }
        return values
    }

    /// The words of a kit as written, for the rehearsal that asks for two of them by number.
    package static func words(of text: String) -> [String] {
        text.utf8.split(whereSeparator: isSeparator).map { String(decoding: $0, as: UTF8.self) }
    }

    /// What a reader skips between characters: a hyphen and ASCII white space (space, tab, line
    /// feed, carriage return), so that a kit pasted from any file reads.
    private static func isSeparator(_ character: UInt8) -> Bool {
        character == UInt8(ascii: "-") || character == UInt8(ascii: " ") || character == UInt8(ascii: "\t")
            || character == UInt8(ascii: "\n") || character == UInt8(ascii: "\r")
    }
}
