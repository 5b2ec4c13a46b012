import LedgerCore
import LedgerSync
import Testing
import LedgerTestSupport

@Suite("Merge rules: causality, clock skew, refusals, conflicts")
struct MergeRulesTests {
    static let hour: Int64 = 3_600_000

    @Test("the causally later edit wins, whichever clock is ahead", arguments: [5 * hour, -5 * hour, 20 * hour])
    func causallyLaterWins(skewOfFirst: Int64) throws {
        let dir = try TemporaryDirectory("skew")
        defer { dir.remove() }
        let first = try Ledger.create(directory: dir.sub("a"), deviceName: "skewed", clock: DeviceClock(skew: skewOfFirst))
        let second = try Ledger.create(directory: dir.sub("b"), deviceName: "right", clock: DeviceClock())
        defer { first.close(); second.close() }
        _ = try first.edit(202_919, date: .day(2020, 1, 1), memo: "first")
        try LedgerMerger.merge(from: first, into: second)
        _ = try second.edit(202_919, date: .day(2021, 1, 1), memo: "second, after seeing first")
        try LedgerMerger.merge(from: second, into: first)
        for ledger in [first, second] {
            let state = try #require(try ledger.projection()[202_919])
            #expect(state.compDate == .day(2021, 1, 1))
            #expect(state.memo == "second, after seeing first")
            #expect(try ledger.conflicts().isEmpty, "an edit made after seeing another is no conflict")
        }
    }

    @Test("concurrent different edits are conflicts, listed identically on both sides")
    func concurrentConflict() throws {
        let dir = try TemporaryDirectory("conflict")
        defer { dir.remove() }
        let a = try Ledger.create(directory: dir.sub("a"), deviceName: "phone", clock: DeviceClock(skew: 2 * Self.hour))
        let b = try Ledger.create(directory: dir.sub("b"), deviceName: "tablet", clock: DeviceClock())
        defer { a.close(); b.close() }
        let winner = try a.edit(120_004, date: .year(1999))
        let loser = try b.edit(120_004, date: .year(2005))
        _ = try b.edit(120_004, memo: "same memo")
        _ = try a.edit(120_004, memo: "same memo")
        let report = try LedgerMerger.merge(from: a, into: b)
        #expect(report.newConflicts.count == 1)
        try LedgerMerger.merge(from: b, into: a)
        let onA = try a.conflicts(), onB = try b.conflicts()
        #expect(onA == onB)
        #expect(onA.count == 1, "equal memos are no conflict")
        #expect(onA.first?.winner.id == winner.id)
        #expect(onA.first?.loser.id == loser.id)
        #expect(onA.first?.field == .date)
        // The user resolves it by recording a value after seeing both: the conflict is gone.
        _ = try b.edit(120_004, date: .year(2005))
        try LedgerMerger.merge(from: b, into: a)
        #expect(try a.conflicts().isEmpty)
        #expect(try a.projection()[120_004]?.compDate == .year(2005))
    }

    /// Both ways a local merge runs: one thread, or both logs read at once (the side-by-side
    /// path is otherwise taken only from 10,000 incoming events on, and only with a second core:
    /// `forced` takes it on a one-CPU runner too).
    static let modes: [(options: MergeOptions, forced: SideBySide.Mode)] = {
        var sequential = MergeOptions()
        sequential.runsSideBySide = false
        var sideBySide = MergeOptions()
        sideBySide.sideBySideMinimum = 0
        return [(sequential, .never), (sideBySide, .always)]
    }()

    @Test("events more than a day ahead are refused, naming the device, and nothing is written",
          arguments: MergeRulesTests.modes)
    func clockTooFarAhead(options: MergeOptions, forced: SideBySide.Mode) throws {
        let dir = try TemporaryDirectory("ahead")
        defer { dir.remove() }
        let wrong = try Ledger.create(directory: dir.sub("a"), deviceName: "broken-clock", clock: DeviceClock(skew: 30 * Self.hour))
        let right = try Ledger.create(directory: dir.sub("b"), deviceName: "right", clock: DeviceClock())
        defer { wrong.close(); right.close() }
        _ = try wrong.edit(1, date: .unknown)
        let before = try directorySnapshot(dir.sub("b"))
        let error = #expect(throws: LedgerError.self) {
            try SideBySide.$forced.withValue(forced) { try LedgerMerger.merge(from: wrong, into: right, options: options) }
        }
        #expect(error?.message.contains("broken-clock") == true)
        #expect(error?.message.contains("clock") == true)
        let after = try directorySnapshot(dir.sub("b"))
        #expect(after == before, "changed: \(snapshotDifferences(before, after))")
    }

    @Test("an event id with different content refuses the merge and writes nothing", arguments: MergeRulesTests.modes)
    func forgedEvent(options: MergeOptions, forced: SideBySide.Mode) throws {
        let dir = try TemporaryDirectory("forged")
        defer { dir.remove() }
        let a = try Ledger.create(directory: dir.sub("a"), deviceName: "a", clock: DeviceClock())
        let b = try Ledger.create(directory: dir.sub("b"), deviceName: "b", clock: DeviceClock())
        let forger = try Ledger.create(directory: dir.sub("c"), deviceName: "c", clock: DeviceClock())
        defer { a.close(); b.close(); forger.close() }
        let original = try a.edit(7, memo: "original")
        let fresh = try a.edit(8, memo: "new")
        try LedgerMerger.merge(from: a, into: b)
        // A replica holding a's events with one of them altered, plus one event b lacks: merging
        // it into b would write that new event if the altered one were not caught first.
        let fresher = StationEdit(id: EventID(device: fresh.id.device, seq: fresh.id.seq + 1), hlc: fresh.hlc,
                                  station: 9, compDate: .unknown, memo: nil, origin: .user)
        var copied: [LedgerRecord] = []
        try a.forEachRecord { view, _ in
            guard view.hasEventID, view.device == a.localDevice else { return }
            guard case .stationEdit(var edit) = view.record, edit.id == original.id else { return copied.append(view.record) }
            edit.memo = "forged"
            copied.append(.stationEdit(edit))
        }
        try forger.append(copied + [.stationEdit(fresher)])
        let before = try directorySnapshot(dir.sub("b"))
        let error = #expect(throws: LedgerError.self) {
            try SideBySide.$forced.withValue(forced) { try LedgerMerger.merge(from: forger, into: b, options: options) }
        }
        #expect(error?.message.contains("\(original.id)") == true, "names the altered event: \(error?.message ?? "")")
        let after = try directorySnapshot(dir.sub("b"))
        #expect(after == before, "changed: \(snapshotDifferences(before, after))")
        // Two different copies of one new id in one delivery are refused before anything is
        // planned (a ledger cannot hold both, so this one goes through `prepare`).
        var twin = fresher
        twin.station = 10
        #expect(throws: LedgerError.self) {
            try LedgerMerger.prepare([.stationEdit(fresher), .stationEdit(twin)], for: b)
        }
    }

    @Test("a gap in a device's seqs is refused")
    func gap() throws {
        let dir = try TemporaryDirectory("gap")
        defer { dir.remove() }
        let b = try Ledger.create(directory: dir.sub("b"), deviceName: "b", clock: DeviceClock())
        defer { b.close() }
        let device = DeviceID(rawValue: 0x42)
        func edit(_ seq: UInt64) -> LedgerRecord {
            .stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: b.nextLocalHLC(), station: 1,
                                     compDate: .unknown, memo: nil, origin: .user))
        }
        #expect(throws: LedgerError.self) { try LedgerMerger.prepare([edit(1), edit(3)], for: b) }
        #expect(throws: LedgerError.self) { try LedgerMerger.prepare([edit(2)], for: b) }
        let ok = try LedgerMerger.prepare([edit(2), edit(1)], for: b)
        #expect(ok.events.compactMap(\.eventID).map(\.seq) == [1, 2])
    }

    @Test("a knowledge mark is owed after unmarked foreign edits, and written once")
    func owedMark() throws {
        let dir = try TemporaryDirectory("owed")
        defer { dir.remove() }
        let a = try Ledger.create(directory: dir.sub("a"), deviceName: "a", clock: DeviceClock())
        let b = try Ledger.create(directory: dir.sub("b"), deviceName: "b", clock: DeviceClock())
        defer { a.close(); b.close() }
        let seen = try a.edit(5, date: .unknown)
        #expect(try !LedgerMerger.appendKnowledgeMarkIfOwed(b), "nothing foreign yet")
        var options = MergeOptions()
        options.writesKnowledgeMarks = false
        try LedgerMerger.merge(from: a, into: b, options: options)
        #expect(try LedgerMerger.appendKnowledgeMarkIfOwed(b))
        #expect(try !LedgerMerger.appendKnowledgeMarkIfOwed(b), "written once")
        // With the mark, b's next edit has seen a's: no conflict.
        _ = try b.edit(5, date: .year(2001))
        try LedgerMerger.merge(from: b, into: a)
        #expect(try a.conflicts().isEmpty)
        #expect(try a.projection()[5]?.compDate == .year(2001))
        _ = seen
    }

    @Test("unknown stations are refused when a catalogue is given")
    func unknownStation() throws {
        let dir = try TemporaryDirectory("station")
        defer { dir.remove() }
        let a = try Ledger.create(directory: dir.sub("a"), deviceName: "a", clock: DeviceClock())
        let b = try Ledger.create(directory: dir.sub("b"), deviceName: "b", clock: DeviceClock())
        defer { a.close(); b.close() }
        _ = try a.edit(999_999, date: .unknown)
        var options = MergeOptions()
        options.stations = StationSet([120_004])
        #expect(throws: LedgerError.self) { try LedgerMerger.merge(from: a, into: b, options: options) }
    }
}
