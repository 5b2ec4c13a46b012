import LedgerCore
import LedgerTestSupport
import Testing

/// `init` may redo an interrupted `init` (PowerLossTests crash it everywhere), but must never
/// mistake a ledger that lost its ledger.json for one and delete its events.
@Suite struct InterruptedInitTests {
    private func ledger(events: UInt64) throws -> CrashableFileSystem {
        let fileSystem = CrashableFileSystem()
        let ledger = try Ledger.create(directory: Workload.directory, deviceName: HarnessEvents.deviceName,
                                       fileSystem: fileSystem, clock: Workload.clock, useLock: false)
        if events > 0 { _ = try ledger.appendLocal((1...events).map(HarnessEvents.draft(seq:))) }
        ledger.close()
        try fileSystem.removeFile(Path.join(Workload.directory, LedgerMetadata.fileName))
        return fileSystem
    }

    @Test func initRedoesAnInitThatOnlyWroteTheDeviceName() throws {
        let fileSystem = try ledger(events: 0)
        let ledger = try Ledger.create(directory: Workload.directory, deviceName: HarnessEvents.deviceName,
                                       fileSystem: fileSystem, clock: Workload.clock, useLock: false)
        try HarnessLedgerCheck.checkAppendContinues(ledger) { try Workload.open(fileSystem) }
    }

    @Test(arguments: [UInt64(1), 30])
    func initKeepsTheEventsOfALedgerThatLostItsMetadata(events: UInt64) throws {
        let fileSystem = try ledger(events: events)
        let segments = Path.join(Workload.directory, Ledger.segmentsDirectory)
        let before = fileSystem.snapshot(under: segments)
        let error = try #require(throws: LedgerError.self) {
            try Ledger.create(directory: Workload.directory, deviceName: HarnessEvents.deviceName,
                              fileSystem: fileSystem, clock: Workload.clock, useLock: false)
        }
        #expect(error.message.hasSuffix("the directory is not empty"))
        #expect(fileSystem.snapshot(under: segments) == before)
    }
}
