import LedgerTestSupport
import Foundation
import Testing
@testable import LedgerCore

@Suite struct LedgerTests {
    static let clock = FixedClock(milliseconds: 1_700_000_000_000)

    @Test func appendsSurviveReopenWithContiguousSeqs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.sub("l")
        var device: DeviceID
        do {
            let ledger = try Ledger.create(directory: path, deviceName: "a", clock: Self.clock)
            device = ledger.localDevice
            let first = try ledger.appendLocal([StationEditDraft(station: 1, compDate: .year(2013))])
            let batch = try ledger.appendLocal((2...101).map { StationEditDraft(station: UInt32($0), compDate: .unknown) })
            #expect(first.map(\.id.seq) == [1])
            #expect(batch.map(\.id.seq) == Array(2...101))
            // Every event gets a strictly larger hlc even though the clock is frozen.
            let hlcs = (first + batch).map(\.hlc)
            #expect(hlcs == hlcs.sorted() && Set(hlcs).count == hlcs.count)
            ledger.close()
        }
        let reopened = try Ledger.open(directory: path, clock: Self.clock)
        defer { reopened.close() }
        #expect(reopened.versionVector == [device: 101])
        let next = try reopened.appendLocal([StationEditDraft(station: 5, memo: "x")])
        #expect(next[0].id.seq == 102)
        #expect(next[0].hlc > HybridTimestamp(milliseconds: Self.clock.milliseconds, counter: 100))
        #expect(try reopened.verify().events == 102)
    }

    /// Segments roll at the threshold, and opening reads each sealed segment's header and footer
    /// (a 64 KiB probe at the end) and the newest segment's checkpoint and last 4 KiB, never a
    /// whole segment: counted through the file-system seam, with segments larger than the probe.
    @Test func segmentsRollAndOpeningReadsOnlyFooters() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.sub("l")
        let ledger = try Ledger.create(directory: path, deviceName: "a", clock: Self.clock)
        ledger.rollThreshold = 256 << 10
        var rng = SeededGenerator(seed: 7)
        // Memos of random letters compress poorly, so that the segments outgrow the probe.
        func memo() -> String { String((0..<400).map { _ in Character(UnicodeScalar(UInt8(65 + rng.next() % 58))) }) }
        for _ in 0..<120 {
            let drafts = (0..<20).map { _ in
                StationEditDraft(station: UInt32(rng.next() % 9000 + 1), compDate: .day(2013, 9, Int(rng.next() % 30 + 1)),
                                 memo: memo())
            }
            try ledger.appendLocal(drafts)
        }
        // One more, so that the newest segment is open whatever the roll did last.
        try ledger.appendLocal([StationEditDraft(station: 1, memo: memo())])
        let expected = try ledger.allRecords()
        ledger.close()
        let sealed = ledger.segments.filter(\.sealed)
        #expect(sealed.count >= 3 && !ledger.segments.last!.sealed)
        #expect(sealed.allSatisfy { $0.fileSize > SegmentHeader.frameSize + (1 << 16) })

        let counting = ReadCountingFileSystem()
        let reopened = try Ledger.open(directory: path, fileSystem: counting, clock: Self.clock)
        defer { reopened.close() }
        let reads = counting.reads
        #expect(!reopened.scannedNewestSegment)
        #expect(reads.filter { $0.key.hasSuffix(".seg") }.values.allSatisfy { $0.wholeFile == 0 }, "no segment is read whole: \(reads)")
        for segment in sealed {
            // The header frame and the footer probe, nothing else.
            #expect(reads[segment.path]?.bytes == SegmentHeader.frameSize + (1 << 16), "\(segment.path)")
        }
        let newest = reopened.segments.last!
        // The newest: the same probe finds no footer, then the checkpoint's tail check and header.
        #expect(reads[newest.path]?.bytes
                == 2 * SegmentHeader.frameSize + min(newest.fileSize, 1 << 16) + min(newest.fileSize, ActiveSegmentCheckpoint.tailLength))
        #expect(counting.bytesRead { $0.hasSuffix(".seg") } < reopened.bytesOnDisk / 3)  // 64 KiB of each 256

        #expect(reopened.segments.dropLast().allSatisfy { $0.sealed })
        #expect(try reopened.allRecords() == expected)
        #expect(reopened.recordCount == UInt64(expected.count))
        let report = try reopened.verify()
        #expect(report.events == 2401 && report.segments == reopened.segments.count)
        // Positions: reading from the middle yields exactly the tail.
        var tail: [LedgerRecord] = []
        try reopened.forEachRecord(from: 500) { view, position in
            #expect(position >= 500)
            tail.append(view.record)
        }
        #expect(tail == Array(expected[500...]))
    }

    @Test func replicatedEventsMustContinueTheirDevice() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Ledger.create(directory: dir.sub("l"), deviceName: "a", clock: Self.clock)
        defer { ledger.close() }
        let other = DeviceID(rawValue: 99)
        func edit(_ seq: UInt64) -> LedgerRecord {
            .stationEdit(StationEdit(id: EventID(device: other, seq: seq), hlc: HybridTimestamp(milliseconds: 1_800_000_000_000),
                                     station: 3, compDate: .unknown, memo: nil, origin: .user))
        }
        let before = try directorySnapshot(dir.path)
        #expect(throws: LedgerError.self) { try ledger.append([edit(2)]) }
        #expect(throws: LedgerError.self) { try ledger.append([edit(1), edit(3)]) }
        #expect(try directorySnapshot(dir.path) == before)
        try ledger.append([edit(1), edit(2)])
        #expect(ledger.versionVector[other] == 2)
        // The clock moved past the received hlc, so the next local edit wins over it.
        let local = try ledger.appendLocal([StationEditDraft(station: 3, compDate: .year(2000))])
        #expect(local[0].hlc > HybridTimestamp(milliseconds: 1_800_000_000_000))
    }

    @Test(arguments: [
        StationEditDraft(station: 0, compDate: .unknown),
        StationEditDraft(station: 1),
        StationEditDraft(station: 1, memo: String(repeating: "x", count: 4097)),
    ])
    func invalidDraftsAreRefusedAndChangeNothing(draft: StationEditDraft) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Ledger.create(directory: dir.sub("l"), deviceName: "a", clock: Self.clock)
        defer { ledger.close() }
        let before = try directorySnapshot(dir.path)
        let error = #expect(throws: LedgerError.self) { try ledger.appendLocal([draft]) }
        #expect(error?.category == .badInput)
        #expect(try directorySnapshot(dir.path) == before)
    }

    @Test func secondOpenInThisProcessIsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Ledger.create(directory: dir.sub("l"), deviceName: "a", clock: Self.clock)
        defer { ledger.close() }
        // flock locks are per open file description, so a second open in this process conflicts too.
        let error = #expect(throws: LedgerError.self) { try Ledger.open(directory: dir.sub("l")) }
        #expect(error?.category == .locked)
    }

    /// A thread spawning a child shares every descriptor until the child's exec, so a ledger
    /// closed and reopened meanwhile finds its `flock` still held, by no process it can name.
    @Test func aLockHeldForAMomentByNoNamedProcessIsWaitedFor() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Ledger.create(directory: dir.sub("l"), deviceName: "a", clock: Self.clock).close()
        let holder = try LedgerLockHolder(ledger: dir.sub("l"))
        let released = Thread { usleep(5_000); holder.stop() }
        let started = ContinuousClock.now
        released.start()
        let ledger = try Ledger.open(directory: dir.sub("l"))
        defer { ledger.close() }
        // It waited for the holder (5 ms) instead of failing at once or opening beside it.
        #expect(ContinuousClock.now - started >= .milliseconds(4), "opened while the lock was held")
        #expect(ledger.directory.hasSuffix("/l"))
    }

    @Test func creatingOverAnExistingLedgerIsRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try Ledger.create(directory: dir.sub("l"), deviceName: "a", clock: Self.clock).close()
        let before = try directorySnapshot(dir.path)
        #expect(throws: LedgerError.self) { try Ledger.create(directory: dir.sub("l"), deviceName: "b", clock: Self.clock) }
        #expect(try directorySnapshot(dir.path) == before)
    }

    @Test func missingLedgerIsReportedAsSuch() throws {
        let error = #expect(throws: LedgerError.self) { try Ledger.open(directory: "/nonexistent/ledger") }
        #expect(error?.category == .missingLedger)
    }

    @Test func largeBatchesSplitIntoFramesOfAtMostFourMiB() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Ledger.create(directory: dir.sub("l"), deviceName: "a", clock: Self.clock)
        defer { ledger.close() }
        let memo = String(repeating: "駅", count: 1300)
        try ledger.appendLocal((1...2000).map { StationEditDraft(station: UInt32($0), memo: memo) })
        let report = try ledger.verify()
        #expect(report.frames >= 3)  // 1 device-name frame + ≥2 frames for ~7.9 MB of records
        #expect(report.events == 2000)
    }
}

