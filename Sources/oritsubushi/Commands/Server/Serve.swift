import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import LedgerCore
import LedgerSync
import Logging
import Metrics
import SyncServer
import SyncServerPostgres

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
        The store is --data DIR (the files store: each user's events in DIR/ledgers/<user>/, the \
        same segment engine; users and token hashes in DIR/users.json) or --store \
        postgres://USER@HOST:PORT/DB (PostgreSQL, default $ORITSUBUSHI_STORE: several instances \
        on one database are one server; the schema is created and migrated at start; TLS as libpq's \
        ?sslmode=…&sslrootcert=FILE ask, default prefer). A push is \
        acknowledged only once it is durable, so a graceful or abrupt stop loses no acknowledged \
        push. GET /metrics (Prometheus text) answers on the main port unless --metrics-port moves \
        it to 127.0.0.1:PORT. Pushed station edits must name a station of --catalog LEDGER_DIR \
        (either store; the files store also reads DIR/catalog.sqlite), else any station from 1. \
        Logs go to stderr (LOG_LEVEL=debug|info|notice|…); tokens are never logged. A connection \
        must send its first request head within --header-timeout (10 s) and is closed after \
        --idle-timeout (30 s) without traffic, or when the server has waited for a request's body \
        --body-timeout (120 s) in all or, after its first 2 s of waiting, received less than \
        --body-min-rate (1024) bytes a second; at most --max-connections (1000) are served at \
        once. The phone app is served at /app/ (docs/phone-app.md), with raster tiles from \
        --tiles URL_TEMPLATE if given (credited as --tiles-attribution). The data directory's \
        files are made 0600 (directories 0700), and one serve holds DIR/LOCK. Exit codes: 64 bad \
        options, 66 --catalog holds no catalogue, 69 the store or the port cannot be used (or the \
        database's schema is newer than this binary), 74 the data directory cannot be written, \
        75 another serve holds the data directory.
        """

    @OptionGroup var store: StoreOptions
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The TCP port (0 picks a free one).") var port = 8080
    @Option(help: "Largest request body, in bytes.") var maxBodyBytes = 8 << 20
    @Option(help: .bytes("Refuse (413) a frames push whose records decode to more than this many bytes, before decoding the rest."))
    var maxDecodedBytes = 64 << 20
    @Option(help: ArgumentHelp("Serve GET /metrics only on 127.0.0.1:PORT (0 picks a free one), not on the main port.",
                               valueName: "port"))
    var metricsPort: Int?
    @Option(help: "PostgreSQL connections per instance (PostgreSQL store only).") var connections = 20
    @Option(help: .seconds("Close a connection that has not sent a complete request head this many seconds after it was accepted."))
    var headerTimeout = 10
    @Option(help: .seconds("Close a keep-alive connection idle this many seconds between requests, or a request whose body stalls as long."))
    var idleTimeout = 30
    @Option(help: .seconds("Close a connection when the server has waited this many seconds in all for one request's body."))
    var bodyTimeout = 120
    @Option(help: .bytes("Close a connection whose request body arrives slower than this many bytes a second (judged after the server's first 2 s of waiting for it)."))
    var bodyMinRate = 1024
    @Option(help: "Connections served at once; more wait until one closes.") var maxConnections = 1000
    @Option(help: .bytes("Refuse (413) a push that would take one user's stored events beyond this many bytes; off unless given."))
    var maxUserBytes: Int64?
    @Option(help: ArgumentHelp(
        "Accept station edits only for the stations of this ledger directory's catalogue (its catalog.sqlite, after 'catalog import'); default: the files store's DIR/catalog.sqlite if there is one, else any station from 1.",
        valueName: "ledger-dir"))
    var catalog: String?
    @Flag(help: "Speak JSON only: never answer a pull, or read a push, as record frames (Schemas/sync-frames.md).")
    var noFrames = false
    @Option(name: .customLong("trusted-proxy"), help: ArgumentHelp(
        "A reverse proxy's IP address (repeatable): for its connections the client is read from X-Forwarded-For, which the pairing rate limit counts by; from anywhere else the header is ignored.",
        valueName: "address"))
    var trustedProxies: [String] = []
    @Option(help: ArgumentHelp(
        "Offer the phone app raster tiles from this URL template with {z}, {x} and {y} (http or https); the app's Content-Security-Policy admits its origin only.",
        valueName: "url-template"))
    var tiles: String?
    @Option(help: ArgumentHelp("The credit the app shows for --tiles (default: the template's host).", valueName: "text"))
    var tilesAttribution: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not a TCP port") }
        if let metricsPort, !(0...65535).contains(metricsPort) {
            throw ValidationError("--metrics-port \(metricsPort) is not a TCP port")
        }
        guard (1...1000).contains(connections) else { throw ValidationError("--connections must be 1 to 1000") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes must be at least 1024") }
        guard maxDecodedBytes >= 1 << 20 else { throw ValidationError("--max-decoded-bytes must be at least 1048576") }
        guard (1...3600).contains(headerTimeout) else { throw ValidationError("--header-timeout must be 1 to 3600 seconds") }
        guard (1...86_400).contains(idleTimeout) else { throw ValidationError("--idle-timeout must be 1 to 86400 seconds") }
        guard (1...86_400).contains(bodyTimeout) else { throw ValidationError("--body-timeout must be 1 to 86400 seconds") }
        guard (1...(1 << 30)).contains(bodyMinRate) else { throw ValidationError("--body-min-rate must be 1 to 1073741824 bytes a second") }
        guard (1...100_000).contains(maxConnections) else { throw ValidationError("--max-connections must be 1 to 100000") }
        if let maxUserBytes, maxUserBytes < 1 { throw ValidationError("--max-user-bytes must be at least 1") }
        do { _ = try TrustedProxies(trustedProxies) } catch {
            throw ValidationError("--trusted-proxy '\(error.text)' is not an IP address")
        }
        _ = try mapTiles()
    }

    /// --tiles and --tiles-attribution as the server serves them; nil without --tiles.
    private func mapTiles() throws -> MapTiles? {
        guard let tiles else {
            if tilesAttribution != nil { throw ValidationError("--tiles-attribution needs --tiles") }
            return nil
        }
        do { return try MapTiles(urlTemplate: tiles, attribution: tilesAttribution) } catch {
            throw ValidationError(error.description)
        }
    }

    func serve() async throws {
        // The data directory and every file the server makes are the operator's alone: memos
        // and token hashes are nobody else's business (directories 0700, files 0600).
        umask(0o077)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = Logger.Level(rawValue: Environment.variable("LOG_LEVEL") ?? "info") ?? .info
            return handler
        }
        let logger = Logger(label: "oritsubushi.serve")
        let metrics = SyncMetrics()
        MetricsSystem.bootstrap(metrics.factory)
        // A data directory this start creates is removed again if the server cannot listen: a
        // failed start leaves nothing behind.
        var created: String?
        if case .files(let data) = try store.location(), !PosixFileSystem().fileExists(data) { created = data }
        let (storage, described) = try await openStorage(logger: logger)
        var configuration = SyncHTTPServer.Configuration()
        configuration.host = host
        configuration.port = port
        configuration.maximumBodyBytes = maxBodyBytes
        configuration.maximumDecodedBytes = maxDecodedBytes
        configuration.headerTimeout = .seconds(headerTimeout)
        configuration.idleTimeout = .seconds(idleTimeout)
        configuration.bodyTimeout = bodyTimeout
        configuration.bodyMinimumRate = bodyMinRate
        configuration.maximumConnections = maxConnections
        configuration.offersFrames = !noFrames
        configuration.trustedProxies = try TrustedProxies(trustedProxies)
        configuration.mapTiles = try mapTiles()
        let catalogDirectory = catalog
        configuration.catalogDocument = { try ServerCatalog.document(ledgerDirectory: catalogDirectory) }
        let host = self.host
        do {
            try await SyncHTTPServer.serve(
                storage: storage, configuration: configuration, logger: logger,
                metrics: metrics, metricsPort: metricsPort,
                onRunning: { bound in
                    logger.notice("listening", metadata: ["host": "\(host)", "port": "\(bound)", "store": "\(described)"])
                },
                onMetricsRunning: { bound in logger.notice("metrics listening", metadata: ["address": "127.0.0.1:\(bound)"]) })
        } catch let error as LedgerError {
            throw error  // the store could not start: its own sentence and exit code
        } catch {
            if let created {
                await storage.close()
                try? PosixFileSystem().removeTree(created)
            }
            throw ListenFailure.describe(error, host: host, port: port, metricsPort: metricsPort)
        }
        logger.notice("stopped")
    }

    /// What a request may ask or bring, the same on both stores.
    private var limits: SyncLimits {
        var limits = SyncLimits()
        limits.userSize = UserSizeLimit(maximumBytes: maxUserBytes)
        return limits
    }

    /// The store to serve and how the log names it (a PostgreSQL URL without its password).
    private func openStorage(logger: Logger) async throws -> (any SyncStorage, String) {
        let explicit = try catalog.map { try ServerCatalog.stations(ledgerDirectory: $0) }
        switch try store.location() {
        case .files(let data):
            let stations = try explicit ?? ServerCatalog.stations(dataDirectory: data)
            var tuning = FilesStore.Tuning()
            tuning.conversionHook = ConversionKillHook.fromEnvironment()
            return (try FilesStore(dataDirectory: data, stations: stations, limits: limits, tuning: tuning), data)
        case .postgres(let location):
            // Started by the server's service group (SyncHTTPServer.serve), which runs its pool.
            let storage = PostgresStore(location: location, stations: explicit ?? AnyPositiveStation(), limits: limits,
                                        maximumConnections: connections, logger: logger)
            return (storage, location.redacted)
        }
    }
}
