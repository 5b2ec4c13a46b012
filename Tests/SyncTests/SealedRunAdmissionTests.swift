import LedgerCore
import LedgerSync
import Testing

/// The admission of sealed runs (kind 7) without the key (Schemas/encryption.md §10, "Sealed
/// runs"), and a repair's tiling of the seqs it needs by runs and single sealed events
/// (`RecordPool`, §11 "Repairing a sealed log").
@Suite("Admitting and repairing sealed runs without the key")
struct SealedRunAdmissionTests {
    static let phone = DeviceID(rawValue: 0xa1), laptop = DeviceID(rawValue: 0xb2)

    static func events(_ device: DeviceID, _ seqs: ClosedRange<UInt64>, memo: String? = nil) -> [UInt8] {
        seqs.flatMap { seq in
            RecordEncoder.bytes(of: .stationEdit(StationEdit(
                id: EventID(device: device, seq: seq), hlc: HybridTimestamp(milliseconds: 1_764_000_000_000 + Int64(seq), counter: 0),
                station: 1_130_101 + UInt32(seq), compDate: .day(2024, 5, 1), memo: memo, origin: .user)))
        }
    }

    static func run(_ device: DeviceID, _ seqs: ClosedRange<UInt64>, memo: String? = nil, key: DataKey = SealedAdmissionTests.epoch2) throws -> SealedRecord {
        try events(device, seqs, memo: memo).withUnsafeBytes {
            try RunSealer().seal($0, device: device, first: seqs.lowerBound, last: seqs.upperBound, with: key)
        }
    }

    /// Admits `batch` into an account at epoch 2 holding `held`; `stored` are the stored records,
    /// each checked when it holds an id the admission asks for (as the stores look them up).
    static func admit(_ batch: [SealedRecord], held: [DeviceID: UInt64] = [:], stored: [SealedRecord] = []) throws -> SealedAdmission.Admitted {
        var admission = SealedAdmission(into: .init(epoch: 2, held: held, names: []))
        try SealedAdmissionTests.views(batch) { try admission.receive($0) }
        let wanted = admission.heldIDs
        try SealedAdmissionTests.views(stored) { view in
            if wanted.contains(where: { $0.device == view.device && view.holds(seq: $0.seq) }) { try admission.checkStored(view) }
        }
        return try admission.admit()
    }

    @Test("new runs continue their devices: appended as received; one that overlaps what is held or skips a seq is a gap")
    func newRuns() throws {
        let admitted = try Self.admit([try Self.run(Self.phone, 1...10), try Self.run(Self.laptop, 4...6), try Self.run(Self.phone, 11...12)],
                                      held: [Self.laptop: 3])
        #expect(admitted.events.map { "\($0.device):\($0.firstSeq)-\($0.seq)" }
                == ["\(Self.phone):1-10", "\(Self.laptop):4-6", "\(Self.phone):11-12"])
        // Out of order, they are sorted by (device, first).
        let sorted = try Self.admit([try Self.run(Self.phone, 11...12), try Self.run(Self.phone, 1...10)])
        #expect(sorted.events.map(\.firstSeq) == [1, 11])
        #expect(admitted.duplicates == 0 && admitted.appendedCount == 15, "a run's every event counts as appended")
        let overlapping = SealedAdmissionTests.cause { _ = try Self.admit([try Self.run(Self.phone, 5...12)], held: [Self.phone: 8]) }
        #expect(overlapping == .seqGap(SeqGap(device: Self.phone, held: 8, found: 5)))
        let skipping = SealedAdmissionTests.cause { _ = try Self.admit([try Self.run(Self.phone, 10...12)], held: [Self.phone: 8]) }
        #expect(skipping == .seqGap(SeqGap(device: Self.phone, held: 8, found: 10)))
        let twoContents = SealedAdmissionTests.cause {
            _ = try Self.admit([try Self.run(Self.phone, 1...3), try Self.run(Self.phone, 1...3, memo: "別")])
        }
        #expect(twoContents == .differingWithin(EventID(device: Self.phone, seq: 3)))
    }

    @Test("a held run received again: a duplicate of every event when identical, a fork when it differs with the same bounds, uncompared with other bounds")
    func heldRuns() throws {
        let stored = try Self.run(Self.phone, 1...10)
        let again = try Self.admit([stored], held: [Self.phone: 10], stored: [stored])
        #expect(again.events.isEmpty && again.duplicates == 10)
        let forked = SealedAdmissionTests.cause {
            _ = try Self.admit([try Self.run(Self.phone, 1...10, memo: "別の記録")], held: [Self.phone: 10], stored: [stored])
        }
        #expect(forked == .differingEvent(EventID(device: Self.phone, seq: 10)))
        // Another cut of held events (a kind-5 event, a shorter run) holds other events too: the
        // server cannot compare it without the key; the devices' own fork checks do (§11).
        let otherCut = try Self.admit([try Self.run(Self.phone, 4...6, memo: "別"), try SealedAdmissionTests.edit(Self.phone, 10, memo: "別")],
                                      held: [Self.phone: 10], stored: [stored])
        #expect(otherCut.events.isEmpty && otherCut.duplicates == 4)
        let underOldEpoch = try Self.admit([try Self.run(Self.phone, 1...10, memo: "別", key: SealedAdmissionTests.epoch1)],
                                           held: [Self.phone: 10], stored: [stored])
        #expect(underOldEpoch.duplicates == 10)
        let stale = SealedAdmissionTests.cause { _ = try Self.admit([try Self.run(Self.phone, 1...3, key: SealedAdmissionTests.epoch1)]) }
        #expect(stale == .staleEpoch(current: 2, found: 1))
        let unknown = SealedAdmissionTests.cause { _ = try Self.admit([try Self.run(Self.phone, 1...3, key: DataKey.random(epoch: 3))]) }
        #expect(unknown == .unknownEpoch(current: 2, found: 3))
    }

    @Test("a repair tiles the seqs it needs by runs and single events that hold nothing else, and refuses a run that reaches outside them")
    func tiling() throws {
        var pool = RecordPool<SealedRecord>()
        let singles = try (1...20 as ClosedRange<UInt64>).map { try SealedAdmissionTests.edit(Self.phone, $0) }
        try pool.add([try Self.run(Self.phone, 1...8), try Self.run(Self.phone, 9...20)], from: "export")
        let exact = pool.tiling(of: Self.phone, seqs: 9...20)
        #expect(exact.records.map { "\($0.firstSeq)-\($0.seq)" } == ["9-20"] && exact.next == 21)
        // 5–12 cuts both runs: without single events it cannot be tiled.
        #expect(pool.tiling(of: Self.phone, seqs: 5...12).next == 5)
        try pool.add(singles, from: "replica")
        let mixed = pool.tiling(of: Self.phone, seqs: 5...12)
        #expect(mixed.next == 13 && mixed.records.count == 8 && mixed.records.allSatisfy { $0.kind == .event })
        let whole = pool.tiling(of: Self.phone, seqs: 1...20)
        #expect(whole.records.map { "\($0.firstSeq)-\($0.seq)" } == ["1-8", "9-20"], "the longest record first")
        // Two copies of one run under one epoch must agree.
        #expect(throws: LedgerError.self) { try pool.add([try Self.run(Self.phone, 1...8, memo: "偽")], from: "forged") }
    }
}
