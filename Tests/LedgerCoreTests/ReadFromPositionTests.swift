import LedgerTestSupport
import Testing
@testable import LedgerCore

/// `forEachRecord(from:)` starts at the nearest frame it knows (`FrameIndex`) instead of at the
/// segment's first frame: a pull's pages then cost their own length, not the log's.
@Suite struct ReadFromPositionTests {
    static let clock = FixedClock(milliseconds: 1_700_000_000_000)

    /// A ledger of many small appends (one frame each) across several segments.
    private static func manyFrames(_ path: String, fileSystem: any FileSystem = PosixFileSystem()) throws -> Ledger {
        let ledger = try Ledger.create(directory: path, deviceName: "a", fileSystem: fileSystem, clock: clock)
        ledger.rollThreshold = 8 << 10
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<150 {
            let drafts = (0..<Int(rng.next() % 12 + 1)).map { _ in
                StationEditDraft(station: UInt32(rng.next() % 9000 + 1), compDate: .day(2020, 1, Int(rng.next() % 28 + 1)),
                                 memo: rng.next() % 3 == 0 ? "m\(rng.next() % 1000)" : nil)
            }
            try ledger.appendLocal(drafts)
        }
        return ledger
    }

    private static func records(of ledger: Ledger, from position: UInt64) throws -> [(UInt64, LedgerRecord)] {
        var result: [(UInt64, LedgerRecord)] = []
        try ledger.forEachRecord(from: position) { view, at in result.append((at, view.record)) }
        return result
    }

    @Test("every position reads exactly the tail, on a fresh open and after a full read", arguments: [false, true])
    func everyPositionReadsTheTail(afterFullRead: Bool) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.sub("l")
        try Self.manyFrames(path).close()
        let ledger = try Ledger.open(directory: path, clock: Self.clock)
        defer { ledger.close() }
        #expect(ledger.segments.count >= 3)
        let all = try ledger.allRecords()
        if !afterFullRead { ledger.frameIndex = FrameIndex() }
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<60 {
            let from = rng.next() % (UInt64(all.count) + 2)
            let tail = try Self.records(of: ledger, from: from)
            #expect(tail.map(\.0) == Array(from..<max(from, UInt64(all.count))), "positions from \(from)")
            #expect(tail.map(\.1) == Array(all.dropFirst(Int(min(from, UInt64(all.count))))), "records from \(from)")
        }
    }

    @Test("a read from a known frame reads only that frame on, never the segment whole")
    func aResumedReadReadsOnlyTheTail() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let counting = ReadCountingFileSystem()
        let ledger = try Self.manyFrames(dir.sub("l"), fileSystem: counting)
        defer { ledger.close() }
        let last = ledger.segments[ledger.segments.count - 1]
        // The appends noted their frames: the newest segment's last frames are read alone.
        counting.reset()
        let from = ledger.recordCount - 3
        #expect(try Self.records(of: ledger, from: from).count == 3)
        let reads = counting.reads[last.path]
        #expect(reads?.wholeFile == 0)
        #expect((reads?.bytes ?? .max) < last.fileSize / 4, "\(String(describing: reads)) of \(last.fileSize)")
    }

    @Test("a damaged frame after the resumed one is still corruption naming its offset")
    func aResumedReadChecksEveryFrame() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.sub("l")
        let ledger = try Self.manyFrames(path)
        defer { ledger.close() }
        let segment = ledger.segments[0]
        // The first segment's frames as the reader meets them: (offset, first position).
        var frames: [(offset: Int, position: UInt64)] = []
        var position: UInt64 = 0
        let bytes = try PosixFileSystem().readFile(segment.path)
        let reader = SegmentReader(path: segment.path, policy: .strict,
                                   expectation: .init(number: 1, ledgerID: nil, mustBeSealed: true))
        _ = try bytes.withUnsafeBytes { buffer in
            try reader.read(buffer) { _, offset in
                if frames.last?.offset != offset { frames.append((offset, position)) }
                position += 1
                return .continue
            }
        }
        #expect(frames.count >= 4)
        // A byte inside the third frame flipped; the read resumes at the second frame.
        try PosixFileSystem().overwrite(segment.path, at: frames[2].offset + 12, with: [bytes[frames[2].offset + 12] ^ 0x40])
        let from = frames[1].position
        #expect(ledger.frameIndex.nearest(segment: 1, atOrBefore: from)?.offset == frames[1].offset)
        var reached: UInt64 = 0
        #expect {
            try ledger.forEachRecord(from: from) { _, position in reached = position }
        } throws: { error in
            (error as? LedgerError)?.category == .corruption && "\(error)".contains("byte offset \(frames[2].offset))")
        }
        #expect(reached == frames[2].position - 1, "the second frame's records were read, none of the third's")
    }
}
