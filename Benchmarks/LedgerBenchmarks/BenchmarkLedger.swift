import Foundation
import LedgerCore

/// A ledger on disk in a scratch directory, removed on `close()`: the storage half of what the
/// benchmarks drive (BenchmarkLedger+Domain.swift has catalogue, projection, statistics, merge).
final class BenchmarkLedger {
    let ledger: Ledger
    let directory: String

    /// Creates an empty ledger in a new scratch directory under the system's temporary directory.
    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("oritsubushi-benchmark-\(UUID().uuidString)").path
        ledger = try Ledger.create(directory: directory, deviceName: "benchmark")
    }

    /// Appends a whole history as replicated events in batches of `batchSize` (one fsync each).
    /// Only works once per history and ledger (seqs must continue).
    func append(_ history: SyntheticHistory, batchSize: Int = 100_000) throws {
        var start = 0
        while start < history.records.count {
            let end = min(history.records.count, start + batchSize)
            try ledger.append(history.records[start..<end])
            start = end
        }
    }

    /// Appends the first `count` records of `history` (with `append`, the rest can follow).
    func append(_ history: SyntheticHistory, first count: Int) throws {
        try ledger.append(history.records[..<min(count, history.records.count)])
    }

    /// One durable local edit: encode, compress, write, fsync.
    func appendOne(station: UInt32) throws {
        try ledger.appendLocal([StationEditDraft(station: station, compDate: .day(2024, 5, 1))])
    }

    /// Replays every record; returns the number of events and a checksum.
    func replay() throws -> (events: Int, checksum: UInt64) {
        var events = 0
        var sum: UInt64 = 0
        try ledger.forEachRecord { view, _ in
            guard let e = view.stationEdit else { return }
            events += 1
            sum &+= e.hlc.rawValue &+ UInt64(e.station) &+ UInt64(e.compDateCode)
        }
        return (events, sum)
    }

    /// Reads every frame and checks every checksum and seq (`oritsubushi verify`).
    func verify() throws -> Int { Int(try ledger.verify().events) }

    func close() {
        ledger.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
