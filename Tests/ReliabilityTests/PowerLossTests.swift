import LedgerCore
import LedgerTestSupport
import Testing

/// Power loss at every mutating file operation of a session (`init`, single and batched appends,
/// segment rolls, a reopen) and of recovery itself, under pebble's crash rules and variants that
/// keep some or all unsynced bytes (Tests/ReliabilityTests/Support/Workload.swift).
@Suite struct PowerLossTests {
    static let workload = Workload()

    /// Crash images taken at every crash point. Random-prefix seeds are mixed with the crash point.
    static let models: [CrashOptions] = [
        .powerLoss, .powerLossKeepingData, .processKill,
        .powerLoss(keepingRandomPrefix: 1), .powerLoss(keepingRandomPrefix: 2), .powerLoss(keepingRandomPrefix: 3),
    ]

    private static func options(_ model: CrashOptions, at point: Int) -> CrashOptions {
        guard case .keepRandomPrefix(let seed) = model.unsyncedData else { return model }
        return .powerLoss(keepingRandomPrefix: seed &* 1_000_003 &+ UInt64(point))
    }

    @Test func theWorkloadCoversEveryKindOfOperation() throws {
        let fileSystem = CrashableFileSystem()
        let progress = Self.workload.run(on: fileSystem)
        #expect(progress.stoppedBy == nil)
        #expect(progress.acknowledged == 44)
        let ledger = try Workload.open(fileSystem)
        #expect(ledger.segments.filter(\.sealed).count >= 3, "the workload must roll segments")
        try HarnessLedgerCheck.check(ledger, acknowledged: 44)
        let kinds = Set(fileSystem.operationLog.map { String($0.split(separator: " ")[0]) })
        #expect(kinds.isSuperset(of: ["createDirectory", "createFile", "write", "sync", "syncDirectory", "rename"]))
    }

    @Test(arguments: models)
    func crashAtEveryOperation(model: CrashOptions) throws {
        let points = Self.workload.operationCount()
        var failures: [String] = []
        var outcomes: [CrashCheck.Outcome: Int] = [:]
        for point in 0...points {
            let fileSystem = CrashableFileSystem()
            fileSystem.crash(afterOperations: point)
            let progress = Self.workload.run(on: fileSystem)
            let image = fileSystem.image(Self.options(model, at: point))
            do {
                outcomes[try CrashCheck.recover(image, progress), default: 0] += 1
            } catch {
                failures.append("crash after operation \(point) (\(fileSystem.operationLog.last ?? "none")), "
                                + "\(progress.acknowledged) acknowledged: \(error)")
            }
        }
        print("power loss (\(model)): \(points + 1) crash points, outcomes \(outcomes), failures \(failures.count)")
        #expect(failures.isEmpty, "\(failures.count) of \(points + 1) crash points failed:\n\(failures.prefix(8).joined(separator: "\n"))")
        if case .keepRandomPrefix = model.unsyncedData {
            #expect(outcomes[.recoveredTornTail, default: 0] > 0, "random prefixes must produce torn tails")
        }
    }

    /// A crash while recovery truncates a torn tail (copying it aside, fsyncing, truncating)
    /// must leave a ledger that the next open recovers just the same.
    @Test(arguments: [UInt64(11), 12, 13])
    func crashDuringRecovery(seed: UInt64) throws {
        let points = Self.workload.operationCount()
        var failures: [String] = []
        var recoveryCrashPoints = 0
        for point in 0...points {
            let fileSystem = CrashableFileSystem()
            fileSystem.crash(afterOperations: point)
            let progress = Self.workload.run(on: fileSystem)
            let torn = fileSystem.image(.powerLoss(keepingRandomPrefix: seed &* 7_919 &+ UInt64(point)))
            // A dry run tells whether opening recovers anything and how many operations it takes.
            let dry = torn.clone()
            let before = dry.operationCount
            guard let ledger = try? Workload.open(dry), ledger.recovery != nil else { continue }
            ledger.close()
            let recoveryOperations = dry.operationCount - before
            for step in 0..<recoveryOperations {
                recoveryCrashPoints += 1
                let interrupted = torn.clone()
                interrupted.crash(afterOperations: interrupted.operationCount + step)
                do {
                    _ = try Workload.open(interrupted)
                } catch where !interrupted.hasCrashed {
                    failures.append("recovery failed with no crash, after workload operation \(point), recovery operation \(step): \(error)")
                } catch {
                    // The crash this iteration injected: what it left is checked below.
                }
                for model in [CrashOptions.powerLoss, .powerLoss(keepingRandomPrefix: seed &+ UInt64(step)), .processKill] {
                    do {
                        try CrashCheck.recover(interrupted.image(model), progress)
                    } catch {
                        failures.append("crash after workload operation \(point), recovery operation \(step) "
                                        + "(\(interrupted.operationLog.last ?? "none")), \(model): \(error)")
                    }
                }
            }
        }
        print("crash during recovery (seed \(seed)): \(recoveryCrashPoints) crash points × 3 models, failures \(failures.count)")
        #expect(recoveryCrashPoints > 20, "the torn images must exercise recovery")
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(8).joined(separator: "\n"))")
    }
}
