import LedgerCore
import LedgerSync
import LedgerTestSupport
import Testing

/// Frames are stored as they come (Schemas/sync-frames.md): when a receiver takes every record of
/// a frames body in its order, the frames' bytes go into its segment unchanged, and the ledger
/// reads back as if the records had been encoded again; otherwise the records are encoded again.
@Suite("Frames stored as they come")
struct FramesStoredAsTheyComeTests {
    static let phone = DeviceID(rawValue: 0x7070_7070_7070_7070)
    static let tablet = DeviceID(rawValue: 0x7171_7171_7171_7171)

    static func edit(_ device: DeviceID, _ seq: UInt64) -> LedgerRecord {
        .stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: HybridTimestamp(milliseconds: 1_700_000_000_000 + Int64(seq)),
                                 station: UInt32(100 + seq % 50), compDate: .day(2020, 1, Int(seq % 28) + 1),
                                 memo: seq % 3 == 0 ? "メモ\(seq)" : nil, origin: .user))
    }

    /// Two devices interleaved, each in seq order, with their names: several frames.
    static func received(_ seqs: ClosedRange<UInt64>, names: Bool = true) throws -> EncodedRecords {
        var records: [LedgerRecord] = []
        if names {
            records.append(.deviceName(DeviceNameRecord(device: phone, hlc: HybridTimestamp(milliseconds: 1_600_000_000_000), name: "phone")))
        }
        for seq in seqs { records += [edit(phone, seq), edit(tablet, seq)] }
        if names {
            records.append(.deviceName(DeviceNameRecord(device: tablet, hlc: HybridTimestamp(milliseconds: 1_600_000_000_001), name: "tablet")))
        }
        let body = try FramesBody.encode(header: PushFramesHeader(count: records.count), records: EncodedRecords(records),
                                         writer: RecordFrames.Writer())
        return try FramesBody.decode(body, as: PushFramesHeader.self, maximumRecords: 1_000_000).1
    }

    static func options() -> MergeOptions {
        var options = MergeOptions()
        options.writesKnowledgeMarks = false
        options.countsConflicts = false
        return options
    }

    static func segmentBytes(_ ledger: Ledger) throws -> [UInt8] {
        try ledger.segments.flatMap { try PosixFileSystem().readFile($0.path) }
    }

    @Test("a body taken whole is stored byte for byte and reads back as its records")
    func takenWhole() throws {
        let dir = try TemporaryDirectory("verbatim")
        defer { dir.remove() }
        let ledger = try Ledger.create(directory: dir.sub("l"), deviceName: "server")
        defer { ledger.close() }
        let received = try Self.received(1...30_000)
        let frames = try #require(received.frames)
        #expect(frames.frameCount >= 2)
        let admitted = try LedgerMerger.prepare(received, for: ledger, options: Self.options())
        let report = try LedgerMerger.apply(admitted, to: ledger, options: Self.options())
        #expect(report.eventsIn == 60_000 && report.namesIn == 2 && report.batches == 1)
        let stored = try Self.segmentBytes(ledger)
        #expect(stored.firstRange(of: frames.bytes) != nil, "the frames are in the segment unchanged")
        let expected = received.records
        let back = try ledger.allRecords().filter { record in
            if case .deviceName(let name) = record { return name.device != ledger.localDevice }
            return true
        }
        #expect(back == expected)
        ledger.close()
        let reopened = try Ledger.open(directory: dir.sub("l"))
        defer { reopened.close() }
        #expect(try reopened.verify().events == 60_000)
        #expect(reopened.versionVector[Self.phone] == 30_000 && reopened.deviceNames[Self.tablet]?.name == "tablet")
    }

    @Test("a body with held copies, older names or seqs out of order is encoded again, with the same records",
          arguments: ["copies", "older name", "out of order"])
    func notTakenWhole(_ why: String) throws {
        let dir = try TemporaryDirectory("reencoded")
        defer { dir.remove() }
        let ledger = try Ledger.create(directory: dir.sub("l"), deviceName: "server")
        defer { ledger.close() }
        var received: EncodedRecords
        switch why {
        case "copies":
            try LedgerMerger.apply(try LedgerMerger.prepare(try Self.received(1...10, names: false), for: ledger, options: Self.options()),
                                   to: ledger, options: Self.options())
            received = try Self.received(1...3_000)
        case "older name":
            try ledger.append([.deviceName(DeviceNameRecord(device: Self.phone, hlc: HybridTimestamp(milliseconds: 1_700_000_000_000),
                                                                      name: "newer"))])
            received = try Self.received(1...3_000)
        default:
            var records = [Self.edit(Self.phone, 2), Self.edit(Self.phone, 1)]
            records += (3...3_000).map { Self.edit(Self.phone, $0) }
            let body = try FramesBody.encode(header: PushFramesHeader(count: records.count), records: EncodedRecords(records),
                                             writer: RecordFrames.Writer())
            received = try FramesBody.decode(body, as: PushFramesHeader.self, maximumRecords: 1_000_000).1
        }
        let frames = try #require(received.frames)
        let admitted = try LedgerMerger.prepare(received, for: ledger, options: Self.options())
        try LedgerMerger.apply(admitted, to: ledger, options: Self.options())
        #expect(try Self.segmentBytes(ledger).firstRange(of: frames.bytes) == nil, "encoded again")
        #expect(try ledger.verify().events == (why == "out of order" ? 3_000 : 6_000))
        #expect(ledger.versionVector[Self.phone] == 3_000)
    }
}
