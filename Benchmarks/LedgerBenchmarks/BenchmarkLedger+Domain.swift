import LedgerCatalog
import LedgerCore
import LedgerSync

// The domain half of what the benchmarks drive: catalogue, projection rebuild, statistics and
// merge (BenchmarkLedger.swift has the storage half).

extension BenchmarkLedger {
    /// Imports a catalogue dump (as `oritsubushi catalog import` does, without carry-overs,
    /// which a benchmark history does not need).
    func importCatalog(dumpAt path: String, version: UInt32 = 176) throws {
        let statements = try SQLDumpSplitter.split(try PosixFileSystem().readFile(path), file: path)
        let projection = try ProjectionStore.load(ledger)
        let importer = try CatalogImporter(ledgerDirectory: directory, file: path, statements: statements,
                                           version: version, projection: projection)
        try importer.commit()
    }

    /// Rebuilds projection.sqlite from the whole log (`oritsubushi rebuild`); returns the
    /// number of stations it holds.
    func rebuildProjection() throws -> Int {
        try ProjectionStore.rebuild(ledger).stationCount
    }

    /// Merges every event of `other` this ledger lacks (`oritsubushi merge`); returns how many
    /// came in.
    func merge(from other: BenchmarkLedger) throws -> Int {
        try LedgerMerger.merge(from: other.ledger, into: ledger).eventsIn
    }

    /// The catalogue and the current projection, loaded once, for the statistics benchmarks.
    func statistics() throws -> BenchmarkStatistics {
        guard let catalog = try CatalogStore.open(ledgerDirectory: directory) else {
            throw LedgerError(.missingLedger, "the benchmark ledger has no catalogue; call importCatalog first")
        }
        return BenchmarkStatistics(engine: StatisticsEngine(catalog: try catalog.loadSnapshot(),
                                                            projection: try ProjectionStore.update(ledger)))
    }
}
