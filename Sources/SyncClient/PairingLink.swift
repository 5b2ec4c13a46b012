import LedgerSync

/// The link a pairing or link code travels in (`BASE/app/#pair=CODE`, as `server pair` and
/// `device link` print it; `…&key=SECRET` for an end-to-end encrypted account's link, whose
/// secret unwraps the account's key and never reaches the server, encryption.md §8): the
/// server's base URL, the code and the secret, as `device join LINK` reads them.
package struct PairingLink: Sendable, Equatable {
    package var server: String
    package var code: String
    /// The link secret (32 bytes, base64url in the link); nil for a link without a key.
    package var secret: [UInt8]?

    /// Nil when `text` is not an http(s) URL ending in `/app/#pair=CODE` (or `/app#pair=CODE`).
    package init?(_ text: String) {
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        guard text.hasPrefix("http://") || text.hasPrefix("https://"), parts.count == 2, parts[1].hasPrefix("pair=") else { return nil }
        let fields = parts[1].dropFirst("pair=".count).split(separator: "&", omittingEmptySubsequences: false)
        let code = String(fields[0])
        secret = nil
        for field in fields.dropFirst() {
            guard field.hasPrefix("key="), secret == nil, let bytes = Base64URL.decode(String(field.dropFirst("key=".count))),
                  bytes.count == KeyWrap.linkSecretByteCount else { return nil }
            secret = bytes
        }
        var base = String(parts[0])
        if base.hasSuffix("/") { base.removeLast() }
        guard base.hasSuffix("/app"), !code.isEmpty else { return nil }
        base.removeLast("/app".count)
        guard base.split(separator: "/", omittingEmptySubsequences: true).count >= 2 else { return nil }
        server = base
        self.code = code
    }
}
