import LedgerCore

/// `serve --max-user-bytes` (off by default): one token must not fill the disk every user shares.
/// A push is refused with 413, nothing applied, when the user's stored bytes plus the push's new
/// records (canonical encoding, Schemas/segment-format.md §4) would exceed the limit. "Stored"
/// is the ledger's segment files on the files store (compressed, with headers and footers) and
/// the rows' encoded records on PostgreSQL; the push's share is counted uncompressed, so the
/// files store refuses a little early rather than late. Duplicates and pulls are never refused.
package struct UserSizeLimit: Sendable {
    package var maximumBytes: Int64?

    package init(maximumBytes: Int64? = nil) { self.maximumBytes = maximumBytes }

    package var isOff: Bool { maximumBytes == nil }

    package func check(stored: Int64, adding size: (records: Int, bytes: Int)) throws {
        guard let maximumBytes, size.records > 0 else { return }
        let incoming = Int64(size.bytes)
        guard stored + incoming > maximumBytes else { return }
        throw SyncServerError(.payloadTooLarge, """
            this user's stored events (\(stored) bytes) and the push's \(size.records) new records (\(incoming) bytes) \
            would exceed the server's per-user limit of \(maximumBytes) bytes (serve --max-user-bytes); nothing was applied
            """)
    }
}
