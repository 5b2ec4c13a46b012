/// What every reader of a user's text file (a batch, an oritsubushi-tsv import, a catalogue
/// dump) accepts beyond plain UTF-8 with LF line ends, because files from Windows have it
/// (Schemas/import-export.md "Text files"): a UTF-8 byte order mark at the start is not part of
/// the text, and CRs before a line's LF are part of the line end.
package enum TextInput {
    /// The UTF-8 encoding of U+FEFF.
    package static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Where the text starts: after a byte order mark, if there is one.
    package static func textStart(_ bytes: [UInt8]) -> Int {
        bytes.starts(with: byteOrderMark) ? byteOrderMark.count : 0
    }

    /// The bytes without a leading byte order mark.
    package static func withoutByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes[textStart(bytes)...]
    }

    /// The end of a line's content, given the index of its LF (or the end of the text): the CRs
    /// just before it belong to the line end (a file converted to CRLF twice has two), so a
    /// line's content never ends in CR, and writing it back out reads back the same (found by
    /// the fuzzer: Tests/Fuzz/regressions/tsv/).
    package static func contentEnd(_ bytes: [UInt8], lineStart: Int, lineEnd: Int) -> Int {
        var end = lineEnd
        while end > lineStart && bytes[end - 1] == 0x0D { end -= 1 }
        return end
    }
}
