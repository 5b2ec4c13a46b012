import LedgerCatalog
import LedgerCore
import LedgerSync

// The facade's domain half: catalogue, projection rebuild, statistics and merge, for the
// benchmarks of issue 5 that go beyond the core (see BenchmarkSupport.swift for why a facade).

extension BenchmarkLedger {
    /// Imports a catalogue dump (as `oritsubushi catalog import` does, without carry-overs,
    /// which a benchmark history does not need).
    public func importCatalog(dumpAt path: String, version: UInt32 = 176) throws {
        let statements = try SQLDumpSplitter.split(try PosixFileSystem().readFile(path), file: path)
        let projection = try ProjectionStore.load(ledger)
        let importer = try CatalogImporter(ledgerDirectory: directory, file: path, statements: statements,
                                           version: version, projection: projection)
        try importer.commit()
    }

    /// Rebuilds projection.sqlite from the whole log (`oritsubushi rebuild`); returns the
    /// number of stations it holds.
    @discardableResult
    public func rebuildProjection() throws -> Int {
        try ProjectionStore.rebuild(ledger).stationCount
    }

    /// Merges every event of `other` this ledger lacks (`oritsubushi merge`); returns how many
    /// came in.
    @discardableResult
    public func merge(from other: BenchmarkLedger) throws -> Int {
        try LedgerMerger.merge(from: other.ledger, into: ledger).eventsIn
    }

    /// The catalogue and the current projection, loaded once, for the statistics benchmarks.
    public func statistics() throws -> BenchmarkStatistics {
        guard let catalog = try CatalogStore.open(ledgerDirectory: directory) else {
            throw LedgerError(.missingLedger, "the benchmark ledger has no catalogue; call importCatalog first")
        }
        return BenchmarkStatistics(engine: StatisticsEngine(catalog: try catalog.loadSnapshot(),
                                                            projection: try ProjectionStore.update(ledger)))
    }
}

/// The statistics engine over a loaded catalogue and projection.
public struct BenchmarkStatistics {
    let engine: StatisticsEngine

    /// The names of the hierarchies (`stats operators|prefectures|yomi|dates`).
    public static let hierarchies = StatsHierarchy.allCases.map(\.rawValue)

    /// The top level of `hierarchy` and the first group of every level below it, as
    /// `oritsubushi stats` walks them; returns the number of groups and stations reported.
    public func walk(_ hierarchy: String) throws -> Int {
        guard let h = StatsHierarchy(rawValue: hierarchy) else {
            throw LedgerError(.usage, "no statistics hierarchy named \(hierarchy)")
        }
        var path: [String] = []
        var reported = 0
        while true {
            let report = try engine.report(h, path: path)
            reported += (report.groups?.count ?? 0) + (report.stations?.count ?? 0)
            guard let first = report.groups?.first else { return reported }
            path.append(first.key)
        }
    }
}
