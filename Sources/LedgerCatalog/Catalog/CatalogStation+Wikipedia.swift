import Foundation

extension CatalogStation {
    /// The station's Japanese Wikipedia article, as 「この駅をウィキペディアで見る…」 opens it
    /// (domain.md §1.3): the `wiki` column, or the station name when that is empty.
    ///
    /// Written as a browser sends it: surrounding spaces trimmed, inner spaces as `_` (Wikipedia's
    /// own spelling of titles in URLs), then every UTF-8 byte outside RFC 3986's unreserved set and
    /// `(` `)` percent-encoded (`津駅` → `%E6%B4%A5%E9%A7%85`), so the link survives terminals, mail
    /// and JSON consumers that do not take raw UTF-8 in URLs.
    package var wikipediaURL: String {
        let title = (wiki.isEmpty ? name : wiki).trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "_")
        var encoded = "https://ja.wikipedia.org/wiki/"
        for byte in title.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "("), UInt8(ascii: ")"):
                encoded.append(Character(Unicode.Scalar(byte)))
            default:
                encoded += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return encoded
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
