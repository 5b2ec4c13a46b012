import Logging
import PostgresNIO
import SyncServer

/// `PairingAttempts` in the database (table `pairing_attempts`, Schemas/server-store.md): one
/// transaction takes a transaction-level advisory lock per scope (in one order, so two attempts
/// never wait for each other crosswise), forgets the scope's attempts older than the window,
/// counts the rest and, when every scope has room, inserts the attempt under each. Attempts of
/// one scope are therefore counted one after another on every instance: 40 sent at once to two
/// instances evaluate at most `PairingScope.perAddress` codes.
struct PostgresPairingAttempts: PairingAttempts {
    let client: PostgresClient
    let logger: Logger

    func admit(_ scopes: [PairingScope], now: Int64) async throws -> PairingAttemptTicket {
        let ordered = scopes.sorted { $0.key < $1.key }
        let logger = self.logger
        return try await PostgresDeadline.serving(client, logger) { connection in
            try await connection.transaction(logger: logger) { connection in
                var id: Int64 = 0
                for try await next in try await connection.query("SELECT nextval('pairing_attempt_ids')", logger: logger)
                    .decode(Int64.self) { id = next }
                var wait: Int64?
                for scope in ordered {
                    try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(scope.key), 0))", logger: logger)
                    try await connection.query("DELETE FROM pairing_attempts WHERE scope = \(scope.key) AND at <= \(now - PairingScope.window)",
                                               logger: logger)
                    var count = 0, oldest: Int64?
                    for try await (n, first) in try await connection.query(
                        "SELECT count(*), min(at) FROM pairing_attempts WHERE scope = \(scope.key)", logger: logger)
                        .decode((Int, Int64?).self) { (count, oldest) = (n, first) }
                    if count >= scope.allowed, let oldest { wait = max(wait ?? 0, oldest + PairingScope.window - now) }
                }
                if let wait { throw PairingRateLimiter.refusal(waitMilliseconds: wait) }
                for scope in ordered {
                    try await connection.query("INSERT INTO pairing_attempts (id, scope, at) VALUES (\(id), \(scope.key), \(now))",
                                               logger: logger)
                }
                return PairingAttemptTicket(scopes: ordered.map(\.key), id: id)
            }
        }
    }

    func forgive(_ ticket: PairingAttemptTicket) async {
        do {
            try await PostgresDeadline.serving(client, logger) { connection in
                try await connection.query("DELETE FROM pairing_attempts WHERE id = \(ticket.id)", logger: self.logger)
            }
        } catch {
            // The pairing succeeded; its attempt keeps counting for a minute at worst.
            logger.warning("a paired attempt could not be forgiven", metadata: ["error": "\(error)"])
        }
    }
}
