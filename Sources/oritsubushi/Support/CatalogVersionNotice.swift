import LedgerCatalog
import LedgerCore

/// Prints `CatalogVersionCheck`'s notice on stderr, at most once per command, whenever a command
/// loads the projection (which knows the log's catalogue versions). `catalog import` and
/// `catalog status` report it themselves and silence it.
enum CatalogVersionNotice {
    nonisolated(unsafe) static var silenced = false
    nonisolated(unsafe) private static var said = false

    static func check(_ ledger: Ledger, projection: CompletionsProjection) {
        guard !silenced, !said else { return }
        let applied = (try? appliedVersion(ledger)) ?? 0
        guard let notice = CatalogVersionCheck(applied: applied, projection: projection).notice else { return }
        said = true
        Terminal.error("warning: \(notice)")
    }

    /// The version in `catalog.sqlite`, 0 without one.
    static func appliedVersion(_ ledger: Ledger) throws -> Int64 {
        guard let store = try CatalogStore.open(ledger) else { return 0 }
        defer { store.close() }
        return store.version
    }
}
