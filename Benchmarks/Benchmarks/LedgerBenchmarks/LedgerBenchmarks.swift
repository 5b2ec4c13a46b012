import Benchmark
import _LedgerBenchmarkSupport

// Micro-benchmarks of the ledger core, with allocation counts so that regressions show.
// Tools/bench holds the side-by-side comparison with SQLite and lz4 (BENCHMARKS.md).

/// State shared between a benchmark's setup and its closure (the runner is single-threaded).
nonisolated(unsafe) var history: SyntheticHistory?
nonisolated(unsafe) var encoded: EncodedRecords?
nonisolated(unsafe) var ledger: BenchmarkLedger?

let events = 100_000

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident, .throughput],
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 50)

    Benchmark("Event encode (100k station edits)",
              configuration: .init(scalingFactor: .one)) { benchmark in
        var buffer = RecordBuffer(capacity: 8 << 20)
        benchmark.startMeasurement()
        blackHole(history!.encode(into: &buffer))
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

    Benchmark("Replay (100k events)") { _ in
        blackHole(try ledger!.replay())
    } setup: {
        ledger = try BenchmarkLedger()
        try ledger!.append(SyntheticHistory(events: events))
    } teardown: {
        ledger?.close()
        ledger = nil
    }

    Benchmark("Verify (100k events)") { _ in
        blackHole(try ledger!.verify())
    } setup: {
        ledger = try BenchmarkLedger()
        try ledger!.append(SyntheticHistory(events: events))
    } teardown: {
        ledger?.close()
        ledger = nil
    }
}
