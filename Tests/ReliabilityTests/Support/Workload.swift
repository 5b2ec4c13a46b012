import LedgerCore
import LedgerTestSupport

/// A scripted session against a ledger on a `CrashableFileSystem`: `init`, single and batched
/// appends across several segment rolls, a close and reopen, more appends. It records how many
/// events had been acknowledged (their `appendLocal` returned) when it stopped, which is all a
/// crash may not take away.
struct Workload {
    static let directory = "/ledger"
    /// Small, so that the workload seals several segments.
    static let rollThreshold = 500
    static let clock = FixedClock(milliseconds: 1_763_776_800_000)

    /// Batch sizes before and after the reopen (batches of several events are one frame and one fsync).
    var batchesBeforeReopen = [1, 3, 1, 7, 2, 1, 12, 1, 1, 5, 2]
    var batchesAfterReopen = [2, 1, 4, 1]

    /// What the workload got through before it stopped.
    struct Progress {
        var created = false
        var acknowledged: UInt64 = 0
        var stoppedBy: (any Error)?
    }

    /// Runs until done or until the file system fails (an armed crash); never throws.
    func run(on fileSystem: CrashableFileSystem) -> Progress {
        var progress = Progress()
        do {
            var ledger = try Ledger.create(directory: Self.directory, deviceName: HarnessEvents.deviceName,
                                           fileSystem: fileSystem, clock: Self.clock, useLock: false)
            progress.created = true
            ledger.rollThreshold = Self.rollThreshold
            for count in batchesBeforeReopen { try append(count, to: ledger, &progress) }
            ledger.close()
            ledger = try Self.open(fileSystem)
            for count in batchesAfterReopen { try append(count, to: ledger, &progress) }
            ledger.close()
        } catch {
            progress.stoppedBy = error
        }
        return progress
    }

    private func append(_ count: Int, to ledger: Ledger, _ progress: inout Progress) throws {
        let first = progress.acknowledged + 1
        let drafts = (first..<first + UInt64(count)).map(HarnessEvents.draft(seq:))
        let events = try ledger.appendLocal(drafts)
        progress.acknowledged = events.last!.id.seq
    }

    static func open(_ fileSystem: CrashableFileSystem) throws -> Ledger {
        let ledger = try Ledger.open(directory: directory, fileSystem: fileSystem, clock: clock, useLock: false)
        ledger.rollThreshold = rollThreshold
        return ledger
    }

    /// The number of mutating file operations of a complete run: the crash points.
    func operationCount() -> Int {
        let fileSystem = CrashableFileSystem()
        let progress = run(on: fileSystem)
        precondition(progress.stoppedBy == nil, "the workload fails without a crash: \(progress.stoppedBy!)")
        return fileSystem.operationCount
    }
}
