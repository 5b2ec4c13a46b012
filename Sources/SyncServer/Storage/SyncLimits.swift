/// The limits both stores apply to what one request may ask or bring (Schemas/sync-api.yaml,
/// Schemas/sync-frames.md): one set, so that a client meets the same pages and refusals on
/// either store. `serve` builds it from its options (`--max-user-bytes`).
package struct SyncLimits: Sendable {
    /// Page sizes of one representation.
    package struct Pages: Sendable {
        /// Records per pull page (a pull's `limit` is capped at this).
        package var pullRecords: Int
        /// Approximate bytes of records (their encodings, Schemas/segment-format.md §3) per pull
        /// page: a page stops at the first record past it.
        package var pullBytes: Int
        /// Records per push; more is refused (413).
        package var pushRecords: Int
    }

    /// JSON pages stay small: a phone parses each whole, and a JSON record is about ten times
    /// its encoding.
    package var json = Pages(pullRecords: 2_000, pullBytes: 1 << 20, pushRecords: 5_000)
    /// Frames carry what a segment holds, about 6 bytes an event, so that a device joining a long
    /// ledger needs a few requests, not hundreds (each costing a round trip and a durable append).
    package var frames = Pages(pullRecords: 100_000, pullBytes: 8 << 20, pushRecords: 100_000)
    /// `serve --max-user-bytes`: off unless set.
    package var userSize = UserSizeLimit()

    package init() {}

    /// The pages of `representation`.
    package func pages(_ representation: WireRepresentation) -> Pages {
        representation == .frames ? frames : json
    }
}

/// How a request's records travel: JSON `Record`s, or record frames (Schemas/sync-frames.md).
package enum WireRepresentation: Sendable {
    case json
    case frames
}
