import LedgerCore

/// Request and response bodies of the sync API (Schemas/sync-api.yaml); shared by the server
/// and the client so that both sides agree on every key.
package struct PullRequest: Codable, Sendable {
    /// What the client holds: {"<device hex>": highest contiguous seq}.
    package var have: [String: UInt64]
    /// An opaque resume point from the previous page (a log position); optional.
    package var cursor: UInt64?
    /// Largest number of records wanted (the server caps it).
    package var limit: Int?
    /// Fork detection (Schemas/merge.md §10): {"<device hex>": `EventDigest` of the client's event
    /// at `have[device]`}, one entry per device of `have` with a seq above 0 (the server checks
    /// the entries present). Required by API 2, on every pull: a pull without it comes from a
    /// client that cannot detect forks and is refused (400) with a message asking for an update.
    package var haveDigests: [String: String]?

    enum CodingKeys: String, CodingKey {
        case have, cursor, limit
        case haveDigests = "have_digests"
    }

    package init(have: [String: UInt64], cursor: UInt64? = nil, limit: Int? = nil, haveDigests: [String: String]? = [:]) {
        (self.have, self.cursor, self.limit, self.haveDigests) = (have, cursor, limit, haveDigests)
    }
}

package struct PullResponse: Codable, Sendable {
    package var records: [WireRecord]
    /// More records may follow: ask again with `cursor`.
    package var more: Bool
    package var cursor: UInt64
    /// What the server holds after this request.
    package var serverHas: [String: UInt64]
    /// The newest catalogue version any device recorded, if one did.
    package var catalogVersion: UInt32?
    /// {"<device hex>": `EventDigest` of the server's event at `serverHas[device]`}: the client
    /// compares it with its own event at that seq, where it holds one (Schemas/merge.md §10).
    package var serverDigests: [String: String]

    enum CodingKeys: String, CodingKey {
        case records, more, cursor
        case serverHas = "server_has"
        case catalogVersion = "catalog_version"
        case serverDigests = "server_digests"
    }

    package init(records: [WireRecord], more: Bool, cursor: UInt64, serverHas: [String: UInt64], catalogVersion: UInt32?,
                 serverDigests: [String: String]) {
        (self.records, self.more, self.cursor, self.serverHas) = (records, more, cursor, serverHas)
        (self.catalogVersion, self.serverDigests) = (catalogVersion, serverDigests)
    }
}

package struct PushRequest: Codable, Sendable {
    package var records: [WireRecord]
    package init(records: [WireRecord]) { self.records = records }
}

package struct PushResponse: Codable, Sendable {
    /// Records appended by this request (0 for a retried push).
    package var appended: Int
    /// Events of the request the server already held (identical).
    package var duplicates: Int
    package var serverHas: [String: UInt64]

    enum CodingKeys: String, CodingKey {
        case appended, duplicates
        case serverHas = "server_has"
    }

    package init(appended: Int, duplicates: Int, serverHas: [String: UInt64]) {
        (self.appended, self.duplicates, self.serverHas) = (appended, duplicates, serverHas)
    }
}

/// Every 4xx/5xx body: {"error": "<code>", "message": "<one sentence>"}; a `fork` refusal also
/// names the device and the seq where the two copies differ (Schemas/merge.md §10).
package struct ErrorBody: Codable, Sendable {
    package var error: String
    package var message: String
    package var device: String?
    package var seq: UInt64?
    package init(error: String, message: String, device: String? = nil, seq: UInt64? = nil) {
        (self.error, self.message, self.device, self.seq) = (error, message, device, seq)
    }
}
