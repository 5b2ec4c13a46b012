import Logging
import PostgresNIO

/// postgres-nio wraps whatever a transaction's body throws in `PostgresTransactionError`; the
/// store's refusals (409, 403, 422, the clock bound) must reach the HTTP layer as themselves, so
/// every transaction of the store goes through these, which unwrap the body's own error.
extension PostgresClient {
    func transaction<Result>(
        logger: Logger, isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        try await withConnection(isolation: isolation) { connection in
            try await connection.transaction(logger: logger, isolation: isolation, body)
        }
    }
}

extension PostgresConnection {
    func transaction<Result>(
        logger: Logger, isolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> sending Result
    ) async throws -> sending Result {
        do {
            return try await withTransaction(logger: logger, isolation: isolation, body)
        } catch let error as PostgresTransactionError {
            // A BEGIN or COMMIT that failed for the connection's sake must reach `serving` as the
            // PostgreSQL error it is (a 503), not as a wrapper (a 500).
            throw error.closureError ?? error.beginError ?? error.commitError ?? error
        }
    }
}
