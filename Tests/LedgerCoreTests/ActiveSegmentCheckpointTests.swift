import LedgerTestSupport
import Foundation
import Testing
@testable import LedgerCore

/// The newest segment's checkpoint (Schemas/segment-format.md §5a): opening uses it instead of a
/// scan only when it provably describes the file as it is, and falls back to the scan otherwise.
@Suite struct ActiveSegmentCheckpointTests {
    static let clock = FixedClock(milliseconds: 1_700_000_000_000)

    /// A ledger whose newest segment is unsealed and longer than the checkpoint's 4 KiB tail.
    static func makeLedger(in dir: TemporaryDirectory, batches: Int = 30) throws -> (path: String, records: [LedgerRecord]) {
        let path = dir.sub("l")
        let ledger = try Ledger.create(directory: path, deviceName: "a", clock: clock)
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<batches {
            try ledger.appendLocal((0..<40).map { _ in
                StationEditDraft(station: UInt32(rng.next() % 9000 + 1), compDate: .day(2015, 4, Int(rng.next() % 28 + 1)),
                                 memo: rng.next() % 4 == 0 ? "メモ \(rng.next())" : nil)
            })
        }
        let records = try ledger.allRecords()
        ledger.close()
        return (path, records)
    }

    static func checkpointPath(_ ledger: String, segment: UInt32 = 1) -> String {
        ledger + "/segments/" + ActiveSegmentCheckpoint.fileName(segment)
    }

    /// XORs one byte of a file in place; a negative offset counts from the end.
    static func flip(_ path: String, at offset: Int, xor mask: UInt8) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[offset < 0 ? bytes.count + offset : offset] ^= mask
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test func encodingRoundTripsAndEveryByteFlipIsRejected() throws {
        var summary = SegmentSummary()
        summary.addFrame(rawBytes: 1234)
        summary.addEvent(hlc: HybridTimestamp(rawValue: 77), device: DeviceID(rawValue: 5), seq: 1)
        summary.addEvent(hlc: HybridTimestamp(rawValue: 99), device: DeviceID(rawValue: 5), seq: 2)
        let checkpoint = ActiveSegmentCheckpoint(segmentNumber: 3, coveredLength: 5000, tailChecksum: 0xDEAD_BEEF, summary: summary)
        let bytes = checkpoint.encoded()
        #expect(bytes.withUnsafeBytes { ActiveSegmentCheckpoint.decode($0) } == .success(checkpoint))
        for offset in bytes.indices {
            var damaged = bytes
            damaged[offset] ^= 0x5A
            let result = damaged.withUnsafeBytes { ActiveSegmentCheckpoint.decode($0) }
            guard case .failure = result else {
                Issue.record("a flip at byte \(offset) was not detected")
                return
            }
        }
        for length in 0..<bytes.count {
            guard case .failure = Array(bytes.prefix(length)).withUnsafeBytes({ ActiveSegmentCheckpoint.decode($0) }) else {
                Issue.record("a checkpoint cut to \(length) bytes was accepted")
                return
            }
        }
    }

    @Test func openingUsesTheCheckpointAndGetsTheSameState() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (path, records) = try Self.makeLedger(in: dir)
        let fast = try Ledger.open(directory: path, clock: Self.clock)
        #expect(!fast.scannedNewestSegment)
        #expect(fast.segments.count == 1 && !fast.segments[0].sealed && fast.segments[0].fileSize > 4096)
        let fromCheckpoint = (fast.segments[0].summary, fast.versionVector, fast.lastHLC, fast.deviceNames)
        #expect(try fast.allRecords() == records)
        #expect(try fast.verify().ignoredCheckpoint == nil)
        fast.close()

        try FileManager.default.removeItem(atPath: Self.checkpointPath(path))
        let scanned = try Ledger.open(directory: path, clock: Self.clock)
        defer { scanned.close() }
        #expect(scanned.scannedNewestSegment)
        #expect(scanned.segments[0].summary == fromCheckpoint.0)
        #expect(scanned.versionVector == fromCheckpoint.1)
        #expect(scanned.lastHLC == fromCheckpoint.2)
        #expect(scanned.deviceNames == fromCheckpoint.3)
    }

    @Test func aStaleCheckpointIsNotUsed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (path, _) = try Self.makeLedger(in: dir)
        let old = try Data(contentsOf: URL(fileURLWithPath: Self.checkpointPath(path)))
        do {
            let ledger = try Ledger.open(directory: path, clock: Self.clock)
            try ledger.appendLocal([StationEditDraft(station: 42, compDate: .year(2020))])
            ledger.close()
        }
        // As after a crash that lost the checkpoint's last rewrite.
        try old.write(to: URL(fileURLWithPath: Self.checkpointPath(path)))
        let ledger = try Ledger.open(directory: path, clock: Self.clock)
        defer { ledger.close() }
        #expect(ledger.scannedNewestSegment)
        #expect(ledger.ignoredCheckpoint == nil, "a stale checkpoint is normal, not damage")
        #expect(ledger.versionVector[ledger.localDevice] == 1201)
    }

    @Test func aCheckpointOfTheSameLengthButOtherBytesIsNotUsed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (path, _) = try Self.makeLedger(in: dir)
        // Change the segment's last byte (inside the last frame's checksum): same length, other
        // tail. The scan finds it below the watermark: damage, not a tear (segment-format.md §5b).
        let segment = path + "/segments/00000001.seg"
        try Self.flip(segment, at: -1, xor: 0x01)
        let error = try #require(throws: LedgerError.self) { try Ledger.open(directory: path, clock: Self.clock) }
        #expect(error.category == .corruption && error.file == segment, "\(error)")
        #expect(FileManager.default.fileExists(atPath: Self.checkpointPath(path)), "a refused open changes nothing")
    }

    @Test func aDamagedCheckpointIsReportedAndIgnored() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (path, records) = try Self.makeLedger(in: dir)
        try Self.flip(Self.checkpointPath(path), at: 40, xor: 0x10)
        let ledger = try Ledger.open(directory: path, clock: Self.clock)
        defer { ledger.close() }
        #expect(ledger.scannedNewestSegment)
        let note = try #require(ledger.ignoredCheckpoint)
        #expect(note.contains("00000001.seg.summary") && note.contains("offset"))
        #expect(try ledger.allRecords() == records)
        #expect(try ledger.verify().ignoredCheckpoint == note)
        // The next append rewrites it.
        try ledger.appendLocal([StationEditDraft(station: 7, memo: "again")])
        ledger.close()
        let reopened = try Ledger.open(directory: path, clock: Self.clock)
        defer { reopened.close() }
        #expect(!reopened.scannedNewestSegment && reopened.ignoredCheckpoint == nil)
    }

    @Test func corruptionInAnEarlierFrameIsStillFoundByReads() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (path, _) = try Self.makeLedger(in: dir)
        let segment = path + "/segments/00000001.seg"
        try Self.flip(segment, at: SegmentHeader.frameSize + 200, xor: 0x40)
        let ledger = try Ledger.open(directory: path, clock: Self.clock)
        defer { ledger.close() }
        #expect(!ledger.scannedNewestSegment, "opening trusts the checkpoint, as it trusts sealed footers")
        let readError = #expect(throws: LedgerError.self) { try ledger.forEachRecord { _, _ in } }
        #expect(readError?.category == .corruption && readError?.file == segment && readError?.offset != nil)
        let verifyError = #expect(throws: LedgerError.self) { try ledger.verify() }
        #expect(verifyError?.category == .corruption && verifyError?.file == segment)
    }

    @Test func sealingRemovesTheCheckpoint() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.sub("l")
        let ledger = try Ledger.create(directory: path, deviceName: "a", clock: Self.clock)
        defer { ledger.close() }
        #expect(FileManager.default.fileExists(atPath: Self.checkpointPath(path)))
        // Small enough that these well-compressing batches fill several segments.
        ledger.rollThreshold = 400
        for i in 0..<10 {
            try ledger.appendLocal((0..<20).map { StationEditDraft(station: UInt32(i * 20 + $0 + 1), compDate: .unknown) })
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: path + "/segments").sorted()
        let sealed = ledger.segments.filter(\.sealed).map { ActiveSegmentCheckpoint.fileName($0.number) }
        #expect(!sealed.isEmpty && sealed.allSatisfy { !names.contains($0) })
        if let active = ledger.segments.last, !active.sealed {
            #expect(names.contains(ActiveSegmentCheckpoint.fileName(active.number)))
        }
    }
}
