import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// SIGKILL at random moments while a child process creates a ledger and appends durable batches
/// (`crash-harness child`): after every kill, every acknowledged event is there, nothing is corrupt
/// or partial, and appending continues with the next seq (LedgerTestSupport/ProcessKillTrials.swift).
/// `Tools/crash-test --trials N` runs more.
@Suite struct ProcessKillTests {
    /// The products directory: where `swift test` put this test binary, and `crash-harness` beside it.
    static var harness: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return Path.join(Path.parent(of: executable), "crash-harness")
    }

    @Test func threeHundredKillsLoseNothingAcknowledged() throws {
        let harness = Self.harness
        try #require(FileManager.default.isExecutableFile(atPath: harness),
                     "crash-harness is not built next to the tests (\(harness)); run `swift build --product crash-harness` with the same scratch path")
        let work = try TemporaryDirectory("crash-test")
        var configuration = ProcessKillTrials.Configuration(
            harness: harness, workDirectory: Path.join(work.path, "trials"), trials: 300, seed: 20_261_122)
        configuration.maximumKillDelay = 100
        let report = try ProcessKillTrials(configuration).run()
        print(report)
        #expect(report.trials == 300)
        #expect(report.failures.isEmpty, "\(report.failures.count) failures:\n\(report.failures.prefix(8).joined(separator: "\n"))")
        // Half the kills come after the child has opened its ledger, so appends get acknowledged
        // and segments rolled however slow the machine is.
        #expect(report.acknowledgedEvents > 0, "the children must get appends acknowledged before being killed")
        #expect(report.sealedSegments > 0, "the children must roll segments")
    }
}
