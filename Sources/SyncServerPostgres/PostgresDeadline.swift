#if canImport(Glibc)
import Glibc
#endif
import LedgerCore
import PostgresNIO
import SyncServer

/// How long the PostgreSQL store waits to reach the database at start: postgres-nio's pool retries
/// an unreachable server with back-off for over a minute, while an operator starting `serve` or
/// running `server …` should hear within seconds. The deadline bounds one trivial query (reaching
/// the server), not the migration after it, which may wait on other instances' migrations. A
/// request whose connection fails answers 503 with `Retry-After`; a request waiting for a
/// connection while the database is down is not yet bounded (README, "Known limits").
enum PostgresDeadline {
    /// 10 s; `ORITSUBUSHI_PG_START_TIMEOUT` (seconds) sets another, for a machine whose database
    /// is slow to answer under load (Tools/test, which starts dozens of stores at once, sets 120).
    static let seconds: Int = {
        guard let text = getenv("ORITSUBUSHI_PG_START_TIMEOUT").map({ String(cString: $0) }), let value = Int(text),
              (1...3600).contains(value) else { return 10 }
        return value
    }()
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

    /// A request's store call: a database connection that fails is a 503 that tells the client
    /// when to retry (the cause goes to the log).
    static func serving<T: Sendable>(_ logger: Logger, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PSQLError where error.serverInfo == nil {
            // No server message: the connection itself failed (refused, reset, closed).
            logger.error("the database connection failed", metadata: ["error": "\(PostgresStore.describe(error))"])
            throw SyncServerError(.unavailable, "the server's database cannot be reached; try again later", retryAfter: retryAfter)
        }
    }
}
