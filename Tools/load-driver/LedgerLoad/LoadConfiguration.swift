import Foundation
import SyncServerPostgres

/// What one load run does (Tools/load's options).
package struct LoadConfiguration: Sendable {
    /// The `oritsubushi` executable whose `serve` and `server` commands are driven.
    package var executable: String
    package var clients = 50
    /// Local events each client appends, in rounds of `batch`.
    package var eventsPerClient = 1_000
    package var batch = 50
    /// Users the clients are spread over round-robin (devices of one user exchange events);
    /// nil: one user per seven clients, 1 to 10.
    package var users: Int?
    /// Probability that a push is preceded by a copy of it cut mid-request.
    package var disconnectRate = 0.05
    /// Restart the server once, after this many seconds; nil: when half of all events are acknowledged.
    package var restartAfterSeconds: Double?
    /// Whether the restart is a SIGKILL (default) or a graceful SIGTERM.
    package var restartWithKill = true
    package var seed: UInt64 = 1
    /// Pause between two unauthorized probes.
    package var probeInterval: Duration = .milliseconds(20)
    /// A client gives up a sync after retrying for this long.
    package var retryLimit: Duration = .seconds(120)
    /// Where the server data and the client ledgers go; nil: a fresh temporary directory, removed afterwards.
    package var workDirectory: String?
    /// A postgres:// URL: every instance runs `serve --store URL`; nil: the files store in the
    /// work directory. Users get names unique to the run, so a database can take several runs.
    package var store: String?
    /// `serve` instances on the store, each on its own loopback port; clients switch instance
    /// on every request, and the restart is a SIGKILL of one of them. More than 1 needs PostgreSQL.
    package var servers = 1
    /// Idle users registered before the instances start (start-up and throughput with many users).
    package var registeredUsers = 0

    package init(executable: String) { self.executable = executable }

    /// The `oritsubushi` executable SwiftPM built next to `path` (a product or a test bundle),
    /// looking up to three folders up.
    package static func executable(near path: String) -> String {
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("oritsubushi").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("oritsubushi").path
    }

    package var userCount: Int { users ?? min(10, max(1, clients / 7)) }
    package var totalEvents: Int { clients * eventsPerClient }

    /// One sentence per bad option, for exit code 64.
    package func validate() throws {
        func require(_ condition: Bool, _ message: String) throws {
            if !condition { throw LoadError.usage(message) }
        }
        try require(clients >= 1, "--clients must be at least 1")
        try require(eventsPerClient >= 1, "--events must be at least 1")
        try require((1...5_000).contains(batch), "--batch must be 1 to 5000 (the server's push limit)")
        try require(userCount >= 1 && userCount <= clients, "--users must be 1 to the number of clients")
        try require((0...1).contains(disconnectRate), "--disconnect-rate must be between 0 and 1")
        try require(restartAfterSeconds.map { $0 >= 0 } ?? true, "--restart-after-seconds must not be negative")
        try require((1...16).contains(servers), "--servers must be 1 to 16")
        try require(servers == 1 || store != nil,
                    "--servers \(servers) needs --store postgres://…: the files store is one directory that one `serve` process locks")
        try require((0...1_000_000).contains(registeredUsers), "--registered-users must be 0 to 1000000")
        if let store {
            do { _ = try PostgresLocation(url: store) } catch { throw LoadError.usage("\(error)") }
        }
        try require(FileManager.default.isExecutableFile(atPath: executable), "the oritsubushi executable \(executable) does not exist")
    }
}

/// A run that could not be carried out (as opposed to a failed check, which is in the report).
package enum LoadError: Error, CustomStringConvertible {
    case usage(String)
    case server(String)

    package var description: String {
        switch self {
        case .usage(let message), .server(let message): return message
        }
    }
}
