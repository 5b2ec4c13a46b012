import Foundation
import LedgerCore

/// The process-kill crash test: a child `crash-harness child` appends durable batches in a loop
/// and prints `ACK <seq>` after each `appendLocal` returns; the parent SIGKILLs it after a random
/// delay (from the spawn, or from the child's first line), then checks a copy of the ledger (recovery runs on the copy, so that the next child
/// meets the torn tail and may itself be killed while recovering it).
///
/// Every check is `HarnessLedgerCheck`'s: every acknowledged event present with the right content,
/// nothing corrupt or partial, `verify` clean, and the next append getting the next seq.
package struct ProcessKillTrials {
    package struct Configuration: Sendable {
        /// The `crash-harness` executable.
        package var harness: String
        /// A scratch directory; ledgers and copies are made inside it.
        package var workDirectory: String
        package var trials: Int
        package var seed: UInt64
        /// Kill delays are uniform in 0…this (milliseconds after the spawn).
        package var maximumKillDelay: Int = 60
        /// A new ledger every this many trials (so that kills also hit `init`).
        package var freshLedgerEvery: Int = 20
        /// The child's segment roll threshold, small so that kills hit sealing and new segments.
        package var rollThreshold: Int = 4096
        /// Batches of 1…this many events.
        package var maximumBatch: Int = 8

        package init(harness: String, workDirectory: String, trials: Int, seed: UInt64) {
            self.harness = harness
            self.workDirectory = workDirectory
            self.trials = trials
            self.seed = seed
        }
    }

    package struct Report: Sendable, CustomStringConvertible {
        package var trials = 0
        package var ledgers = 0
        /// Acknowledged events over all trials (each counted once).
        package var acknowledgedEvents: UInt64 = 0
        /// Trials whose copy held a torn tail that recovery removed.
        package var tornTailsRecovered = 0
        /// Children that recovered a tail at start (that is, found one left by an earlier kill).
        package var childRecoveries = 0
        /// Children killed before `init` finished.
        package var killsDuringCreate = 0
        /// Children that had exited on their own (an error) before the kill.
        package var childFailures = 0
        /// Sealed segments in the checked copies (at their largest).
        package var sealedSegments = 0
        package var seconds: Double = 0
        package var failures: [String] = []

        package var description: String {
            """
            trials: \(trials) on \(ledgers) ledgers in \(String(format: "%.1f", seconds)) s
            acknowledged events: \(acknowledgedEvents) (all present after every kill: \(failures.isEmpty ? "yes" : "NO"))
            torn tails recovered by the checker: \(tornTailsRecovered); tails recovered by a child: \(childRecoveries)
            kills during init: \(killsDuringCreate); sealed segments seen: \(sealedSegments)
            failures: \(failures.count)
            """
        }
    }

    package let configuration: Configuration

    package init(_ configuration: Configuration) { self.configuration = configuration }

    package func run() throws -> Report {
        let c = configuration
        let files = FileManager.default
        try files.createDirectory(atPath: c.workDirectory, withIntermediateDirectories: true)
        var generator = SeededGenerator(seed: c.seed)
        var report = Report()
        let start = Date()
        var ledger = ""
        var acknowledged: UInt64 = 0
        var created = false
        var sealedMax = 0
        for trial in 0..<c.trials {
            if trial % c.freshLedgerEvery == 0 {
                report.sealedSegments += sealedMax
                sealedMax = 0
                ledger = Path.join(c.workDirectory, "ledger-\(trial / c.freshLedgerEvery)")
                try? files.removeItem(atPath: ledger)
                acknowledged = 0
                created = false
                report.ledgers += 1
            }
            let delay = Int.random(in: 0...c.maximumKillDelay, using: &generator)
            let childSeed = generator.next()
            let outcome = try runChild(ledger: ledger, seed: childSeed, delayMilliseconds: delay, trial: trial)
            report.trials += 1
            if outcome.exitedByItself {
                report.childFailures += 1
                report.failures.append("trial \(trial): the child exited on its own: \(outcome.errors)")
            }
            if outcome.recovered { report.childRecoveries += 1 }
            if outcome.created { created = true }
            if !created { report.killsDuringCreate += 1 }
            if outcome.acknowledged > acknowledged {
                report.acknowledgedEvents += outcome.acknowledged - acknowledged
                acknowledged = outcome.acknowledged
            }
            do {
                let check = try checkCopy(of: ledger, acknowledged: acknowledged, created: created, trial: trial)
                if check.recovered { report.tornTailsRecovered += 1 }
                sealedMax = max(sealedMax, check.sealed)
            } catch {
                report.failures.append("trial \(trial) (seed \(childSeed), kill after \(delay) ms): \(error)")
            }
        }
        report.sealedSegments += sealedMax
        report.seconds = Date().timeIntervalSince(start)
        try? files.removeItem(atPath: c.workDirectory)
        return report
    }

    private struct ChildOutcome {
        var acknowledged: UInt64 = 0
        var created = false
        var recovered = false
        var exitedByItself = false
        var errors = ""
    }

    private func runChild(ledger: String, seed: UInt64, delayMilliseconds: Int, trial: Int) throws -> ChildOutcome {
        let c = configuration
        let outPath = Path.join(c.workDirectory, "child.out")
        let errPath = Path.join(c.workDirectory, "child.err")
        for path in [outPath, errPath] {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: c.harness)
        process.arguments = ["child", ledger, "--seed", String(seed), "--roll-threshold", String(c.rollThreshold),
                             "--max-batch", String(c.maximumBatch)]
        // Files, not pipes: a killed child leaves no pipe to drain, and every line it wrote is kept.
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        try process.run()
        // Every other trial counts its delay from the child's first line (the ledger is open):
        // those kills land in appends however slow the machine (a sanitizer build) makes start-up;
        // the rest count from the spawn, so that kills also land in init, open and recovery.
        if trial % 2 == 1 {
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline
                && !(FileManager.default.contents(atPath: outPath)?.contains(0x0A) ?? false) {
                usleep(1_000)
            }
        }
        usleep(useconds_t(delayMilliseconds * 1000))
        let alreadyExited = !process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        var outcome = ChildOutcome()
        outcome.exitedByItself = alreadyExited && process.terminationReason == .exit
        let output = String(decoding: FileManager.default.contents(atPath: outPath) ?? Data(), as: UTF8.self)
        // Only complete lines count: the child may die in the middle of writing one.
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for line in lines {
            let words = line.split(separator: " ")
            switch words.first {
            case "ACK": outcome.acknowledged = max(outcome.acknowledged, words.count > 1 ? UInt64(words[1]) ?? 0 : 0)
            case "CREATED": outcome.created = true
            case "OPENED": outcome.created = true
            case "RECOVERED": outcome.recovered = true
            default: break
            }
        }
        if outcome.exitedByItself {
            outcome.errors = String(decoding: FileManager.default.contents(atPath: errPath) ?? Data(), as: UTF8.self)
        }
        return outcome
    }

    /// Opens a copy of the ledger and checks it, including that appending continues.
    private func checkCopy(of ledger: String, acknowledged: UInt64, created: Bool, trial: Int)
        throws -> (recovered: Bool, sealed: Int)
    {
        let files = FileManager.default
        let copy = Path.join(configuration.workDirectory, "check")
        try? files.removeItem(atPath: copy)
        guard files.fileExists(atPath: ledger) else {
            if created { throw HarnessLedgerCheck.Failure("the ledger directory vanished") }
            return (false, 0)
        }
        try files.copyItem(atPath: ledger, toPath: copy)
        defer { try? files.removeItem(atPath: copy) }
        let opened: Ledger
        do {
            opened = try Ledger.open(directory: copy)
        } catch let error as LedgerError where error.category == .missingLedger && !created {
            return (false, 0)  // killed during init, before ledger.json existed
        }
        defer { opened.close() }
        let recovered = opened.recovery != nil
        if let recovery = opened.recovery {
            // The torn bytes must have been saved aside, exactly.
            let saved = try PosixFileSystem().readFile(recovery.savedTo)
            guard saved.count == recovery.removedBytes else {
                throw HarnessLedgerCheck.Failure("recovery saved \(saved.count) bytes but removed \(recovery.removedBytes)")
            }
        }
        try HarnessLedgerCheck.check(opened, acknowledged: acknowledged)
        try HarnessLedgerCheck.checkWatermarkCoversTheNewestSegment(opened)
        let sealed = opened.segments.filter(\.sealed).count
        opened.rollThreshold = configuration.rollThreshold
        try HarnessLedgerCheck.checkAppendContinues(opened) { try Ledger.open(directory: copy) }
        return (recovered, sealed)
    }
}
