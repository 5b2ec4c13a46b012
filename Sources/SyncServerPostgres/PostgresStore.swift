import LedgerCore
import LedgerSync
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import ServiceLifecycle
import SyncServer

/// The sync server's store in PostgreSQL (Schemas/server-store.md, "PostgreSQL store"): several
/// `serve` instances on one database are one server. The database enforces the rules — event
/// identity `(device, seq)` is the primary key, a device row names its one owner, positions are
/// assigned under the user row's lock — so no check-then-insert in Swift decides anything.
/// Its connection pool (postgres-nio's `PostgresClient`) is its one service: `serve` runs it in
/// its service group, the `server …` commands with `whileRunning` (`StoreLifecycle`).
package final class PostgresStore: SyncStorage, SyncStoreAdministration {
    package let kind = "postgres"
    package let location: PostgresLocation
    package let limits: SyncLimits
    let client: PostgresClient
    let stations: any StationDirectory
    let clock: any WallClock
    let logger: Logger
    /// Digests of the events pulls name, by user, id and frame row (`storedDigests`).
    let recentDigests = NIOLockedValueBox(RecentDigests<StoredEventKey>())
    /// Pairing attempts counted in the database, so that every instance shares one limit.
    package var pairingAttempts: any PairingAttempts { PostgresPairingAttempts(client: client, logger: logger) }

    /// A pool of at most `maximumConnections`, idle until `services` run; `start()` connects.
    package init(location: PostgresLocation, stations: any StationDirectory = AnyPositiveStation(),
                 clock: any WallClock = SystemClock(), limits: SyncLimits = SyncLimits(),
                 maximumConnections: Int = 20, logger: Logger) {
        var configuration = location.configuration
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectTimeout = .seconds(10)
        self.location = location
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.stations = stations
        self.clock = clock
        self.limits = limits
        self.logger = logger
    }

    package var services: [any Service] { [client] }

    /// Reaches the database and brings the schema up to date (the pool must run: `services`).
    /// Refuses with exit 69 (unavailable) when the database cannot be reached.
    package func start() async throws {
        let (client, logger, location) = (self.client, self.logger, self.location)
        try await Self.checkTLS(location, logger: logger)
        do {
            try await PostgresDeadline.run {
                for try await _ in try await client.query("SELECT 1", logger: logger).decode(Int32.self) {}
            }
            try await PostgresSchema.migrate(client, logger: logger)
        } catch is PostgresDeadline.Expired {
            throw LedgerError(.unavailable, "cannot use the PostgreSQL store \(location.redacted): no answer within \(PostgresDeadline.seconds) s (is the server running and reachable?)")
        } catch {
            throw LedgerError(.unavailable, "cannot use the PostgreSQL store \(location.redacted): \(Self.describe(error))")
        }
    }

    /// postgres-nio's pool retries a connection that fails, with back-off, and keeps the cause to
    /// itself, so a store first connects once outside the pool to name a failure that does not
    /// heal by retrying, at once (exit 69): a TLS failure (the server offers no TLS, its
    /// certificate is not accepted), any refusal the server states (a login refused, SQLSTATE
    /// class 28; a database that does not exist, 3D000; …: `PostgresErrorClass`), or a
    /// connection refused outright (nothing listens on the port). A server that does not answer
    /// is left to the deadline of `start`. A Unix-socket location is left to the pool.
    static func checkTLS(_ location: PostgresLocation, logger: Logger) async throws {
        guard let configuration = try location.connectionConfiguration() else { return }
        do {
            try await PostgresDeadline.run {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                try await connection.close()
            }
        } catch {
            let host = location.host ?? "127.0.0.1"
            guard let why = location.tls.describe(error, host: host) ?? PostgresErrorClass.describeRefusal(error, host: host, port: location.port)
            else { return }
            throw LedgerError(.unavailable, "cannot use the PostgreSQL store \(location.redacted): \(why)")
        }
    }

    /// Nothing to release: the connections close when the pool's service stops.
    package func close() async {}

    package func logDescription(of error: any Error) -> String { Self.describe(error) }

    /// A database error in one short clause (PSQLError's description hides the server's message).
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState].map { "SQLSTATE \($0): " } ?? ""
                return state + message
            }
            return "\(error.code)"
        }
        if let error = error as? LedgerError { return error.message }
        return "\(error)"
    }

    // MARK: Serving

    package func user(forTokenHash hash: String) async throws -> String? {
        try await PostgresDeadline.serving(client, logger) { connection in
            try await Self.lookUp(tokenHash: hash, connection, self.logger)
        }
    }

    private static func lookUp(tokenHash hash: String, _ connection: PostgresConnection, _ logger: Logger) async throws -> String? {
        let rows = try await connection.query(
            "SELECT u.name FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = \(hash) AND t.revoked IS NULL",
            logger: logger)
        for try await name in rows.decode(String.self) { return name }
        return nil
    }

    package func status(user: String) async throws -> StoreStatus {
        try await PostgresDeadline.serving(client, logger) { connection in
            let logger = self.logger
            let id = try await Self.userID(user, connection, logger, serving: true)
            let held = try await Self.heldVector(id, connection, logger)
            var records: Int64 = 0
            for try await count in try await connection.query(
                "SELECT next_position FROM users WHERE id = \(id)", logger: logger).decode(Int64.self) { records = count }
            let catalog = try await Self.catalogVersion(id, connection, logger)
            return StoreStatus(serverHas: WireVersionVector.encode(held), records: UInt64(records), catalogVersion: catalog)
        }
    }

    // MARK: Shared queries

    /// The user's row id; a user authenticated a moment ago and deleted since is refused (401).
    /// Serving a request (`serving`), a user whose rows are known to be damaged (`users.damage`,
    /// recorded by `server verify` or by a pull that met the damage) is answered 503.
    static func userID(_ name: String, _ connection: PostgresConnection, _ logger: Logger,
                       forUpdate: Bool = false, serving: Bool = false) async throws -> Int64 {
        let rows = forUpdate
            ? try await connection.query("SELECT id, damage FROM users WHERE name = \(name) FOR UPDATE", logger: logger)
            : try await connection.query("SELECT id, damage FROM users WHERE name = \(name)", logger: logger)
        for try await (id, damage) in rows.decode((Int64, String?).self) {
            if serving, let damage { throw SyncServerError.damaged(damage, detail: "user '\(name)': \(damage)") }
            return id
        }
        throw SyncServerError(.unauthorized, "the token is not valid (unknown or revoked)")
    }

    /// Records (or, with nil, clears) what is damaged in the user's rows: the 503's message.
    func recordDamage(_ id: Int64, _ damage: String?) async throws {
        try await client.query("UPDATE users SET damage = \(damage) WHERE id = \(id)", logger: logger)
    }

    /// Runs a request of `user`; damage it meets (a frame that does not decode, a missing event)
    /// is recorded in `users.damage` after its transaction ended, so that every later request of
    /// the user, `/v1/status` included, is answered the same 503 until `server repair`.
    func remembersDamage<T>(of user: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SyncServerError where error.damage != nil {
            do {
                try await client.query("UPDATE users SET damage = \(error.message) WHERE name = \(user) AND damage IS NULL", logger: logger)
            } catch {
                logger.error("cannot record a user's damage", metadata: ["user": "\(user)", "error": "\(Self.describe(error))"])
            }
            throw error
        }
    }

    /// The highest seq held per device of the user (devices with events only).
    static func heldVector(_ id: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws -> [DeviceID: UInt64] {
        var held: [DeviceID: UInt64] = [:]
        let rows = try await connection.query("SELECT device, last_seq FROM devices WHERE user_id = \(id) AND last_seq > 0", logger: logger)
        for try await (device, seq) in rows.decode((Int64, Int64).self) {
            held[DeviceID(rawValue: UInt64(bitPattern: device))] = UInt64(seq)
        }
        return held
    }

    /// The version of the winning catalogue-version event ((hlc, device, seq) order, as the files
    /// store), from `catalog_versions`: compared in Swift, since devices are stored as signed bigints.
    static func catalogVersion(_ id: Int64, _ connection: PostgresConnection, _ logger: Logger) async throws -> UInt32? {
        var best: (order: EventOrder, version: UInt32)?
        let rows = try await connection.query(
            "SELECT device, seq, hlc, version FROM catalog_versions WHERE user_id = \(id)", logger: logger)
        for try await (device, seq, hlc, version) in rows.decode((Int64, Int64, Int64, Int64).self) {
            let order = EventOrder(hlc: PostgresRecord.hlc(hlc), device: PostgresRecord.device(device), seq: UInt64(seq))
            if best.map({ order > $0.order }) ?? true { best = (order, UInt32(clamping: version)) }
        }
        return best?.version
    }
}
