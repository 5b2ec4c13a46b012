import AsyncHTTPClient
import Foundation
import Hummingbird
import LedgerCore
import LedgerSync
import LedgerTestSupport
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import ServiceLifecycle
import SyncServer
import SyncServerPostgres
import Testing

/// The PostgreSQL server Tools/test starts (Tools/lib/postgres.sh), named by
/// `ORITSUBUSHI_TEST_POSTGRES=postgres://postgres@127.0.0.1:PORT/postgres`. Every test takes a
/// fresh database of its own (a random name, dropped at the end).
enum TestPostgres {
    static var url: String? { ProcessInfo.processInfo.environment["ORITSUBUSHI_TEST_POSTGRES"] }

    /// Skipped without a server on a developer's machine; a failure under CI=true.
    static let component = TestComponent(
        "a PostgreSQL server named by ORITSUBUSHI_TEST_POSTGRES",
        remedy: "run the tests through Tools/test, which starts a throwaway cluster of Debian's postgresql package"
    ) { url != nil }

    /// For a test that takes the store as a parameter: without a server it is cancelled with what
    /// to install (a failure under CI=true).
    static func require() throws {
        try component.require()
    }

    /// The test cluster's TLS files (Tools/lib/postgres.sh `test_postgres_tls`): `ca.crt`, which
    /// signed its certificate for 127.0.0.1 and localhost, and `other-ca.crt`, which signed nothing.
    static var tlsDirectory: String? { ProcessInfo.processInfo.environment["ORITSUBUSHI_TEST_POSTGRES_TLS"] }

    /// A server that speaks TLS: skipped without one on a developer's machine, a failure under CI=true.
    static let tlsComponent = TestComponent(
        "a PostgreSQL server with TLS named by ORITSUBUSHI_TEST_POSTGRES and ORITSUBUSHI_TEST_POSTGRES_TLS",
        remedy: "run the tests through Tools/test, whose throwaway cluster speaks TLS with certificates made by openssl"
    ) { url != nil && tlsDirectory != nil }

    static let logger: Logger = {
        var logger = Logger(label: "postgres-test")
        logger.logLevel = .critical
        return logger
    }()

    /// One fresh database on the test server.
    struct Database: Sendable {
        let name: String
        let location: PostgresLocation
        /// The database as `--store` names it.
        let url: String

        /// A store on this database, not yet started: `StoreServer.start` runs its pool and starts
        /// it, as `serve` does; `whileRunning` does for a test without a server.
        func store(clock: any WallClock = SystemClock(), stations: any StationDirectory = AnyPositiveStation()) -> PostgresStore {
            PostgresStore(location: location, stations: stations, clock: clock, logger: TestPostgres.logger)
        }

        /// Runs one statement (the tests' way to damage or inspect rows) and returns the first
        /// column of every row as text.
        func sql(_ statement: String) async throws -> [String] {
            try await TestPostgres.withClient(location) { client in
                var values: [String] = []
                for try await row in try await client.query(PostgresQuery(unsafeSQL: statement)) {
                    values.append(try row.decode(String.self))
                }
                return values
            }
        }

        func drop() async {
            _ = try? await TestPostgres.withClient(admin) { client in
                try await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
            }
        }

        /// An outage of this database alone: with `false` every connection to it is cut and new
        /// ones are refused (FATAL 55000), as a server that went away would look to the pool.
        func allowConnections(_ allowed: Bool) async throws {
            try await TestPostgres.withClient(admin) { client in
                try await client.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \(name) ALLOW_CONNECTIONS \(allowed)"))
                if !allowed {
                    try await client.query(PostgresQuery(unsafeSQL:
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)'"))
                }
            }
        }

        private var admin: PostgresLocation {
            var admin = location
            admin.database = "postgres"
            return admin
        }
    }

    static func database() async throws -> Database {
        let admin = try PostgresLocation(url: url ?? "")
        let name = "oritsubushi_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        _ = try await withClient(admin) { client in
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        }
        var location = admin
        location.database = name
        let base = (url ?? "").split(separator: "?", maxSplits: 1)[0]
        let url = String(base[..<(base.lastIndex(of: "/") ?? base.endIndex)]) + "/" + name
        return Database(name: name, location: location, url: url)
    }

    static func withClient<T: Sendable>(_ location: PostgresLocation, _ body: (PostgresClient) async throws -> T) async throws -> T {
        let client = PostgresClient(configuration: location.configuration, backgroundLogger: logger)
        let runner = Task { await client.run() }
        defer { runner.cancel() }
        return try await body(client)
    }

    /// A new bearer token in the server's format and its stored hash.
    static func token() -> (token: String, hash: String) {
        let token = UserStore.newToken()
        return (token, TokenHash.hex(token))
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only with a PostgreSQL server (Tools/test starts one): reported as skipped
    /// without it ("install postgresql"), failed on CI.
    static var requiresPostgres: Self { .requires(TestPostgres.component) }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only with a PostgreSQL server that speaks TLS (Tools/test starts one).
    static var requiresPostgresTLS: Self { .requires(TestPostgres.tlsComponent) }
}

/// The real sync server on loopback over any store (the conformance suite's and the
/// multi-instance tests' server); requests answer the raw body, so bodies can be compared byte
/// for byte between stores.
struct StoreServer {
    let url: String
    let storage: any SyncStorage
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Serves `storage` with its services ahead of the HTTP server and the server waiting for the
    /// store's start, as `SyncHTTPServer.serve` does.
    static func start(_ storage: any SyncStorage) async throws -> StoreServer {
        var configuration = SyncHTTPServer.Configuration()
        configuration.port = 0
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = SyncHTTPServer.makeApplication(storage: storage, configuration: configuration, logger: TestPostgres.logger,
                                                 onRunning: { continuation.yield($0) })
        let group = ServiceGroup(configuration: .init(services: storage.services + [AfterStoreStart(store: storage, service: app)],
                                                      logger: TestPostgres.logger))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw LedgerError(.unavailable, "the test server did not start") }
        return StoreServer(url: "http://127.0.0.1:\(port)", storage: storage, group: group, task: task)
    }

    /// Stops serving; the store stays open (its owner closes it).
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }

    /// (status, body bytes).
    func send(_ method: HTTPMethod, _ path: String, token: String?, json body: [UInt8]? = nil) async throws -> (Int, [UInt8]) {
        let (status, _, bytes) = try await testRequest(method, url + path, token: token, json: body)
        return (status, bytes)
    }

    /// (status, decoded JSON object).
    func call(_ method: HTTPMethod, _ path: String, token: String?, _ body: Any? = nil) async throws -> (Int, [String: Any]) {
        let (status, bytes) = try await send(method, path, token: token, json: try body.map { Array(try JSONSerialization.data(withJSONObject: $0)) })
        return (status, (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:])
    }
}
