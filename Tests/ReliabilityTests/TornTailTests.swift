import LedgerCore
import LedgerTestSupport
import Testing

/// The recovery rule (Schemas/segment-format.md §5, with the watermark of §5b): the newest
/// segment cut at any byte offset past its watermark — an append that never returned — reopens
/// with every earlier event, loses only the frame that was cut (saved byte for byte to a `.torn`
/// file), and appending continues with the next seq. Below the watermark, nothing is ever cut.
@Suite struct TornTailTests {
    /// A newest segment of several frames: single events, batches, a 4 KiB memo.
    private static func ledger(sealNewest: Bool) throws -> (CrashableFileSystem, String, [(offset: Int, events: UInt64)]) {
        let ledger = try NewestSegmentLedger(batches: [1, 6, 1, 3], sealNewest: sealNewest)
        return (ledger.fileSystem, ledger.path, ledger.boundaries)
    }

    @Test(arguments: [false, true])
    func truncationAtEveryOffsetOfTheNewestSegment(sealed: Bool) throws {
        let (pristine, path, boundaries) = try Self.ledger(sealNewest: sealed)
        let original = try pristine.readFile(path)
        let firstSegmentEvents = boundaries[0].events
        var failures: [String] = []
        var tears = 0
        for cut in 0...original.count {
            let fileSystem = pristine.clone()
            try fileSystem.truncateFile(path, to: cut)
            // The frames that survive whole: those that end at or before the cut. The append
            // that was cut never returned, so the watermark is where the one before left it.
            let kept = boundaries.last { $0.offset <= cut }
            try WatermarkRewind.rewind(path, to: kept?.offset, fileSystem: fileSystem)
            let expectedEvents = kept?.events ?? firstSegmentEvents
            let expectedTear = cut < SegmentHeader.frameSize ? 0 : kept!.offset
            do {
                let ledger = try Workload.open(fileSystem)
                defer { ledger.close() }
                let isBoundary = boundaries.contains { $0.offset == cut }
                if isBoundary {
                    guard ledger.recovery == nil else { throw HarnessLedgerCheck.Failure("recovered at a frame boundary") }
                } else {
                    tears += 1
                    guard let recovery = ledger.recovery else { throw HarnessLedgerCheck.Failure("no tear reported") }
                    guard recovery.offset == expectedTear, recovery.removedBytes == cut - expectedTear,
                          try fileSystem.readFile(recovery.savedTo) == Array(original[expectedTear..<cut])
                    else { throw HarnessLedgerCheck.Failure("wrong recovery: \(recovery)") }
                }
                let held = try HarnessLedgerCheck.check(ledger, acknowledged: expectedEvents)
                guard held == expectedEvents else {
                    throw HarnessLedgerCheck.Failure("holds \(held) events, expected exactly \(expectedEvents)")
                }
                let after = try HarnessLedgerCheck.checkAppendContinues(ledger) { try Workload.open(fileSystem) }
                guard after == expectedEvents + 1 else { throw HarnessLedgerCheck.Failure("\(after) events after the append") }
            } catch {
                failures.append("cut at \(cut) of \(original.count): \(error)")
            }
        }
        print("torn tails (newest segment \(sealed ? "sealed" : "open")): \(original.count + 1) cuts, \(tears) tears recovered, failures \(failures.count)")
        #expect(tears > original.count - boundaries.count - SegmentHeader.frameSize - 1)
        #expect(failures.isEmpty, "\(failures.count) cuts failed:\n\(failures.prefix(8).joined(separator: "\n"))")
    }

    /// The same on the real file system, for every offset of the last frame.
    @Test func truncationOfTheLastFrameOnDisk() throws {
        let directory = try TemporaryDirectory()
        let ledgerPath = Path.join(directory.path, "ledger")
        let posix = PosixFileSystem()
        var ledger = try Ledger.create(directory: ledgerPath, deviceName: HarnessEvents.deviceName, clock: Workload.clock)
        _ = try ledger.appendLocal((1...5).map(HarnessEvents.draft(seq:)))
        let path = Path.join(ledger.segmentsPath, SegmentInfo.fileName(1))
        let start = try posix.fileSize(path)
        _ = try ledger.appendLocal((6...9).map(HarnessEvents.draft(seq:)))
        ledger.close()
        let original = try posix.readFile(path)
        for cut in (start + 1..<original.count).reversed() {
            try posix.truncateFile(path, to: cut)
            try WatermarkRewind.rewind(path, to: start, fileSystem: posix)
            ledger = try Ledger.open(directory: ledgerPath, clock: Workload.clock)
            let recovery = try #require(ledger.recovery, "cut at \(cut)")
            #expect(recovery.offset == start && recovery.removedBytes == cut - start)
            #expect(try posix.readFile(recovery.savedTo) == Array(original[start..<cut]))
            #expect(try HarnessLedgerCheck.check(ledger, acknowledged: 5) == 5, "cut at \(cut)")
            ledger.close()
            // Put the frame back for the next cut.
            let file = try posix.openForAppend(path, create: false)
            try original[start...].withUnsafeBytes { try file.write($0) }
            try file.sync()
            file.close()
            try posix.removeFile(recovery.savedTo)
        }
        print("torn tails on disk: \(original.count - start - 1) cuts of the last frame")
        ledger = try Ledger.open(directory: ledgerPath, clock: Workload.clock)
        #expect(ledger.recovery == nil)
        try HarnessLedgerCheck.checkAppendContinues(ledger) { try Ledger.open(directory: ledgerPath, clock: Workload.clock) }
    }
}
