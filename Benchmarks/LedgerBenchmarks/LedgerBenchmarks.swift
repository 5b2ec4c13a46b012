import Benchmark
import LedgerCatalog
import LedgerCore
#if canImport(Glibc)
import Glibc
#endif

// Micro-benchmarks of the ledger core, with allocation counts so that regressions show.
// Tools/bench holds the side-by-side comparison with SQLite and lz4 (BENCHMARKS.md).

/// State shared between a benchmark's setup and its closure (the runner is single-threaded).
nonisolated(unsafe) var history: SyntheticHistory?
nonisolated(unsafe) var encoded: EncodedRecords?
nonisolated(unsafe) var ledger: BenchmarkLedger?
nonisolated(unsafe) var source: BenchmarkLedger?
nonisolated(unsafe) var statistics: BenchmarkStatistics?
nonisolated(unsafe) var mapEntries: [MapIndex.Entry] = []

/// The real catalogue (../shared/data beside the repository) when present, else the repository's
/// small sample, so that station ids and statistics groups are the real ones.
let catalogDump: String = {
    // Benchmarks/LedgerBenchmarks/LedgerBenchmarks.swift → the repository.
    let root = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
    let real = "/" + root + "/../shared/data/stations-176.sql"
    return access(real, R_OK) == 0 ? real : "/" + root + "/Tools/sample-catalog-176.sql"
}()

/// A ledger with the catalogue and `events` events of a history along its lines.
func catalogueLedger(events: Int) throws -> BenchmarkLedger {
    let target = try BenchmarkLedger()
    try target.importCatalog(dumpAt: catalogDump)
    try target.append(try SyntheticHistory(events: events, catalogDump: catalogDump))
    return target
}

let events = 100_000

/// A benchmark that reads a ledger holding `events` generated events, made once in its setup.
func readingBenchmark(_ name: String, _ body: @escaping (BenchmarkLedger) throws -> Void) {
    Benchmark(name) { _ in
        try body(ledger!)
    } setup: {
        ledger = try BenchmarkLedger()
        try ledger!.append(SyntheticHistory(events: events))
    } teardown: {
        ledger?.close()
        ledger = nil
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident, .throughput],
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 50)

    Benchmark("Event encode (100k station edits)",
              configuration: .init(scalingFactor: .one)) { benchmark in
        var encoder = RecordEncoder(reservingCapacity: 8 << 20)
        benchmark.startMeasurement()
        blackHole(history!.encode(into: &encoder))
    } setup: {
        history = SyntheticHistory(events: events)
    } teardown: {
        history = nil
    }

    Benchmark("Event decode and validate (100k records)") { _ in
        blackHole(try encoded!.decodeAll())
    } setup: {
        encoded = SyntheticHistory(events: events).encoded()
    } teardown: {
        encoded = nil
    }

    Benchmark("Batched append (100k events, durable)") { benchmark in
        // A fresh ledger per iteration: seqs must start at 1.
        let target = try BenchmarkLedger()
        benchmark.startMeasurement()
        try target.append(history!)
        benchmark.stopMeasurement()
        target.close()
    } setup: {
        history = SyntheticHistory(events: events)
    } teardown: {
        history = nil
    }

    Benchmark("Durable single append (1 event, fsync)",
              configuration: .init(maxIterations: 200)) { _ in
        try ledger!.appendOne(station: 120_001)
    } setup: {
        ledger = try BenchmarkLedger()
    } teardown: {
        ledger?.close()
        ledger = nil
    }

    readingBenchmark("Replay (100k events)") { blackHole(try $0.replay()) }

    Benchmark("Projection rebuild (100k events)") { _ in
        blackHole(try ledger!.rebuildProjection())
    } setup: {
        ledger = try catalogueLedger(events: events)
    } teardown: {
        ledger?.close()
        ledger = nil
    }

    for hierarchy in StatsHierarchy.allCases {
        Benchmark("Stats \(hierarchy.rawValue) (every level, 100k events)") { _ in
            blackHole(try statistics!.walk(hierarchy))
        } setup: {
            ledger = try catalogueLedger(events: events)
            statistics = try ledger!.statistics()
        } teardown: {
            statistics = nil
            ledger?.close()
            ledger = nil
        }
    }

    // The pin query as `map` runs it: the index of every enabled station, then one city view.
    Benchmark("Map pin query (index + a 0.1° Tokyo view, limit 100)") { _ in
        let index = MapIndex(mapEntries, limit: 100)
        blackHole(index.query(MapBox(south: 35_631_000, west: 139_717_000, north: 35_731_000, east: 139_817_000)).pins.count)
    } setup: {
        let target = try BenchmarkLedger()
        defer { target.close() }
        try target.importCatalog(dumpAt: catalogDump)
        let catalog = try CatalogStore.open(target.ledger)
        defer { catalog?.close() }
        mapEntries = try catalog?.mapEntries() ?? []
    } teardown: {
        mapEntries = []
    }

    Benchmark("Merge (the second 50k of 100k events)", configuration: .init(maxIterations: 20)) { benchmark in
        // A fresh receiver per iteration, holding the first half.
        let target = try BenchmarkLedger()
        try target.append(history!, first: events / 2)
        benchmark.startMeasurement()
        blackHole(try target.merge(from: source!))
        benchmark.stopMeasurement()
        target.close()
    } setup: {
        history = SyntheticHistory(events: events)
        source = try BenchmarkLedger()
        try source!.append(history!)
    } teardown: {
        source?.close()
        source = nil
        history = nil
    }

    readingBenchmark("Verify (100k events)") { blackHole(try $0.verify()) }
}
