import Foundation
import LedgerLoad
import LedgerTestSupport

/// Runs the built `load-generator` (Tools/load's driver) as a child process and reads its JSON
/// report. The bounded load tests run it in its own process, not in the test process: there
/// the clients' tasks share the two-thread cooperative pool with every other suite running at
/// once, and a client starved of a thread records its push's answer late, so the restart could
/// count pushes already answered as in flight at its SIGKILL and never land one mid-push.
enum LoadGeneratorProcess {
    struct Outcome {
        var status: Int32
        var report: LoadReport?
        /// The driver's log lines (`load: …`), for a failure's message.
        var log: String
    }

    static func run(_ arguments: [String]) async throws -> Outcome {
        let oritsubushi = LoadConfiguration.executable(near: CommandLine.arguments[0])
        let folder = URL(fileURLWithPath: oritsubushi).deletingLastPathComponent()
        let process = Process()
        process.executableURL = folder.appendingPathComponent("load-generator")
        process.arguments = ["--executable", oritsubushi, "--json"] + arguments
        // Files, not pipes: the server it starts inherits nothing that could block a read.
        let output = try OutputFiles(prefix: "load-generator")
        output.attach(to: process)
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return Outcome(status: status, report: try? JSONDecoder().decode(LoadReport.self, from: output.stdout),
                       log: String(decoding: output.stderr, as: UTF8.self))
    }
}
