#if canImport(Glibc)
import Glibc
#endif
import LedgerCore
import NIOConcurrencyHelpers
import PostgresNIO
import SyncServer

/// How long the PostgreSQL store waits to reach the database: postgres-nio's pool retries an
/// unreachable server with back-off for a minute before it fails a waiting request, while an
/// operator starting `serve` or running `server …` should hear within seconds, and a client
/// should be told to come back. At start the deadline bounds one trivial query (reaching the
/// server), not the migration after it, which may wait on other instances' migrations; serving,
/// it bounds each request's wait for a connection (`leasing`), never a query on a leased one
/// (a slow answer under load is not an outage). Either failure answers 503 with `Retry-After`.
enum PostgresDeadline {
    /// The wait at start: 10 s; `ORITSUBUSHI_PG_START_TIMEOUT` (seconds) sets another, for a
    /// machine whose database is slow to answer under load (Tools/test, which starts dozens of
    /// stores at once, sets 120).
    static let seconds = setting("ORITSUBUSHI_PG_START_TIMEOUT")
    /// A request's wait for a connection while serving: 10 s; `ORITSUBUSHI_PG_LEASE_TIMEOUT`
    /// (seconds) sets another. Apart from the start's setting, so that a slow start on a loaded
    /// machine never lengthens what a client waits before its 503.
    static let leaseSeconds = setting("ORITSUBUSHI_PG_LEASE_TIMEOUT")

    /// An environment variable's whole seconds in 1…3600, else 10.
    private static func setting(_ name: String) -> Int {
        guard let text = getenv(name).map({ String(cString: $0) }), let value = Int(text),
              (1...3600).contains(value) else { return 10 }
        return value
    }
    /// What a 503 asks a client to wait before trying again.
    static let retryAfter = 5

    /// `body`, or `Expired` once `seconds` have passed (`body` is cancelled).
    static func run<T: Sendable>(_ seconds: Int = seconds, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw Expired() }
            return value
        }
    }

    struct Expired: Error {}

    /// `body` on a connection of the pool, or 503 with `Retry-After` when none is leased within
    /// `leaseSeconds` (the database is down or every connection is busy for that long).
    static func leasing<T: Sendable>(_ client: PostgresClient, _ logger: Logger,
                                     _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let lease = Lease()
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.withConnection { connection in
                    lease.mark()
                    return try await body(connection)
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(leaseSeconds))
                return nil
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let value = next { return value }
                guard lease.isMarked else {
                    logger.error("no database connection within the deadline", metadata: ["seconds": "\(leaseSeconds)"])
                    throw unreachable
                }
            }
            throw CancellationError()
        }
    }

    /// Set once the pool hands the request a connection.
    private final class Lease: Sendable {
        private let leased = NIOLockedValueBox(false)
        func mark() { leased.withLockedValue { $0 = true } }
        var isMarked: Bool { leased.withLockedValue { $0 } }
    }

    /// A failure of the connection rather than of the request: no server message (refused,
    /// reset, closed), a connection exception (SQLSTATE class 08), the server shutting down or
    /// cutting the session (57P01–57P03), no connection slot left (53300), or any error the
    /// server reports as FATAL or PANIC, which ends the session (such as a database that does
    /// not accept connections now, 55000, met while the pool opens a new one).
    static func isOutage(_ error: PSQLError) -> Bool {
        guard let info = error.serverInfo, let state = info[.sqlState] else { return true }
        if let severity = info[.severity], severity == "FATAL" || severity == "PANIC" { return true }
        return state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state)
    }

    static var unreachable: SyncServerError {
        SyncServerError(.unavailable, "the server's database cannot be reached; try again later", retryAfter: retryAfter)
    }

    /// A request's store call on a leased connection (`leasing`): a connection that cannot be
    /// had or that fails is a 503 that tells the client when to retry (the cause goes to the log).
    static func serving<T: Sendable>(_ client: PostgresClient, _ logger: Logger,
                                     _ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await leasing(client, logger, body)
        } catch let error as PSQLError where isOutage(error) {
            logger.error("the database connection failed", metadata: ["error": "\(PostgresStore.describe(error))"])
            throw unreachable
        }
    }
}
