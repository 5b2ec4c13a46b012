/// The link a pairing or link code travels in (`BASE/app/#pair=CODE`, as `server pair` and
/// `device link` print it): the server's base URL and the code, as `device join LINK` reads them.
package struct PairingLink: Sendable, Equatable {
    package var server: String
    package var code: String

    /// Nil when `text` is not an http(s) URL ending in `/app/#pair=CODE` (or `/app#pair=CODE`).
    package init?(_ text: String) {
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        guard text.hasPrefix("http://") || text.hasPrefix("https://"), parts.count == 2, parts[1].hasPrefix("pair=") else { return nil }
        let code = String(parts[1].dropFirst("pair=".count))
        var base = String(parts[0])
        if base.hasSuffix("/") { base.removeLast() }
        guard base.hasSuffix("/app"), !code.isEmpty else { return nil }
        base.removeLast("/app".count)
        guard base.split(separator: "/", omittingEmptySubsequences: true).count >= 2 else { return nil }
        server = base
        self.code = code
    }
}
