import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import Testing

/// Seeded random histories on 2–5 devices, each a schedule of: user edits, imported edits
/// (origin import, with the original app's old timestamps), catalogue upgrades (a
/// catalogue-version event plus carry-over edits), merges in random directions, duplicated and
/// reordered deliveries of replicated records, and owed knowledge marks. Whatever the schedule,
/// once every replica has merged every other, all hold the same event set, the same projection
/// and the same conflicts, and no causally later edit loses.
///
/// The ledgers live in an in-memory file system, so that hundreds of schedules run in seconds.
/// `ORITSUBUSHI_LONG_TESTS=1` runs thousands.
@Suite("Convergence (seeded property tests)")
struct ConvergenceTests {
    static let seeds: [UInt64] = {
        let long = ProcessInfo.processInfo.environment["ORITSUBUSHI_LONG_TESTS"] == "1"
        return Array(1...(long ? 5_000 : 500))
    }()

    /// What a schedule did, so that a test can tell it exercised every kind of event.
    struct Mix: OptionSet {
        let rawValue: Int
        static let userEdits = Mix(rawValue: 1), imports = Mix(rawValue: 2), carryOvers = Mix(rawValue: 4)
        static let merges = Mix(rawValue: 8), replicated = Mix(rawValue: 16), owedMarks = Mix(rawValue: 32)
    }

    @Test("random schedules converge", arguments: seeds)
    func randomSchedules(seed: UInt64) throws {
        _ = try Self.runSchedule(seed: seed)
    }

    /// The schedules as a whole bring every kind of event (a test of the generator itself).
    @Test func schedulesMixEveryKindOfEvent() throws {
        var mix: Mix = []
        for seed in Self.seeds.prefix(40) { mix.formUnion(try Self.runSchedule(seed: seed, checks: false)) }
        #expect(mix == [.userEdits, .imports, .carryOvers, .merges, .replicated, .owedMarks])
    }

    static func runSchedule(seed: UInt64, checks: Bool = true) throws -> Mix {
        var rng = SeededGenerator(seed: seed)
        var mix: Mix = []
        let deviceCount = Int.random(in: 2...5, using: &rng)
        let fileSystem = CrashableFileSystem()
        var clocks: [DeviceClock] = []
        var ledgers: [Ledger] = []
        for i in 0..<deviceCount {
            // Skews of up to ±6 hours: hlc must make causally later edits win anyway.
            let clock = DeviceClock(skew: Int64.random(in: -6...6, using: &rng) * 3_600_000)
            clocks.append(clock)
            ledgers.append(try Ledger.create(directory: "/d\(i)", deviceName: "device-\(i)", fileSystem: fileSystem,
                                             clock: clock, useLock: false))
        }
        defer { ledgers.forEach { $0.close() } }

        var created: Set<EventID> = []
        let stations = (0..<Int.random(in: 3...12, using: &rng)).map { UInt32(100_000 + $0 * 7) }
        let dates: [CompletionDate] = [.notCompleted, .unknown, .year(2001), .month(2010, 4), .day(2020, 2, 29)]
        var catalogueVersion: UInt32 = 1
        func draft(origin: EventOrigin = .user, hlc: HybridTimestamp? = nil) -> StationEditDraft {
            let date = Bool.random(using: &rng) ? dates.randomElement(using: &rng)! : nil
            let memo = date == nil || Bool.random(using: &rng) ? "m\(Int.random(in: 0..<3, using: &rng))" : nil
            return StationEditDraft(station: stations.randomElement(using: &rng)!, compDate: date, memo: memo, origin: origin, hlc: hlc)
        }
        for _ in 0..<Int.random(in: 20...60, using: &rng) {
            let i = Int.random(in: 0..<deviceCount, using: &rng)
            let j = (i + Int.random(in: 1..<deviceCount, using: &rng)) % deviceCount
            clocks[i].advance(Int64.random(in: 0...90_000, using: &rng))
            switch Int.random(in: 0..<12, using: &rng) {
            case 0..<4:
                let batch = (0..<Int.random(in: 1...3, using: &rng)).map { _ in draft() }
                created.formUnion(try ledgers[i].appendLocal(batch).map(\.id))
                mix.insert(.userEdits)
            case 4:
                // An import: the original app's timestamps, years in the past.
                let old = HybridTimestamp(milliseconds: 1_500_000_000_000 + Int64.random(in: 0...1_000_000, using: &rng))
                let batch = (0..<Int.random(in: 1...4, using: &rng)).map { _ in draft(origin: .import, hlc: old) }
                created.formUnion(try ledgers[i].appendLocal(batch).map(\.id))
                mix.insert(.imports)
            case 5:
                // A catalogue upgrade: the version, then the stations it carries over.
                catalogueVersion += 1
                created.insert(try ledgers[i].appendCatalogVersion(catalogueVersion).id)
                let batch = (0..<Int.random(in: 0...2, using: &rng)).map { _ in draft(origin: .catalog) }
                created.formUnion(try ledgers[i].appendLocal(batch).map(\.id))
                mix.insert(.carryOvers)
            case 6..<9:
                let before = checks ? Set(try ledgers[i].conflicts()) : []
                let report = try LedgerMerger.merge(from: ledgers[j], into: ledgers[i], options: mergeOptions())
                // "New conflicts" are exactly the conflicts that were not there before.
                if checks {
                    #expect(Set(report.newConflicts) == Set(try ledgers[i].conflicts()).subtracting(before), "seed \(seed)")
                }
                mix.insert(.merges)
            case 9, 10:
                // A duplicated, reordered delivery of everything j holds (what a retried,
                // out-of-order transport would hand over).
                var records = try ledgers[j].allRecords()
                records += records.prefix(Int.random(in: 0...records.count, using: &rng))
                records.shuffle(using: &rng)
                // Half of them like a sync's pages, which leave the knowledge mark owed.
                var options = mergeOptions()
                options.writesKnowledgeMarks = Bool.random(using: &rng)
                let prepared = try LedgerMerger.prepare(records, for: ledgers[i], options: options)
                try LedgerMerger.apply(prepared, to: ledgers[i], options: options)
                mix.insert(.replicated)
            default:
                if try LedgerMerger.appendKnowledgeMarkIfOwed(ledgers[i]) { mix.insert(.owedMarks) }
            }
        }
        guard checks else { return mix }
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
            #expect(report.eventsIn == 0, "seed \(seed)")
        }
        return mix
    }

    /// No edit that saw the winner of its field lost to it: the hlc put every causally later
    /// edit after what it had seen, whatever the devices' wall clocks said (imports aside).
    static func causallyLaterEditsWin(_ ledger: Ledger) throws -> Bool {
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
                // An import keeps the original app's old timestamp on purpose: it may lose.
                if setting.contains(where: { $0.id != winner.id && $0.origin != .import && history.hasSeen($0.id, winner.id) }) {
                    return false
                }
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
