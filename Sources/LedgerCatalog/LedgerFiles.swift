/// The SQLite files this layer keeps inside a ledger directory, next to `ledger.json` and
/// `segments/` (Schemas/projection.md).
package enum LedgerFiles {
    /// The station catalogue in the original apps' schema (Schemas/catalog.sql); not derivable
    /// from the log, because the dumps are not in it.
    package static let catalog = "catalog.sqlite"
    /// The completions projection; derived, and rebuilt from the log at any time.
    package static let projection = "projection.sqlite"

    package static func path(_ name: String, in directory: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
