import LedgerCore
@testable import LedgerSync
import Testing
import LedgerTestSupport

/// The one admission (`MergeAdmission`, Schemas/merge.md §2) seen from what it receives: any
/// arrival order, copies of held and of new events, names; and each refusal once.
@Suite("Merge admission: one type for every path")
struct MergeAdmissionTests {
    static let devices = [DeviceID(rawValue: 0x11), DeviceID(rawValue: 0x22), DeviceID(rawValue: 0x33)]

    static func edit(_ device: DeviceID, _ seq: UInt64, station: UInt32 = 1, memo: String? = nil) -> LedgerRecord {
        .stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: HybridTimestamp(milliseconds: 1_700_000_000_000 + Int64(seq)),
                                 station: station, compDate: .unknown, memo: memo ?? "m\(seq)", origin: .user))
    }

    /// A receiver holding seqs 1…held of the first two devices.
    static func receiver(_ dir: TemporaryDirectory, held: UInt64) throws -> Ledger {
        let ledger = try Ledger.create(directory: dir.sub("r"), deviceName: "receiver", clock: DeviceClock())
        try ledger.append(devices.prefix(2).flatMap { d in (1...held).map { edit(d, $0) } })
        return ledger
    }

    @Test("any arrival order, with copies of held and of new events, admits the same sorted events",
          arguments: 1...12 as ClosedRange<UInt64>)
    func arrivalOrderDoesNotMatter(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let dir = try TemporaryDirectory("admission-\(seed)")
        defer { dir.remove() }
        let held = UInt64.random(in: 1...5, using: &random)
        let ledger = try Self.receiver(dir, held: held)
        defer { ledger.close() }
        var fresh: [LedgerRecord] = []
        for device in Self.devices {
            let from = device == Self.devices[2] ? 1 : held + 1
            fresh += (from..<(from + UInt64.random(in: 0...6, using: &random))).map { Self.edit(device, $0) }
        }
        let heldCopies = (1...held).map { Self.edit(Self.devices[Int.random(in: 0...1, using: &random)], $0) }
        let newCopies = fresh.filter { _ in Bool.random(using: &random) }
        let names = [DeviceNameRecord(device: Self.devices[2], hlc: HybridTimestamp(milliseconds: 1_700_000_000_000), name: "old"),
                     DeviceNameRecord(device: Self.devices[2], hlc: HybridTimestamp(milliseconds: 1_700_000_000_001), name: "new")]
        let received = (fresh + heldCopies + newCopies + names.map(LedgerRecord.deviceName)).shuffled(using: &random)

        let admitted = try LedgerMerger.prepare(received, for: ledger)
        #expect(admitted.events == fresh, "sorted by (device, seq), each once")
        #expect(admitted.duplicates == heldCopies.count)
        #expect(admitted.names.map(\.name) == ["new"])

        // The same records received as encoded views are admitted byte for byte alike.
        var viewAdmission = MergeAdmission(into: .init(ledger), options: MergeOptions())
        for record in received {
            var encoder = RecordEncoder()
            encoder.append(record)
            try encoder.bytes.withUnsafeBytes { try viewAdmission.receive(RecordView(validated: $0.baseAddress!, length: $0.count)) }
        }
        try viewAdmission.checkStored(in: ledger)
        let fromViews = try viewAdmission.admit()
        var left: [[UInt8]] = [], right: [[UInt8]] = []
        admitted.forEachEvent { left.append(Array(UnsafeRawBufferPointer(start: $0.base, count: $0.length))) }
        fromViews.forEachEvent { right.append(Array(UnsafeRawBufferPointer(start: $0.base, count: $0.length))) }
        #expect(left == right)

        // Appending it continues every device: the ledger then holds exactly the union.
        try LedgerMerger.apply(admitted, to: ledger)
        #expect(ledger.versionVector[Self.devices[2]] == fresh.filter { $0.device == Self.devices[2] }.map { $0.eventID!.seq }.max())
    }

    enum Refusal: String, CaseIterable {
        case heldCopyDiffers, newIDTwice, seqGap, clockAhead, unknownStation
    }

    @Test("each refusal is stated once, with its category and cause, and writes nothing", arguments: Refusal.allCases)
    func refusals(_ refusal: Refusal) throws {
        let dir = try TemporaryDirectory("refusal-\(refusal)")
        defer { dir.remove() }
        let ledger = try Self.receiver(dir, held: 2)
        defer { ledger.close() }
        var options = MergeOptions()
        let d = Self.devices[0]
        let records: [LedgerRecord]
        switch refusal {
        case .heldCopyDiffers: records = [Self.edit(d, 2, memo: "forged")]
        case .newIDTwice: records = [Self.edit(d, 3), Self.edit(d, 3, memo: "other")]
        case .seqGap: records = [Self.edit(d, 4)]
        case .clockAhead:
            let far = ledger.clock.nowMilliseconds() + 2 * 86_400_000
            records = [.stationEdit(StationEdit(id: EventID(device: d, seq: 3), hlc: HybridTimestamp(milliseconds: far),
                                                station: 1, compDate: .unknown, memo: "x", origin: .user))]
        case .unknownStation:
            options.stations = StationSet([1, 2])
            records = [Self.edit(d, 3, station: 9)]
        }
        let before = try directorySnapshot(dir.sub("r"))
        let error = try #require(throws: LedgerError.self) {
            let admitted = try LedgerMerger.prepare(records, for: ledger, options: options)
            try LedgerMerger.apply(admitted, to: ledger, options: options)
        }
        switch refusal {
        case .heldCopyDiffers:
            #expect(error.cause == .differingEvent(EventID(device: d, seq: 2)))
        case .newIDTwice:
            #expect(error.category == .conflict && error.cause == .differingWithin(EventID(device: d, seq: 3)))
        case .seqGap:
            #expect(error.category == .conflict && error.cause == .seqGap(SeqGap(device: d, held: 2, found: 4)))
        case .clockAhead:
            #expect(error.category == .conflict && error.cause == .clockAhead)
        case .unknownStation:
            #expect(error.category == .badInput && error.cause == .unknownStation(EventID(device: d, seq: 3)))
        }
        #expect(try directorySnapshot(dir.sub("r")) == before)
    }
}
