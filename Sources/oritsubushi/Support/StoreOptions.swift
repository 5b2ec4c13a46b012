import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif
import LedgerCore
import Logging
import SyncServer
import SyncServerPostgres

/// Which store a `serve` or `server …` command works on: `--data DIR` (the files store),
/// `--store postgres://USER@HOST:PORT/DB` (PostgreSQL), or, when neither is given,
/// `$ORITSUBUSHI_STORE` (a postgres:// URL). Exactly one; both options together exit 64.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The files store: the server's data directory.", valueName: "dir")) var data: String?
    @Option(help: ArgumentHelp("The PostgreSQL store (default: $ORITSUBUSHI_STORE).", valueName: "postgres://user@host:port/db"))
    var store: String?

    static let environmentVariable = "ORITSUBUSHI_STORE"

    enum Location {
        case files(directory: String)
        case postgres(PostgresLocation)
    }

    func validate() throws {
        if data != nil && store != nil { throw ValidationError("give either --data DIR or --store URL, not both") }
    }

    /// The store named on the command line, else by $ORITSUBUSHI_STORE; refuses (exit 64) when none is.
    func location() throws -> Location {
        if let data { return .files(directory: data) }
        guard let url = store ?? Environment.variable(Self.environmentVariable) else {
            throw LedgerError(.usage, "no store: pass --data DIR (files) or --store postgres://USER@HOST:PORT/DB, or set \(Self.environmentVariable)")
        }
        return .postgres(try PostgresLocation(url: url))
    }

    /// The store's operator side (`server add-user`, `verify`, …), not yet started.
    func administration(clock: any WallClock) throws -> any SyncStoreAdministration {
        switch try location() {
        case .files(let directory):
            return FilesStoreAdministration(dataDirectory: directory, clock: clock)
        case .postgres(let location):
            return PostgresStore(location: location, clock: clock, logger: Self.quietLogger)
        }
    }

    /// Runs `body` on the administration while its services run (`whileRunning`), and closes it,
    /// also when `body` throws.
    /// Makes a new bearer token for user `name`, has `store` keep its SHA-256 hash (nothing else
    /// of it is kept), then prints `heading` and the token alone on the last line: it is shown
    /// only now (`server add-user`, `server add-token`).
    func issueToken(for name: String, heading: String,
                    _ store: (any SyncStoreAdministration, _ tokenHash: String, _ now: Int64) async throws -> Void) async throws {
        try UserStore.validate(name: name)
        let token = UserStore.newToken()
        try await withAdministration { admin, now in try await store(admin, TokenHash.hex(token), now) }
        print(heading)
        print(token)
    }

    func withAdministration<T: Sendable>(_ body: (any SyncStoreAdministration, _ now: Int64) async throws -> T) async throws -> T {
        umask(0o077)  // as `serve`: what the store's files hold is the operator's alone
        let clock = try Environment.clock()
        let store = try administration(clock: clock)
        return try await store.whileRunning { try await body(store, clock.nowMilliseconds()) }
    }

    /// `server …` commands print their own results; the pool's chatter stays out of them.
    static var quietLogger: Logger { Logger(label: "oritsubushi.server", factory: { _ in SwiftLogNoOpLogHandler() }) }
}
