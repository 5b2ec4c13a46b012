/// Whether the log refers to a catalogue newer than the one this ledger applied: a merge or a
/// sync brought the catalogue-version event of a device running a newer build (or a replica made
/// with `init --no-catalog` has none yet). Statistics on the older catalogue would count the
/// wrong stations, so every command says so (docs/ledger-cli.md, "Catalogue versions across devices").
package struct CatalogVersionCheck: Equatable, Sendable {
    /// The catalogue in `catalog.sqlite` (0: none).
    package var applied: Int64
    /// The newest catalogue-version event in the log, if any.
    package var logVersion: UInt32?

    package init(applied: Int64, logVersion: UInt32?) {
        (self.applied, self.logVersion) = (applied, logVersion)
    }

    package init(applied: Int64, projection: CompletionsProjection) {
        self.init(applied: applied, logVersion: projection.catalogVersions.max())
    }

    package var isBehind: Bool {
        guard let logVersion else { return false }
        return Int64(logVersion) > applied
    }

    /// The command that brings the catalogue up: the bundled one when it is that version,
    /// else the dump the other device imported.
    package var remedy: String {
        guard let logVersion, logVersion != BundledCatalog.version else { return "oritsubushi catalog import" }
        return "oritsubushi catalog import stations-\(logVersion).sql"
    }

    /// The one-sentence notice, or `nil` when the ledger is up to date.
    package var notice: String? {
        guard isBehind, let logVersion else { return nil }
        let uses = applied > 0 ? "this ledger uses \(applied)" : "this ledger has no catalogue"
        return "the log refers to catalogue \(logVersion); \(uses): run `\(remedy)`"
    }
}
