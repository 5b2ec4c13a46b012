import LedgerCore
import LedgerGenerator

/// A generated history held in memory (see `oritsubushi generate`).
struct SyntheticHistory {
    let records: [LedgerRecord]
    let devices: [(DeviceID, UInt64)]

    /// `events` station edits from `devices` devices, along the lines of the catalogue dump at
    /// `catalogDump` (stations-176.sql) or, without one, synthetic lines.
    init(events: Int, devices: Int = 3, seed: UInt64 = 1, catalogDump: String? = nil) throws {
        let lines = try catalogDump.map { try LineCatalog.load(dumpAt: $0) } ?? .synthetic()
        self.init(events: events, devices: devices, seed: seed, lines: lines)
    }

    /// `events` station edits from `devices` devices, with synthetic lines.
    init(events: Int, devices: Int = 3, seed: UInt64 = 1) {
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

    /// The raw record stream of every record (what one frame's content holds).
    func encoded() -> EncodedRecords {
        var encoder = RecordEncoder(reservingCapacity: records.count * 48)
        for record in records { encoder.append(record) }
        return EncodedRecords(bytes: encoder.bytes)
    }

    /// Encodes every record into a reused encoder; returns the byte count.
    func encode(into encoder: inout RecordEncoder) -> Int {
        encoder.removeAll()
        for record in records { encoder.append(record) }
        return encoder.bytes.count
    }
}
