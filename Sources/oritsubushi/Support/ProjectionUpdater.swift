import LedgerCatalog
import LedgerCore
import LedgerSync

/// Keeps the station projection (projection.sqlite, issue 3) current after merge and sync:
/// `ProjectionStore.update` folds only the records past its checkpoint, so the cost is
/// proportional to what came in, not to the log.
enum ProjectionUpdater {
    /// Per-batch observer: nothing to do per batch; the projection catches up once at the end.
    static func make(for ledger: Ledger) -> (any MergeObserver)? { nil }

    static func update(_ ledger: Ledger) throws {
        try ProjectionStore.update(ledger)
    }
}
