import LedgerCatalog
import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

/// Keeps the station projection (projection.sqlite, Schemas/projection.md §3) current for every command:
/// `ProjectionStore` folds only the records past its checkpoint, so the cost is proportional to
/// what came in, not to the log. A stored file that cannot be used (unreadable, another
/// ledger's, a checkpoint past the log) is rebuilt from the whole log, and the command says so
/// in a note on stderr.
enum ProjectionUpdater {
    /// The current projection, caught up from its checkpoint (not saved).
    static func load(_ ledger: Ledger, lazy: Bool = false) throws -> CompletionsProjection {
        let projection = try ProjectionStore.load(ledger, lazy: lazy)
        if let reason = projection.discardedBecause {
            Terminal.error("note: \(LedgerFiles.projection) \(reason); rebuilding it from the log")
        }
        CatalogVersionNotice.check(ledger, projection: projection)
        return projection
    }

    /// Saves the projection after events were appended. The events are durable (the directory
    /// was checked writable before the append), so a save that fails does not fail the command:
    /// the projection, a cache of the log, is caught up by the next command, and a warning says so.
    static func saveAfterAppend(_ projection: inout CompletionsProjection, ledger: Ledger) {
        do {
            try ProjectionStore.save(&projection, ledger: ledger)
        } catch {
            Terminal.error("warning: recorded, but \(LedgerFiles.projection) could not be updated (\(error)); the next command catches it up")
        }
    }

    /// A fold the caller made of every record of the log (see `LedgerMerger.merge(observe:)`),
    /// as the current projection (not saved; the save writes it whole).
    static func adopt(_ fold: CompletionsProjection, of ledger: Ledger) -> CompletionsProjection {
        var projection = fold
        projection.adoptFold(of: ledger)
        CatalogVersionNotice.check(ledger, projection: projection)
        return projection
    }

    /// Loads, catches up and saves. A reader (the ledger opened shared) that cannot save it,
    /// because the directory or the file is read-only, goes on with the projection in memory,
    /// folded from the log as a save would have stored it, and says so once (docs/ledger-cli.md
    /// "A busy ledger and a read-only one").
    @discardableResult
    static func update(_ ledger: Ledger) throws -> CompletionsProjection {
        var projection = try load(ledger)
        do {
            try ProjectionStore.save(&projection, ledger: ledger)
        } catch let error as LedgerError where ledger.lockMode == .shared && isReadOnly(error) {
            if !saidInMemory {
                saidInMemory = true
                Terminal.error("note: the ledger directory is read-only; the projection was computed in memory")
            }
        }
        return projection
    }

    nonisolated(unsafe) private static var saidInMemory = false

    /// A refusal to write: permissions, a read-only file system, or SQLite's "readonly database".
    private static func isReadOnly(_ error: LedgerError) -> Bool {
        switch error.cause {
        case .errno(let code): return code == EACCES || code == EROFS || code == EPERM
        case .sqlite(let code): return code & 0xFF == 8 || code & 0xFF == 14   // SQLITE_READONLY, SQLITE_CANTOPEN
        default: return false
        }
    }
}
