import CSQLite
import LedgerCore

/// `SQLITE_TRANSIENT` is a cast macro that Swift does not import: it tells SQLite to copy the bytes.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A thin, synchronous wrapper over one SQLite connection (no GRDB: it keeps CI builds fast, and
/// the catalogue and projection need only a handful of statements).
///
/// Failures become `LedgerError`s; `category` says whether a failed statement is the caller's bad
/// input (a catalogue dump line) or an I/O problem with the database file itself.
package final class SQLiteDatabase {
    package enum Mode: Sendable {
        case readOnly
        /// Opens read-write, creating the file if it does not exist.
        case readWriteCreate
    }

    package let path: String
    private(set) var handle: OpaquePointer?

    package init(path: String, mode: Mode) throws {
        self.path = path
        let flags: Int32 = switch mode {
        case .readOnly: SQLITE_OPEN_READONLY
        case .readWriteCreate: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw LedgerError(.io, "cannot open the SQLite database: \(message)", file: path)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { close() }

    package func close() {
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    package var lastErrorMessage: String {
        handle.map { String(cString: sqlite3_errmsg($0)) } ?? "the database is closed"
    }

    /// Runs one or more statements that take no parameters.
    package func execute(_ sql: String, category: LedgerError.Category = .io) throws {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        guard rc == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(error)
            throw LedgerError(category, "SQLite: \(message)", file: path)
        }
    }

    package func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    package var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`, rolling back if it throws.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether a table (or view) of that name exists in the main schema.
    package func tableExists(_ name: String) throws -> Bool {
        let statement = try prepare("SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ?")
        try statement.bind(1, name)
        return try statement.step()
    }

    /// `PRAGMA user_version`, which the original iOS app uses for the catalogue version.
    package func userVersion() throws -> Int64 {
        let statement = try prepare("PRAGMA user_version")
        guard try statement.step() else { return 0 }
        return statement.int64(0)
    }

    package func setUserVersion(_ version: Int64) throws {
        try execute("PRAGMA user_version = \(version)")
    }
}
