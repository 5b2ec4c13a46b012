import Foundation
import LedgerTestSupport
import Testing

/// A sync server's store as an operator names it on the command line, for the end-to-end tests
/// that run the built executable: the files store (`--data DIR`) or a fresh database on the
/// test PostgreSQL (`--store postgres://…`). The databases are left to the throwaway cluster,
/// which Tools/test removes whole.
struct CommandLineStore: Sendable {
    let kind: StoreKind
    /// `--data DIR` or `--store URL`, for `server serve` and every `server …` command.
    let arguments: [String]
    /// The files store's directory (nil for PostgreSQL).
    let dataDirectory: String?
    let database: TestPostgres.Database?

    /// For PostgreSQL without a test server the test is cancelled (a failure under CI=true).
    static func make(_ kind: StoreKind, in dir: TemporaryDirectory) async throws -> CommandLineStore {
        switch kind {
        case .files:
            let data = dir.sub("server")
            return CommandLineStore(kind: kind, arguments: ["--data", data], dataDirectory: data, database: nil)
        case .postgres:
            try TestPostgres.require()
            let database = try await TestPostgres.database()
            return CommandLineStore(kind: kind, arguments: ["--store", database.url], dataDirectory: nil, database: database)
        }
    }

    /// `oritsubushi server SUBCOMMAND ARGUMENTS… <store>`.
    func server(_ arguments: String...) async throws -> CLI.Result {
        try await CLI.run(["server"] + arguments + self.arguments, environment: [:])
    }

    /// `server add-user NAME`: the new token (the last line of its output).
    func addUser(_ name: String) async throws -> String {
        try Self.token(try await server("add-user", name))
    }

    /// `server add-user` / `add-token`: the token alone on the last line.
    static func token(_ result: CLI.Result, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        result.expectSuccess(sourceLocation: sourceLocation)
        let token = try #require(result.stdout.split(separator: "\n").last.map(String.init), sourceLocation: sourceLocation)
        #expect(token.hasPrefix("ots_"), sourceLocation: sourceLocation)
        return token
    }

    /// `server serve` on this store; `port` 0 lets the kernel pick one.
    func serve(_ command: [String] = ["server", "serve"], port: Int = 0) async throws -> ServerProcess {
        try await ServerProcess(storeArguments: arguments, command: command, port: port)
    }
}
