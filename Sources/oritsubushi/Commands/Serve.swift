import ArgumentParser
import LedgerCore
import Logging
import SyncServer

/// `oritsubushi server serve`. The options and the run live in `ServeOptions`, so that the
/// top-level `serve` that existing scripts call (`ServeAlias`) is the very same command.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the sync server (Schemas/sync-api.yaml) until SIGINT or SIGTERM.",
        discussion: ServeOptions.discussion)

    @OptionGroup var options: ServeOptions

    func run() async throws { try await options.serve() }
}

/// `oritsubushi serve`: the same as `server serve`, kept so that existing scripts keep working;
/// not listed in the top-level help.
struct ServeAlias: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "The same as 'server serve'.",
        discussion: ServeOptions.discussion,
        shouldDisplay: false)

    @OptionGroup var options: ServeOptions

    func run() async throws { try await options.serve() }
}

struct ServeOptions: ParsableArguments {
    static let discussion = """
        Each user's events live in DATA/ledgers/<user>/ (the same segment engine); users and \
        token hashes in DATA/users.json (see 'server add-user'). A push is acknowledged only \
        after it is fsynced, so a graceful or abrupt stop loses no acknowledged push. \
        Logs go to stderr (LOG_LEVEL=debug|info|notice|…); tokens are never logged.
        """

    @Option(help: ArgumentHelp("The server's data directory.", valueName: "dir")) var data: String
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The TCP port (0 picks a free one).") var port = 8080
    @Option(help: "Largest request body, in bytes.") var maxBodyBytes = 8 << 20

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not a TCP port") }
    }

    func serve() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = Logger.Level(rawValue: Environment.variable("LOG_LEVEL") ?? "info") ?? .info
            return handler
        }
        let logger = Logger(label: "oritsubushi.serve")
        let store = try SyncStore(dataDirectory: data, stations: try ServerCatalog.stations(dataDirectory: data))
        var configuration = SyncHTTPServer.Configuration()
        configuration.host = host
        configuration.port = port
        configuration.maximumBodyBytes = maxBodyBytes
        do {
            try await SyncHTTPServer.serve(
                store: store, users: UserStore(dataDirectory: data), configuration: configuration, logger: logger,
                onRunning: { bound in logger.notice("listening", metadata: ["host": "\(host)", "port": "\(bound)", "data": "\(data)"]) })
        } catch {
            throw LedgerError(.unavailable, "the server stopped: \(error)")
        }
        logger.notice("stopped")
    }
}
