/// The limits both stores apply to what one request may ask or bring (Schemas/sync-api.yaml):
/// one set, so that a client meets the same pages and refusals on either store. `serve` builds it
/// from its options (`--max-user-bytes`).
package struct SyncLimits: Sendable {
    /// Records per pull page (a pull's `limit` is capped at this).
    package var maximumPullRecords = 2_000
    /// Approximate encoded bytes per pull page: a page stops at the first record past it.
    package var maximumPullBytes = 1 << 20
    /// Records per push; more is refused (413).
    package var maximumPushRecords = 5_000
    /// `serve --max-user-bytes`: off unless set.
    package var userSize = UserSizeLimit()

    package init() {}
}
