import Foundation
import LedgerCore
import PostgresNIO

/// A `--store` / `ORITSUBUSHI_STORE` value: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`
/// (TCP, with TLS as `sslmode` and `sslrootcert` ask: `PostgresTLS`), or
/// `postgres://USER@/DATABASE?host=/run/postgresql` for a Unix socket directory.
package struct PostgresLocation: Sendable, Equatable {
    package var username: String
    package var password: String?
    package var host: String?
    package var port: Int
    /// A Unix-domain socket directory (the `host` query parameter), instead of TCP.
    package var socketDirectory: String?
    package var database: String
    package var tls: PostgresTLS

    /// The URL without its password, for logs and messages (`sslmode` when it is not the default).
    package var redacted: String {
        let target = socketDirectory.map { "/\(database)?host=\($0)" } ?? "\(host ?? ""):\(port)/\(database)"
        let mode = tls.mode == .prefer ? "" : (socketDirectory == nil ? "?" : "&") + "sslmode=\(tls.mode.rawValue)"
        return "postgres://\(username)@\(target)\(mode)"
    }

    package init(url text: String) throws {
        func refuse(_ why: String) -> LedgerError {
            LedgerError(.usage, "--store '\(Self.redact(text))' is not a PostgreSQL URL: \(why) (expected postgres://USER@HOST:PORT/DATABASE)")
        }
        guard let components = URLComponents(string: text),
              components.scheme == "postgres" || components.scheme == "postgresql"
        else { throw refuse("it must start with postgres://") }
        guard let user = components.user, !user.isEmpty else { throw refuse("it names no user") }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { throw refuse("it names no database") }
        username = user.removingPercentEncoding ?? user
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        self.database = database
        socketDirectory = components.queryItems?.first(where: { $0.name == "host" })?.value
        host = components.host.flatMap { $0.isEmpty ? nil : $0 }
        port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw refuse("port \(port) is not a TCP port") }
        guard host != nil || socketDirectory != nil else { throw refuse("it names no host") }
        tls = try PostgresTLS(query: components.queryItems ?? [], unixSocket: socketDirectory != nil, refuse: { why in
            LedgerError(.usage, "--store '\(Self.redact(text))': \(why)")
        })
    }

    /// The pool's configuration: TCP with `tls`, or the socket `DIR/.s.PGSQL.PORT`.
    package var configuration: PostgresClient.Configuration {
        if let socketDirectory {
            return PostgresClient.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: username, password: password, database: database)
        }
        return PostgresClient.Configuration(host: host ?? "127.0.0.1", port: port, username: username, password: password,
                                            database: database, tls: tls.client)
    }

    /// The same for one connection outside the pool (`PostgresStore.checkTLS`); nil for a socket.
    func connectionConfiguration() throws -> PostgresConnection.Configuration? {
        guard socketDirectory == nil else { return nil }
        return PostgresConnection.Configuration(host: host ?? "127.0.0.1", port: port, username: username, password: password,
                                                database: database, tls: try tls.connection())
    }

    /// Blanks a password out of a URL for an error message.
    static func redact(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? "postgres://…"
    }
}
