#if canImport(Glibc)
import Glibc
#endif
import LedgerCore
import LedgerGenerator

// A small public facade over the core for the separate Benchmarks/ package.
//
// The core's API is `package`-level, which another package cannot see, and the Benchmarks
// package must stay separate so that the root package (and CI) never build the benchmark plugin
// and its dependencies. The leading underscore marks this module as carrying no API promise:
// it exists only for Benchmarks/ and may change with the core at any time.

/// A generated history held in memory (see `oritsubushi generate`).
public struct SyntheticHistory {
    let records: [LedgerRecord]
    let devices: [(DeviceID, UInt64)]

    /// `events` station edits from `devices` devices, along the lines of the catalogue dump at
    /// `catalogDump` (stations-176.sql) or, without one, synthetic lines.
    public init(events: Int, devices: Int = 3, seed: UInt64 = 1, catalogDump: String? = nil) throws {
        let lines = try catalogDump.map { try LineCatalog.load(dumpAt: $0) } ?? .synthetic()
        self.init(events: events, devices: devices, seed: seed, lines: lines)
    }

    /// `events` station edits from `devices` devices, with synthetic lines.
    public init(events: Int, devices: Int = 3, seed: UInt64 = 1) {
        self.init(events: events, devices: devices, seed: seed, lines: .synthetic())
    }

    private init(events: Int, devices: Int, seed: UInt64, lines: LineCatalog) {
        var generator = HistoryGenerator(seed: seed, deviceCount: devices, catalog: lines, expectedEvents: events)
        var records = generator.deviceNameRecords()
        records.reserveCapacity(events + records.count)
        for _ in 0..<events { records.append(.stationEdit(generator.next())) }
        self.records = records
        self.devices = generator.devices.map { ($0.id, $0.seq) }
    }

    public var recordCount: Int { records.count }

    /// The raw record stream of every record (what one frame's content holds).
    public func encoded() -> EncodedRecords {
        var encoder = RecordEncoder(reservingCapacity: records.count * 48)
        for record in records { encoder.append(record) }
        return EncodedRecords(bytes: encoder.bytes)
    }

    /// Encodes every record into a reused buffer; returns the byte count.
    public func encode(into buffer: inout RecordBuffer) -> Int {
        buffer.encoder.removeAll()
        for record in records { buffer.encoder.append(record) }
        return buffer.encoder.bytes.count
    }
}

/// A reusable encoding buffer.
public struct RecordBuffer {
    var encoder = RecordEncoder()
    public init(capacity: Int) { encoder = RecordEncoder(reservingCapacity: capacity) }
}

/// Records already encoded, to measure decoding alone.
public struct EncodedRecords {
    let bytes: [UInt8]
    public var byteCount: Int { bytes.count }

    /// Validates and decodes every record (the replay's inner loop); returns a checksum.
    public func decodeAll() throws -> UInt64 {
        var sum: UInt64 = 0
        try bytes.withUnsafeBytes { buffer in
            try RecordStream.forEach(in: buffer) { view in
                sum &+= view.hlc.rawValue ^ view.device.rawValue
                if view.kind == .stationEdit { sum &+= UInt64(view.station) &+ UInt64(view.compDateCode) }
            }
        }
        return sum
    }
}

/// A ledger on disk in a scratch directory, removed on `close()`.
public final class BenchmarkLedger {
    let ledger: Ledger
    public let directory: String

    /// Creates an empty ledger in a new scratch directory under `parent` (default: $TMPDIR or /tmp).
    public init(parent: String? = nil) throws {
        let base = parent ?? (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp")
        var template = Array("\(base)/oritsubushi-benchmark-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw LedgerError(.io, "cannot create a scratch directory in \(base)")
        }
        directory = String(cString: template)
        ledger = try Ledger.create(directory: directory, deviceName: "benchmark")
    }

    /// Appends a whole history as replicated events in batches of `batchSize` (one fsync each).
    /// Only works once per history and ledger (seqs must continue).
    public func append(_ history: SyntheticHistory, batchSize: Int = 100_000) throws {
        var start = 0
        while start < history.records.count {
            let end = min(history.records.count, start + batchSize)
            try ledger.appendReplicated(history.records[start..<end])
            start = end
        }
    }

    /// Appends the first `count` records of `history` (with `append`, the rest can follow).
    public func append(_ history: SyntheticHistory, first count: Int) throws {
        try ledger.appendReplicated(history.records[..<min(count, history.records.count)])
    }

    /// One durable local edit: encode, compress, write, fsync.
    public func appendOne(station: UInt32) throws {
        try ledger.appendLocal([StationEditDraft(station: station, compDate: .day(2024, 5, 1))])
    }

    /// Replays every record; returns the number of events and a checksum.
    @discardableResult
    public func replay() throws -> (events: Int, checksum: UInt64) {
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
    public func verify() throws -> Int { Int(try ledger.verify().events) }

    public var bytesOnDisk: Int { ledger.bytesOnDisk }

    public func close() {
        ledger.close()
        _ = system("rm -rf '\(directory)'")
    }
}
