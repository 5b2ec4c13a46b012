import ArgumentParser
import Foundation
import LedgerLoad

/// Tools/load's driver: runs one load against `oritsubushi serve` and prints the figures.
/// Exit 0 when every check passed, 1 when one failed, 64 for a bad option, 69 when the
/// server could not be run.
@main
struct LoadGenerator: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load-generator",
        abstract: "Drive the sync server (one or several instances) with concurrent clients, cut requests and a restart, then check it.")

    @Option(help: "The oritsubushi executable (default: next to this one).") var executable: String?
    @Option(help: "Concurrent clients (devices).") var clients = 50
    @Option(help: "Local events each client appends.") var events = 1_000
    @Option(help: "Events appended per round (one sync each).") var batch = 50
    @Option(help: "Users the clients are spread over (default: one per seven clients, 1 to 10).") var users: Int?
    @Option(help: "Probability that a push is preceded by a copy cut mid-request.") var disconnectRate = 0.05
    @Option(help: "Restart the server after this many seconds (default: at half of the events).") var restartAfterSeconds: Double?
    @Flag(help: "Restart with SIGTERM instead of SIGKILL.") var gracefulRestart = false
    @Option(help: "Seed of the workload.") var seed: UInt64 = 1
    @Option(help: ArgumentHelp("Keep the server data and client ledgers here.", valueName: "dir")) var workDirectory: String?
    @Option(help: ArgumentHelp("Serve from PostgreSQL (`serve --store URL`) instead of a files store in the work directory.",
                               valueName: "postgres://user@host:port/db")) var store: String?
    @Option(help: "`serve` instances on the store (more than 1 needs --store); clients switch instance on every request and one is SIGKILLed mid-run.")
    var servers = 1
    @Option(help: "Idle users registered before the instances start (through the store's administration API, in this process).")
    var registeredUsers = 0
    @Flag(help: "Print the report as JSON.") var json = false

    func run() async throws {
        let binary = executable ?? LoadConfiguration.executable(near: CommandLine.arguments[0])
        var configuration = LoadConfiguration(executable: binary)
        configuration.clients = clients
        configuration.eventsPerClient = events
        configuration.batch = batch
        configuration.users = users
        configuration.disconnectRate = disconnectRate
        configuration.restartAfterSeconds = restartAfterSeconds
        configuration.restartWithKill = !gracefulRestart
        configuration.seed = seed
        configuration.workDirectory = workDirectory
        configuration.store = store
        configuration.servers = servers
        configuration.registeredUsers = registeredUsers
        let report: LoadReport
        do {
            report = try await LoadDriver.run(configuration) { line in
                FileHandle.standardError.write(Data("load: \(line)\n".utf8))
            }
        } catch let error as LoadError {
            FileHandle.standardError.write(Data("load-generator: \(error)\n".utf8))
            if case .usage = error { throw ExitCode(64) }
            throw ExitCode(69)
        }
        print(json ? report.json() : report.markdown())
        if !report.passed { throw ExitCode(1) }
    }
}
