import Synchronization

/// The requests a `SyncConnection` sent a second time because the server closed a kept-alive
/// connection just as the request went out (Schemas/sync-api.yaml: a pull or push may be
/// repeated; a repeated push appends nothing twice). Counted for the sync report and told, as
/// they happen, to whoever listens (`sync --verbose`).
package final class RetryLog: Sendable {
    private let entries = Mutex<[String]>([])
    private let listener: (@Sendable (String) -> Void)?

    package init(listener: (@Sendable (String) -> Void)? = nil) {
        self.listener = listener
    }

    /// How many requests were sent again so far.
    package var count: Int { entries.withLock { $0.count } }

    func note(_ sentence: String) {
        entries.withLock { $0.append(sentence) }
        listener?(sentence)
    }
}
