#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix
import PostgresNIO

/// A PostgreSQL refusal as a person reads it: the SQLSTATE's class (its first two characters,
/// PostgreSQL manual, Appendix A) named, so that an operator sees "a login refused" rather than a
/// timeout or a code.
enum PostgresErrorClass {
    static let names: [String: String] = [
        "08": "connection exception",
        "28": "invalid authorization: the login was refused",
        "3D": "invalid catalog name: no such database",
        "42": "syntax error or access rule violation",
        "53": "insufficient resources",
        "55": "object not in prerequisite state",
        "57": "operator intervention",
    ]

    /// One clause for a failure to connect that retrying will not heal, or nil: a refusal the
    /// server stated (any SQLSTATE), or a TCP connection refused at `host:port`.
    static func describeRefusal(_ error: any Error, host: String, port: Int) -> String? {
        if let error = error as? PSQLError {
            if let state = error.serverInfo?[.sqlState] {
                let message = error.serverInfo?[.message] ?? "\(error.code)"
                let name = names[String(state.prefix(2))].map { ", \($0)" } ?? ""
                return "the server refused: SQLSTATE \(state) (class \(state.prefix(2))\(name)): \(message)"
            }
            if let underlying = error.underlying, isConnectionRefused(underlying) {
                return "the connection to \(host):\(port) was refused (is PostgreSQL running and listening there?)"
            }
            return nil
        }
        return isConnectionRefused(error) ? "the connection to \(host):\(port) was refused (is PostgreSQL running and listening there?)" : nil
    }

    /// Whether a connect failed with ECONNREFUSED on every address tried.
    static func isConnectionRefused(_ error: any Error) -> Bool {
        if let error = error as? IOError { return error.errnoCode == ECONNREFUSED }
        if let error = error as? NIOConnectionError {
            return !error.connectionErrors.isEmpty && error.connectionErrors.allSatisfy { isConnectionRefused($0.error) }
        }
        return false
    }
}
