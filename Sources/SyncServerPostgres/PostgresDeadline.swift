import LedgerCore
import PostgresNIO
import SyncServer

/// How long the PostgreSQL store waits for the database, at start and per request: postgres-nio's
/// pool retries an unreachable server with back-off for over a minute, while an operator starting
/// `serve` and a client waiting on a request should hear within seconds. A start-up past the
/// deadline exits 69 naming the cause; a request answers 503 with `Retry-After`.
enum PostgresDeadline {
    static let seconds = 10
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

    /// A request's store call: a database that does not answer within the deadline, or whose
    /// connection fails, is a 503 that tells the client when to retry (the cause goes to the log).
    static func serving<T: Sendable>(_ logger: Logger, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await run(seconds, body)
        } catch is Expired {
            logger.error("the database did not answer within \(seconds) s")
            throw SyncServerError(.unavailable, "the server's database does not answer; try again later", retryAfter: retryAfter)
        } catch let error as PSQLError where error.serverInfo == nil {
            // No server message: the connection itself failed (refused, reset, closed).
            logger.error("the database connection failed", metadata: ["error": "\(PostgresStore.describe(error))"])
            throw SyncServerError(.unavailable, "the server's database cannot be reached; try again later", retryAfter: retryAfter)
        }
    }
}
