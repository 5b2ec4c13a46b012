import Foundation

extension CatalogStation {
    /// The station's Japanese Wikipedia article, as 「この駅をウィキペディアで見る…」 opens it
    /// (Schemas/domain-rules.md §9): the `wiki` column, or the station name when that is empty.
    ///
    /// Written as a browser sends it: surrounding spaces trimmed, inner spaces as `_` (Wikipedia's
    /// own spelling of titles in URLs), then every UTF-8 byte outside RFC 3986's unreserved set and
    /// `(` `)` percent-encoded (`津駅` → `%E6%B4%A5%E9%A7%85`), so the link survives terminals, mail
    /// and JSON consumers that do not take raw UTF-8 in URLs.
    package var wikipediaURL: String {
        let title = (wiki.isEmpty ? name : wiki).trimmingCharacters(in: .whitespaces).replacingOccurrences(of: " ", with: "_")
        let encoded = title.addingPercentEncoding(withAllowedCharacters: Self.unreservedInTitles) ?? title
        return "https://ja.wikipedia.org/wiki/" + encoded
    }

    /// RFC 3986's unreserved characters (ASCII only) and `(` `)`.
    private static let unreservedInTitles = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~()")
}
