import Foundation
import LedgerTestSupport
import Testing

/// `oritsubushi server serve --port 0` in a child process, as an operator starts it; the bound
/// port is read from its log. A child process (not an in-process server) because the tests drive
/// it with the blocking, built `oritsubushi` client: in-process, both would need the same two
/// cooperative threads.
final class ServerProcess {
    let process = Process()
    let logFile: URL
    private(set) var port = 0

    var url: String { "http://127.0.0.1:\(port)" }

    /// The files store in `data`.
    convenience init(data: String, command: [String] = ["server", "serve"]) async throws {
        try await self.init(storeArguments: ["--data", data], command: command)
    }

    /// Any store, named as the command line names it (`--data DIR` or `--store URL`), on `port`
    /// (0: one the kernel picks; a server started again takes the port its clients know).
    init(storeArguments: [String], command: [String] = ["server", "serve"], environment: [String: String] = [:],
         port: Int = 0) async throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments = command + storeArguments + ["--port", "\(port)"]
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()
        // Wait (bounded) for the "listening" line that names the port, sleeping between looks.
        for _ in 0..<1200 {
            if let match = log.firstMatch(of: /port=(\d+)[^\n]*\] listening/), let bound = Int(match.1), bound > 0 {
                self.port = bound
                return
            }
            if !process.isRunning { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        let text = log
        terminate()
        throw ServerDidNotStart(log: text)
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        let log: String
        var description: String { "the server did not start; its log:\n\(log)" }
    }

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// SIGTERM, then the exit status, awaited.
    func stop() async -> Int32 {
        process.terminate()
        _ = await ChildProcess.exit(of: process, within: .seconds(60))
        return process.terminationStatus
    }

    /// SIGKILL: the crash an instance meets when its machine goes away; awaited.
    func kill() async {
        if process.isRunning {
            Foundation.kill(process.processIdentifier, SIGKILL)
            _ = await ChildProcess.exit(of: process, within: .seconds(60))
        }
    }

    /// SIGTERM and the exit, for a `defer` (which cannot await): the wait is for a process
    /// already told to stop, which a graceful shutdown ends within a second.
    func terminate() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: logFile)
    }
}
