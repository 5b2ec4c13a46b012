import LedgerCore
import LedgerSync
import Testing
import LedgerTestSupport

/// Seeded random histories on 2–5 devices: random edits, random merges in random directions,
/// and duplicated, reordered deliveries. Whatever the schedule, once every replica has merged
/// every other, all hold the same event set, the same projection and the same conflicts.
@Suite("Convergence (seeded property tests)")
struct ConvergenceTests {
    @Test("random schedules converge", arguments: Array(UInt64(1)...UInt64(12)))
    func randomSchedules(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let deviceCount = Int.random(in: 2...5, using: &rng)
        let dir = try TemporaryDirectory("conv\(seed)")
        defer { dir.remove() }
        var clocks: [DeviceClock] = []
        var ledgers: [Ledger] = []
        for i in 0..<deviceCount {
            // Skews of up to ±6 hours: hlc must make causally later edits win anyway.
            let clock = DeviceClock(skew: Int64.random(in: -6...6, using: &rng) * 3_600_000)
            clocks.append(clock)
            ledgers.append(try Ledger.create(directory: dir.sub("d\(i)"), deviceName: "device-\(i)", clock: clock))
        }
        defer { ledgers.forEach { $0.close() } }

        var created: Set<EventID> = []
        let stations: [UInt32] = [120_004, 202_919, 300_290, 306_029]
        let dates: [CompletionDate] = [.notCompleted, .unknown, .year(2001), .month(2010, 4), .day(2020, 2, 29)]
        for _ in 0..<Int.random(in: 20...60, using: &rng) {
            let i = Int.random(in: 0..<deviceCount, using: &rng)
            clocks[i].advance(Int64.random(in: 0...90_000, using: &rng))
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<5:
                let station = stations.randomElement(using: &rng)!
                let date = Bool.random(using: &rng) ? dates.randomElement(using: &rng)! : nil
                let memo = date == nil || Bool.random(using: &rng) ? "m\(Int.random(in: 0..<3, using: &rng))" : nil
                created.insert(try ledgers[i].edit(station, date: date, memo: memo).id)
            case 5..<8:
                let j = (i + Int.random(in: 1..<deviceCount, using: &rng)) % deviceCount
                let before = Set(try ledgers[i].conflicts())
                let report = try LedgerMerger.merge(from: ledgers[j], into: ledgers[i], options: mergeOptions())
                // "New conflicts" are exactly the conflicts that were not there before.
                #expect(Set(report.newConflicts) == Set(try ledgers[i].conflicts()).subtracting(before), "seed \(seed)")
            default:
                // A duplicated, reordered delivery of everything j holds (what a retried,
                // out-of-order transport would hand over).
                let j = (i + Int.random(in: 1..<deviceCount, using: &rng)) % deviceCount
                var records = try ledgers[j].allRecords()
                records += records.prefix(Int.random(in: 0...records.count, using: &rng))
                records.shuffle(using: &rng)
                let prepared = try LedgerMerger.prepare(records, for: ledgers[i], options: mergeOptions())
                try LedgerMerger.apply(prepared, to: ledgers[i], options: mergeOptions())
            }
        }
        // Full exchange in a random order, twice around: everyone ends up with everything.
        for _ in 0..<2 {
            for i in Array(0..<deviceCount).shuffled(using: &rng) {
                for j in Array(0..<deviceCount).shuffled(using: &rng) where j != i {
                    try LedgerMerger.merge(from: ledgers[j], into: ledgers[i], options: mergeOptions())
                }
            }
        }
        let reference = try ledgers[0].eventSet()
        let projection = try ledgers[0].projection()
        let conflicts = try ledgers[0].conflicts()
        #expect(created.isSubset(of: Set(reference.keys)), "no event lost (seed \(seed))")
        for ledger in ledgers.dropFirst() {
            #expect(try ledger.eventSet() == reference, "equal event sets (seed \(seed))")
            #expect(try ledger.projection() == projection, "identical projections (seed \(seed))")
            #expect(try ledger.conflicts() == conflicts, "identical conflict lists (seed \(seed))")
        }
        #expect(try causallyLaterEditsWin(ledgers[0]), "seed \(seed)")
        // And it is a fixed point: merging again appends nothing anywhere.
        for i in 0..<deviceCount {
            let report = try LedgerMerger.merge(from: ledgers[(i + 1) % deviceCount], into: ledgers[i], options: mergeOptions())
            #expect(report.eventsIn == 0)
        }
    }

    /// No edit that saw the winner of its field lost to it: the hlc put every causally later
    /// edit after what it had seen, whatever the devices' wall clocks said.
    func causallyLaterEditsWin(_ ledger: Ledger) throws -> Bool {
        var history = CausalHistory()
        var edits: [StationEdit] = []
        try ledger.forEachRecord { view, _ in
            switch view.record {
            case .knowledgeMark(let m): history.add(m)
            case .stationEdit(let e): edits.append(e)
            default: break
            }
        }
        history.seal()
        for (_, group) in Dictionary(grouping: edits, by: \.station) {
            for field in 0..<2 {
                let setting = group.filter { field == 0 ? $0.compDate != nil : $0.memo != nil }
                guard let winner = setting.max(by: { EventOrder($0) < EventOrder($1) }) else { continue }
                if setting.contains(where: { $0.id != winner.id && history.hasSeen($0.id, winner.id) }) { return false }
            }
        }
        return true
    }

    @Test("merging A and B in any order, any number of times, gives equal sets", arguments: [0, 1, 2, 3, 5])
    func pairwise(extraRounds: Int) throws {
        let dir = try TemporaryDirectory("pair")
        defer { dir.remove() }
        let a = try Ledger.create(directory: dir.sub("a"), deviceName: "a", clock: DeviceClock())
        let b = try Ledger.create(directory: dir.sub("b"), deviceName: "b", clock: DeviceClock(skew: 3_600_000))
        defer { a.close(); b.close() }
        _ = try a.edit(1, date: .year(2000))
        _ = try b.edit(1, date: .year(2001))
        _ = try b.edit(2, memo: "x")
        try LedgerMerger.merge(from: a, into: b)
        for round in 0..<extraRounds {
            if round % 2 == 0 { try LedgerMerger.merge(from: b, into: a) } else { try LedgerMerger.merge(from: a, into: b) }
        }
        try LedgerMerger.merge(from: b, into: a)
        try LedgerMerger.merge(from: a, into: b)
        #expect(try a.eventSet() == b.eventSet())
        #expect(try a.projection() == b.projection())
        // Knowledge marks do not ping-pong: another round trip appends nothing.
        #expect(try LedgerMerger.merge(from: b, into: a).eventsIn == 0)
        #expect(try LedgerMerger.merge(from: a, into: b).eventsIn == 0)
    }
}
