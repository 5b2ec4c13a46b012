import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
#if canImport(Glibc)
import Glibc
#endif

/// `oritsubushi serve` as a child process on 127.0.0.1, and the `server` admin commands, on
/// either store. Restarting keeps the store and the port, as an operator's restart would. Each
/// start is measured (spawn to /v1/health answering, VmRSS then) and each stop adds the
/// process's CPU time and peak RSS, read from /proc just before the signal.
package final class LoadServer: @unchecked Sendable {
    package let executable: String
    package let store: LoadStore
    package let port: Int
    private let logPath: String
    private var process: Process?
    /// The first start: seconds from spawn to a healthy /v1/health, and VmRSS in MiB then.
    private(set) var firstStart: (seconds: Double, rssMiB: Double)?
    /// Over every process this server ran: CPU seconds, and the largest VmHWM in MiB.
    private var cpuSecondsOfStopped = 0.0
    private(set) var peakRSSMiB = 0.0

    /// CPU seconds of every process this server ran, the running one so far included.
    var cpuSeconds: Double {
        cpuSecondsOfStopped + (process.flatMap { ProcessSample.cpuSeconds(pid: $0.processIdentifier) } ?? 0)
    }

    package var url: String { "http://127.0.0.1:\(port)" }

    package init(executable: String, store: LoadStore, logPath: String) throws {
        self.executable = executable
        self.store = store
        self.logPath = logPath
        self.port = try Self.freePort()
    }

    /// Starts the server and waits until /v1/health answers. The probe has its own HTTP client:
    /// in the shared one it would queue behind the clients' retries, which on a loaded machine
    /// (the whole suite under a sanitizer) kept it waiting past the deadline.
    package func start() async throws {
        if !FileManager.default.fileExists(atPath: logPath) {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        }
        guard let log = FileHandle(forWritingAtPath: logPath) else { throw LoadError.server("cannot write the server log \(logPath)") }
        log.seekToEndOfFile()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["serve"] + store.arguments + ["--host", "127.0.0.1", "--port", String(port)]
        var environment = ProcessInfo.processInfo.environment
        environment["LOG_LEVEL"] = "warning"
        child.environment = environment
        child.standardOutput = log
        child.standardError = log
        let spawned = ContinuousClock.now
        try child.run()
        process = child
        let probe = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup)
        do {
            try await waitUntilHealthy(child, probe: probe)
        } catch {
            try? await probe.shutdown()
            throw error
        }
        if firstStart == nil {
            firstStart = ((ContinuousClock.now - spawned).seconds, ProcessSample.memoryMiB(pid: child.processIdentifier, "VmRSS") ?? 0)
        }
        try await probe.shutdown()
    }

    private func waitUntilHealthy(_ child: Process, probe: HTTPClient) async throws {
        let deadline = ContinuousClock.now + .seconds(Self.startTimeoutSeconds)
        while ContinuousClock.now < deadline {
            guard child.isRunning else {
                throw LoadError.server("the server exited with status \(child.terminationStatus) at start; see \(logPath)")
            }
            var request = HTTPClientRequest(url: url + "/v1/health")
            request.method = .GET
            if let response = try? await probe.execute(request, timeout: .seconds(5)), response.status == .ok {
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw LoadError.server("the server did not answer /v1/health within \(Self.startTimeoutSeconds) s; see \(logPath)")
    }

    /// Generous, because sanitizer builds start slowly on a busy machine.
    static let startTimeoutSeconds = 120

    /// Stops the server with `signal` and returns its exit status (SIGKILL: the signal number).
    @discardableResult
    package func stop(signal: Int32) async -> Int32 {
        guard let child = process else { return 0 }
        if child.isRunning {
            cpuSecondsOfStopped += ProcessSample.cpuSeconds(pid: child.processIdentifier) ?? 0
            peakRSSMiB = max(peakRSSMiB, ProcessSample.memoryMiB(pid: child.processIdentifier, "VmHWM") ?? 0)
            kill(child.processIdentifier, signal)
        }
        while child.isRunning { try? await Task.sleep(for: .milliseconds(5)) }
        process = nil
        return child.terminationStatus
    }

    /// Creates a user with `server add-user` and returns its token (the last line printed).
    package func addUser(_ name: String) throws -> String {
        let output = try admin(["server", "add-user", name] + store.arguments)
        guard let token = output.split(separator: "\n").last.map(String.init), token.hasPrefix("ots_") else {
            throw LoadError.server("'server add-user \(name)' printed no token")
        }
        return token
    }

    /// Revokes every token of `name` with `server revoke-token` (the running server sees it at once).
    package func revokeTokens(of name: String) throws {
        _ = try admin(["server", "revoke-token", name] + store.arguments)
    }

    private func admin(_ arguments: [String]) throws -> String {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = arguments
        let out = Pipe()
        child.standardOutput = out
        child.standardError = FileHandle.nullDevice
        try child.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            throw LoadError.server("'oritsubushi \(arguments.prefix(2).joined(separator: " "))' failed with exit \(child.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A port the kernel considers free right now (bound to port 0, read back, released).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoadError.server("cannot open a socket to find a free port") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw LoadError.server("cannot bind a socket on 127.0.0.1 to find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
