import LedgerCore
import LedgerTestSupport
import Testing

/// The recovery rule (issue 2): the newest segment cut at any byte offset reopens with every
/// earlier event, loses only the frame that was cut (saved byte for byte to a `.torn` file), and
/// appending continues with the next seq.
@Suite struct TornTailTests {
    /// A ledger with one sealed segment and a newest segment of several frames: single events,
    /// batches, a 4 KiB memo. Returns the file system, the newest segment's path and, for every
    /// frame boundary of it, the number of events held up to there.
    private static func ledger(sealNewest: Bool) throws -> (CrashableFileSystem, String, [(offset: Int, events: UInt64)]) {
        let fileSystem = CrashableFileSystem()
        let ledger = try Ledger.create(directory: Workload.directory, deviceName: HarnessEvents.deviceName,
                                       fileSystem: fileSystem, clock: Workload.clock, useLock: false)
        defer { ledger.close() }
        var held: UInt64 = 0
        func append(_ count: UInt64) throws {
            _ = try ledger.appendLocal((held + 1...held + count).map(HarnessEvents.draft(seq:)))
            held += count
        }
        try append(4)
        try ledger.sealActiveSegment()
        let path = Path.join(ledger.segmentsPath, SegmentInfo.fileName(2))
        var boundaries: [(offset: Int, events: UInt64)] = []
        for count in [1, 6, 1, 3] as [UInt64] {
            try append(count)
            if boundaries.isEmpty { boundaries.append((SegmentHeader.frameSize, held - count)) }
            boundaries.append((try fileSystem.fileSize(path), held))
        }
        if sealNewest {
            try ledger.sealActiveSegment()
            boundaries.append((try fileSystem.fileSize(path), boundaries.last!.events))
        }
        return (fileSystem, path, boundaries)
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
            // The frames that survive whole: those that end at or before the cut.
            let kept = boundaries.last { $0.offset <= cut }
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
