import LedgerTestSupport
import Foundation
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

@Suite(.serialized) struct ProjectionTests {
    /// The projection as exported rows plus the winner keys, for equality checks.
    static func dump(_ ledger: Ledger) throws -> [String] {
        try TestDatabase(path: ProjectionStore.path(ledger)).rows("""
            SELECT c.s_id, c.comp_date, c.update_date, c.memo, w.date_hlc, w.date_device, w.date_seq,
            w.memo_hlc, w.memo_device, w.memo_seq, w.events FROM completions c JOIN completion_winners w USING (s_id) ORDER BY c.s_id
            """).map { $0.joined(separator: "|") }
    }

    static func randomDrafts(_ rng: inout SeededGenerator, count: Int) -> [StationEditDraft] {
        (0..<count).map { _ in
            let station = UInt32(1 + rng.next() % 40)
            switch rng.next() % 4 {
            case 0: return StationEditDraft(station: station, memo: "m\(rng.next() % 5)")
            case 1: return StationEditDraft(station: station, compDate: .notCompleted)
            default: return StationEditDraft(station: station, compDate: .day(2000 + Int(rng.next() % 20), 1 + Int(rng.next() % 12), 1),
                                             memo: rng.next() % 2 == 0 ? nil : "both")
            }
        }
    }

    // Incremental = rebuild over hundreds of seeded schedules: RebuildEqualsIncrementalTests.

    /// The same set of events, arriving in different orders at two replicas, gives
    /// byte-identical projections.
    @Test(arguments: [UInt64(21), 22])
    func theFoldDependsOnlyOnTheSetOfEvents(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let a = try Harness.createLedger(dir, name: "a", clock: FixedClock(milliseconds: 1_700_000_000_000))
        let b = try Harness.createLedger(dir, name: "b", clock: FixedClock(milliseconds: 1_700_000_000_000))
        var rng = SeededGenerator(seed: seed)
        let fromA = try a.appendLocal(Self.randomDrafts(&rng, count: 60))
        let fromB = try b.appendLocal(Self.randomDrafts(&rng, count: 60))
        try ProjectionStore.update(a)
        try ProjectionStore.update(b)
        // Interleave differently: a receives b's events in one batch, b receives a's in two.
        try a.append(fromB.map { .stationEdit($0) })
        try b.append(fromA.prefix(25).map { .stationEdit($0) })
        try ProjectionStore.update(b)
        try b.append(fromA.dropFirst(25).map { .stationEdit($0) })
        try ProjectionStore.update(a)
        try ProjectionStore.update(b)
        let rowsA = try Self.dump(a), rowsB = try Self.dump(b)
        #expect(rowsA == rowsB)
        #expect(CompletionsFile.tsv(CompletionsFile.rows(try ProjectionStore.load(a)))
                == CompletionsFile.tsv(CompletionsFile.rows(try ProjectionStore.load(b))))
    }

    /// One-station commands load the projection lazily; what they save must equal a full fold.
    @Test func lazyLoadingSavesTheSameRowsAsAFullLoad() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir, clock: SystemClock())
        var rng = SeededGenerator(seed: 99)
        try ledger.appendLocal(Self.randomDrafts(&rng, count: 200))
        try ProjectionStore.update(ledger)
        for _ in 0..<10 {
            try ledger.appendLocal(Self.randomDrafts(&rng, count: 7))
            var lazy = try ProjectionStore.load(ledger, lazy: true)
            #expect(lazy.stationCount <= 40)
            _ = try lazy.lookup(UInt32(1 + rng.next() % 40))
            try ProjectionStore.save(&lazy, ledger: ledger)
        }
        let incremental = try Self.dump(ledger)
        try ProjectionStore.rebuild(ledger)
        #expect(try Self.dump(ledger) == incremental)
    }

    /// Catching up reads only the segments holding records past the checkpoint: counted through
    /// the file-system seam, behind a checkpoint with several sealed segments.
    @Test func catchUpReadsOnlyRecordsPastTheCheckpoint() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let counting = ReadCountingFileSystem()
        let ledger = try Ledger.create(directory: dir.sub("l"), deviceName: "test", fileSystem: counting, clock: Harness.clock)
        ledger.rollThreshold = 512  // format 2 packs these 400 edits into about 2.6 KB
        for batch in 0..<20 {
            try ledger.appendLocal((1...20).map { StationEditDraft(station: UInt32(batch * 20 + $0), compDate: .year(2001)) })
        }
        var projection = try ProjectionStore.update(ledger)
        #expect(projection.position == ledger.recordCount)
        #expect(projection.versionVector == ledger.versionVector)
        // New records in a segment of their own: the only one catching up may read.
        try ledger.sealActiveSegment()
        let behind = ledger.segments
        #expect(behind.count >= 3 && behind.allSatisfy(\.sealed))
        try ledger.appendLocal([StationEditDraft(station: 8, memo: "x")])
        let newest = ledger.segments.last!
        counting.reset()
        let reloaded = try ProjectionStore.load(ledger)
        #expect(reloaded.row(8)?.memo == "x")
        #expect(reloaded.row(7)?.compDate == 20010000)
        let segmentReads = counting.reads.filter { $0.key.hasSuffix(".seg") }
        #expect(Array(segmentReads.keys) == [newest.path], "\(segmentReads)")
        #expect(segmentReads[newest.path]?.bytes == newest.fileSize)
        // A projection from another ledger (or ahead of the log) is ignored, not trusted.
        projection.position = 999
        let other = try Harness.createLedger(dir, name: "other")
        try FileManager.default.copyItem(atPath: ProjectionStore.path(ledger), toPath: ProjectionStore.path(other))
        #expect(try ProjectionStore.load(other).stationCount == 0)
    }

    @Test func asOfFoldsOnlyEventsUpToTheTime() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        let t1 = HybridTimestamp(milliseconds: 1_600_000_000_000), t2 = HybridTimestamp(milliseconds: 1_700_000_000_000)
        try ledger.appendLocal([StationEditDraft(station: 3, compDate: .year(2019), hlc: t1)])
        try ledger.appendLocal([StationEditDraft(station: 3, compDate: .notCompleted, memo: "gone", hlc: t2)])
        let before = try CompletionsProjection.fold(ledger, asOf: HybridTimestamp(milliseconds: 1_650_000_000_000))
        #expect(before.row(3)?.compDate == 20190000)
        #expect(before.row(3)?.memo == "")
        #expect(before.row(3)?.events == 1)
        let after = try CompletionsProjection.fold(ledger, asOf: t2)
        #expect(after.row(3)?.compDate == 0 && after.row(3)?.memo == "gone")
    }
}
