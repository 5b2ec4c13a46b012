import LedgerCore
import LedgerTestSupport
import Testing

/// A full disk (ENOSPC) or a failing device (EIO) at every file operation of an append: the
/// append fails with an I/O error and leaves the ledger byte-for-byte as it was (and so does a
/// power loss right after), unless the batch was already durable, in which case it is
/// acknowledged; either way the next append, once space returns, continues with the next seq.
@Suite struct FullDiskTests {
    /// Where the next append goes.
    enum Situation: String, CaseIterable, Sendable {
        /// Into the active segment, which stays below the roll threshold.
        case activeSegment
        /// Into the active segment, which then reaches the threshold and is sealed.
        case sealingAppend
        /// Into a new segment, because the previous one is sealed.
        case newSegment
    }

    /// A ledger on a fresh file system, prepared so that the next append of `batch` events
    /// meets `situation`.
    private static func prepare(_ situation: Situation, batch: Int) throws -> (CrashableFileSystem, UInt64) {
        let fileSystem = CrashableFileSystem()
        let ledger = try Ledger.create(directory: Workload.directory, deviceName: HarnessEvents.deviceName,
                                       fileSystem: fileSystem, clock: Workload.clock, useLock: false)
        defer { ledger.close() }
        _ = try ledger.appendLocal((1...3).map(HarnessEvents.draft(seq:)))
        if situation == .newSegment { try ledger.sealActiveSegment() }
        return (fileSystem, 3)
    }

    private static func open(_ fileSystem: CrashableFileSystem, _ situation: Situation) throws -> Ledger {
        let ledger = try Ledger.open(directory: Workload.directory, fileSystem: fileSystem, clock: Workload.clock, useLock: false)
        ledger.rollThreshold = situation == .sealingAppend ? 64 : 1 << 20
        return ledger
    }

    private static func drafts(after held: UInt64, count: Int) -> [StationEditDraft] {
        (held + 1...held + UInt64(count)).map(HarnessEvents.draft(seq:))
    }

    /// The file operations one append performs in `situation`, from a dry run.
    private static func operations(_ situation: Situation, batch: Int) throws -> [FileOperation] {
        let (fileSystem, held) = try prepare(situation, batch: batch)
        let ledger = try open(fileSystem, situation)
        let before = fileSystem.operationCount
        _ = try ledger.appendLocal(drafts(after: held, count: batch))
        return fileSystem.operationLog[before...].map { FileOperation(rawValue: String($0.split(separator: " ")[0]))! }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var situation: Situation
        var code: InjectedFault.Code
        var partial: Bool
        var testDescription: String { "\(situation) \(code == .noSpace ? "ENOSPC" : "EIO")\(partial ? " after a short write" : "")" }
    }

    static let cases: [Case] = Situation.allCases.flatMap { situation in
        [Case(situation: situation, code: .noSpace, partial: false), Case(situation: situation, code: .noSpace, partial: true),
         Case(situation: situation, code: .ioError, partial: false)]
    }

    @Test(arguments: cases)
    func aFailureAtEveryOperationOfAnAppend(_ c: Case) throws {
        let batch = 5
        let operations = try Self.operations(c.situation, batch: batch)
        #expect(operations.contains(.write) && operations.contains(.sync))
        print("full disk (\(c.testDescription)): a fault at each of \(operations.count) operations \(operations.map(\.rawValue))")
        for (index, operation) in operations.enumerated() {
            let occurrence = operations[...index].filter { $0 == operation }.count
            let context = "failing \(operation) #\(occurrence) of \(operations.map(\.rawValue))"
            let (fileSystem, held) = try Self.prepare(c.situation, batch: batch)
            let ledger = try Self.open(fileSystem, c.situation)
            let before = fileSystem.snapshot()
            fileSystem.inject(InjectedFault(operation, occurrence: occurrence, code: c.code, partialBytes: c.partial ? 7 : 0))
            var acknowledged = held
            do {
                let events = try ledger.appendLocal(Self.drafts(after: held, count: batch))
                acknowledged = events.last!.id.seq
            } catch let error as LedgerError {
                #expect(error.category == .io, "\(context)")
                let reason = c.code == .noSpace ? "the disk is full" : "input/output error"
                #expect(error.message.hasSuffix(reason), "\(context): \(error.message)")
                #expect(fileSystem.snapshot() == before, "\(context): a failed append changed the ledger")
                #expect(ledger.recordCount == UInt64(held) + 1)
            }
            // A power loss right now keeps at least what was acknowledged, and nothing wrong.
            try CrashCheck.recover(fileSystem.image(.powerLoss),
                                   Workload.Progress(created: true, acknowledged: acknowledged))
            // Space returns: the next append continues the seqs with no gap and no repeat.
            fileSystem.clearFaults()
            let next = try ledger.appendLocal(Self.drafts(after: acknowledged, count: 2))
            #expect(next.map(\.id.seq) == [acknowledged + 1, acknowledged + 2], "\(context)")
            ledger.close()
            let reopened = try Self.open(fileSystem, c.situation)
            try HarnessLedgerCheck.check(reopened, acknowledged: acknowledged + 2)
            #expect(reopened.recovery == nil, "\(context): the failed append left a torn tail")
            reopened.close()
        }
    }

    /// A short write whose bytes cannot even be cut off (the truncate fails too): the next write
    /// must cut them first, never append after them.
    @Test(arguments: [Situation.activeSegment, .sealingAppend])
    func aFailedCutIsRetriedBeforeTheNextWrite(situation: Situation) throws {
        let (fileSystem, held) = try Self.prepare(situation, batch: 5)
        let ledger = try Self.open(fileSystem, situation)
        let failing: FileOperation = situation == .activeSegment ? .write : .sync
        // When sealing, the third sync is the footer's (after the frames' and the watermark's).
        fileSystem.inject(InjectedFault(failing, occurrence: situation == .activeSegment ? 1 : 3, code: .ioError, partialBytes: 9))
        fileSystem.inject(InjectedFault(.truncate, code: .ioError))
        var acknowledged = held
        do {
            acknowledged = try ledger.appendLocal(Self.drafts(after: held, count: 5)).last!.id.seq
        } catch {
            #expect(situation == .activeSegment)
        }
        fileSystem.inject(InjectedFault(.truncate, code: .ioError))
        #expect(throws: LedgerError.self, "the cut is retried first, and fails") {
            try ledger.appendLocal(Self.drafts(after: acknowledged, count: 1))
        }
        let events = try ledger.appendLocal(Self.drafts(after: acknowledged, count: 3))
        #expect(events.map(\.id.seq) == [acknowledged + 1, acknowledged + 2, acknowledged + 3])
        try ledger.sealActiveSegment()
        ledger.close()
        let reopened = try Self.open(fileSystem, situation)
        defer { reopened.close() }
        #expect(reopened.recovery == nil)
        try HarnessLedgerCheck.check(reopened, acknowledged: acknowledged + 3)
    }

    /// The disk fills up and stays full: every append fails and changes nothing, until space is
    /// freed.
    @Test(arguments: Situation.allCases)
    func aDiskThatStaysFull(situation: Situation) throws {
        let (fileSystem, held) = try Self.prepare(situation, batch: 40)
        let ledger = try Self.open(fileSystem, situation)
        defer { ledger.close() }
        let before = fileSystem.snapshot()
        for free in [0, 10, 60] {
            fileSystem.freeSpace = free
            let error = try #require(throws: LedgerError.self) {
                try ledger.appendLocal(Self.drafts(after: held, count: 40))
            }
            #expect(error.message.hasSuffix("the disk is full"))
            #expect(fileSystem.snapshot() == before, "with \(free) bytes free")
        }
        fileSystem.freeSpace = nil
        let events = try ledger.appendLocal(Self.drafts(after: held, count: 40))
        #expect(events.first?.id.seq == held + 1 && events.last?.id.seq == held + 40)
        try HarnessLedgerCheck.check(ledger, acknowledged: held + 40)
    }
}
