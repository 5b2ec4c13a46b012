import LedgerCore
import LedgerTestSupport

/// What recovery must make of a crashed file system: a ledger that opens (or, if `init` never
/// returned, none at all and a directory `init` can use), holds a consistent prefix of the
/// workload with every acknowledged event, passes `verify`, and keeps appending with the right
/// seqs. Throws `HarnessLedgerCheck.Failure` otherwise.
enum CrashCheck {
    enum Outcome: Equatable {
        case noLedger
        case clean
        case recoveredTornTail
    }

    @discardableResult
    static func recover(_ image: CrashableFileSystem, _ progress: Workload.Progress) throws -> Outcome {
        let metadata = Path.join(Workload.directory, LedgerMetadata.fileName)
        guard image.fileExists(metadata) else {
            guard !progress.created else { throw HarnessLedgerCheck.Failure("ledger.json vanished after init returned") }
            // An interrupted init leaves no ledger; running init again must work.
            let ledger = try Ledger.create(directory: Workload.directory, deviceName: HarnessEvents.deviceName,
                                           fileSystem: image, clock: Workload.clock, useLock: false)
            try HarnessLedgerCheck.checkAppendContinues(ledger) { try Workload.open(image) }
            return .noLedger
        }
        let ledger = try Workload.open(image)
        defer { ledger.close() }
        var outcome = Outcome.clean
        if let recovery = ledger.recovery {
            outcome = .recoveredTornTail
            let saved = try image.readFile(recovery.savedTo)
            guard saved.count == recovery.removedBytes else {
                throw HarnessLedgerCheck.Failure("recovery removed \(recovery.removedBytes) bytes but saved \(saved.count)")
            }
        }
        try HarnessLedgerCheck.check(ledger, acknowledged: progress.acknowledged)
        try HarnessLedgerCheck.checkWatermarkCoversTheNewestSegment(ledger)
        try HarnessLedgerCheck.checkAppendContinues(ledger) { try Workload.open(image) }
        return outcome
    }
}
