import LedgerCore
import LedgerTestSupport
import Testing

/// What an append acknowledged is never taken for a torn write. Every byte of the
/// newest segment below its watermark (Schemas/segment-format.md §5b), flipped or cut away, is
/// reported as corruption naming the file, opening changes nothing, and so no later append can
/// issue a seq again; only bytes past the watermark are cut as a tear.
@Suite struct DurablePrefixTests {
    /// A newest, open segment of three appends, the last one a batch. Returns the file system,
    /// the newest segment's path, the offset of its last frame and the events held.
    private static func ledger() throws -> (fileSystem: CrashableFileSystem, path: String, lastFrame: Int, events: UInt64) {
        let ledger = try NewestSegmentLedger(batches: [1, 2, 5])
        let boundaries = ledger.boundaries
        return (ledger.fileSystem, ledger.path, boundaries[boundaries.count - 2].offset, boundaries.last!.events)
    }

    /// Opening `fileSystem` must refuse with corruption naming `file`, and write nothing.
    private static func expectRefused(_ fileSystem: CrashableFileSystem, naming file: String, _ what: String) -> String? {
        let before = fileSystem.snapshot()
        do {
            let ledger = try Workload.open(fileSystem)
            defer { ledger.close() }
            // Opening may not see a flip the checkpoint vouches around; verify must.
            _ = try ledger.verify()
            return "\(what): opened and verified"
        } catch let error as LedgerError {
            guard error.category == .corruption, error.file == file else { return "\(what): \(error)" }
        } catch {
            return "\(what): \(error)"
        }
        return fileSystem.snapshot() == before ? nil : "\(what): the refused open changed files"
    }

    @Test func everyFlipAndEveryCutOfTheNewestSegmentIsReported() throws {
        let (pristine, path, _, _) = try Self.ledger()
        let original = try pristine.readFile(path)
        var failures: [String] = []
        for offset in original.indices {
            let fileSystem = pristine.clone()
            fileSystem.corrupt(path, at: offset, xor: 0x20)
            if let failure = Self.expectRefused(fileSystem, naming: path, "flip at \(offset)") { failures.append(failure) }
        }
        for cut in 0..<original.count {
            let fileSystem = pristine.clone()
            try fileSystem.truncateFile(path, to: cut)
            if let failure = Self.expectRefused(fileSystem, naming: path, "cut at \(cut)") { failures.append(failure) }
        }
        print("durable prefix: \(original.count) flips and \(original.count) cuts of the newest segment, failures \(failures.count)")
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(8).joined(separator: "\n"))")
    }

    /// An append that crashed after its frames were synced but before its watermark moved: the
    /// frames read back whole, so opening keeps them and records them; from then on a flip in
    /// them is damage.
    @Test func intactFramesPastTheWatermarkAreKeptAndRecorded() throws {
        let (fileSystem, path, lastFrame, events) = try Self.ledger()
        try WatermarkRewind.rewind(path, to: lastFrame, fileSystem: fileSystem)
        let ledger = try Workload.open(fileSystem)
        #expect(ledger.recovery == nil)
        #expect(try HarnessLedgerCheck.check(ledger, acknowledged: events) == events)
        ledger.close()
        let mark = try SegmentWatermark.decode(fileSystem.readFile(SegmentWatermark.path(of: 2, segmentsPath: Path.parent(of: path))),
                                               segmentNumber: 2).get()
        let size = try fileSystem.fileSize(path)
        #expect(mark.durableLength == size)
        fileSystem.corrupt(path, at: lastFrame + 9, xor: 0x01)
        #expect(Self.expectRefused(fileSystem, naming: path, "flip after recording") == nil)
    }

    /// A segment written before watermarks (a ledger.json without `watermarked_from`): the
    /// frames alone decide, as they did, and the first writer to open it records its watermark.
    @Test func aSegmentWithoutAWatermarkIsJudgedByItsFramesAndThenRecorded() throws {
        let (fileSystem, path, lastFrame, events) = try Self.ledger()
        try WatermarkRewind.makeUnwatermarked(path, fileSystem: fileSystem)
        fileSystem.corrupt(path, at: lastFrame + 9, xor: 0x01)
        let ledger = try Workload.open(fileSystem)
        #expect(ledger.recovery?.offset == lastFrame, "the damaged last frame of an old segment is a tear, as before")
        #expect(try HarnessLedgerCheck.check(ledger, acknowledged: events - 5) == events - 5)
        ledger.close()
        #expect(fileSystem.fileExists(SegmentWatermark.path(of: 2, segmentsPath: Path.parent(of: path))))
    }

    /// Both slots of the watermark of a segment written before `watermarked_from`: one damaged
    /// slot leaves the other generation in charge; two are corruption naming the watermark file.
    /// (In a segment created watermark first, one damaged slot is damage: TwoFaultsTests.)
    @Test func aDamagedSlotFallsBackAndTwoAreCorruption() throws {
        let (fileSystem, path, _, events) = try Self.ledger()
        try WatermarkRewind.forgetWatermarkedFrom(ledger: Workload.directory, fileSystem: fileSystem)
        let watermark = SegmentWatermark.path(of: 2, segmentsPath: Path.parent(of: path))
        let current = try SegmentWatermark.decode(fileSystem.readFile(watermark), segmentNumber: 2).get()
        let size = try fileSystem.fileSize(path)
        // Generation 1 at creation (claiming nothing), then one for each of the three appends.
        #expect(current.generation == 4 && current.durableLength == size)
        let one = fileSystem.clone()
        one.corrupt(watermark, at: current.generation % 2 == 0 ? 20 : 532, xor: 0x04)
        let ledger = try Workload.open(one)
        #expect(try HarnessLedgerCheck.check(ledger, acknowledged: events) == events)
        ledger.close()
        let two = fileSystem.clone()
        two.corrupt(watermark, at: 20, xor: 0x04)
        two.corrupt(watermark, at: 532, xor: 0x04)
        #expect(Self.expectRefused(two, naming: watermark, "both slots damaged") == nil)
    }
}
