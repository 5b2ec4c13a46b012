import ArgumentParser
import LedgerCatalog
import LedgerCore

/// Helpers shared by the catalogue, station, statistics and import/export commands.
enum CatalogSupport {
    /// Refuses an `s_id` that is not in the imported catalogue (exit 65). Without a catalogue
    /// every positive id is accepted.
    static func requireKnownStation(_ station: UInt32, ledger: Ledger) throws {
        if let catalog = try CatalogStore.open(ledgerDirectory: ledger.directory) {
            try catalog.requireStation(station)
        }
    }

    /// The catalogue, or the documented "no catalogue" error (exit 66, like a missing input).
    static func requireCatalog(_ ledger: Ledger) throws -> CatalogStore {
        guard let catalog = try CatalogStore.open(ledgerDirectory: ledger.directory) else {
            throw LedgerError(.missingLedger, "this ledger has no station catalogue yet; import the bundled one with 'oritsubushi catalog import' (or a dump with 'oritsubushi catalog import FILE.sql')")
        }
        return catalog
    }

    /// The current projection, brought up to date and saved; or, with `--as-of`, the state at
    /// that time folded in memory (the stored projection is not touched).
    static func projection(_ ledger: Ledger, asOf: String?) throws -> CompletionsProjection {
        if let asOf {
            let projection = try CompletionsProjection.fold(ledger, asOf: try parseTime(asOf, option: "--as-of"))
            CatalogVersionNotice.check(ledger, projection: projection)
            return projection
        }
        return try ProjectionUpdater.update(ledger)
    }

    /// An ISO 8601 time (without an offset: Japan time) or Unix seconds (`TypedTime`). Every event of that
    /// millisecond is included. Commands call it from `validate()` too, so a bad time is a
    /// usage error before anything is opened.
    static func parseTime(_ text: String, option: String) throws(ValidationError) -> HybridTimestamp {
        guard let ms = TypedTime.milliseconds(text) else {
            throw ValidationError("\(option) '\(text)' is not an ISO 8601 time or Unix seconds")
        }
        return HybridTimestamp(milliseconds: ms, counter: UInt16.max)
    }

    static func readInput(_ path: String) throws -> [UInt8] {
        let fs = PosixFileSystem()
        guard fs.fileExists(path), !fs.directoryExists(path) else {
            throw LedgerError(.missingLedger, "cannot read \(path): no such file")
        }
        return try fs.readFile(path)
    }
}
