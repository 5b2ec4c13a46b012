import CSQLite
import LedgerCore

/// A prepared statement. Reuse it with `reset()` for batch writes; it is finalised on deinit.
package final class SQLiteStatement {
    private let database: SQLiteDatabase
    private var handle: OpaquePointer?
    /// The text after the first statement, if the SQL held more than one (the dump importer
    /// checks this, because the original apps silently ignored such text).
    package let tail: String

    init(database: SQLiteDatabase, sql: String, category: LedgerError.Category = .io) throws {
        self.database = database
        var statement: OpaquePointer?
        var remainder = ""
        let rc = sql.withCString { text -> Int32 in
            var tailPointer: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(database.handle, text, -1, &statement, &tailPointer)
            if let tailPointer { remainder = String(cString: tailPointer) }
            return rc
        }
        guard rc == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw LedgerError(category, "SQLite: \(database.lastErrorMessage)", file: database.path)
        }
        handle = statement
        tail = remainder
    }

    /// Prepares a statement whose failure is the input's fault (exit 65), not the database's.
    package static func prepareInput(_ database: SQLiteDatabase, _ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(database: database, sql: sql, category: .badInput)
    }

    deinit { sqlite3_finalize(handle) }

    /// Whether the text held no statement at all (only spaces or comments).
    package var isEmpty: Bool { handle == nil }

    package func bind(_ index: Int32, _ value: Int64) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    package func bind(_ index: Int32, _ value: String) throws {
        try check(sqlite3_bind_text(handle, index, value, -1, sqliteTransient))
    }

    package func bindNull(_ index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Steps once: `true` when a row is available, `false` when done.
    @discardableResult
    package func step(category: LedgerError.Category = .io) throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let message = database.lastErrorMessage
            sqlite3_reset(handle)
            throw LedgerError(category, "SQLite: \(message)", file: database.path)
        }
    }

    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    package var columnCount: Int32 { sqlite3_column_count(handle) }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as SQLite stores it: 1 integer, 2 float, 3 text, 4 blob, 5 null.
    package func columnType(_ column: Int32) -> Int32 { sqlite3_column_type(handle, column) }

    package func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeRawBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The raw bytes of a text column (to check UTF-8 before trusting it).
    package func bytes(_ column: Int32) -> [UInt8] {
        guard let text = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: text, count: count))
    }

    private func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK else {
            throw LedgerError(.io, "SQLite: \(database.lastErrorMessage)", file: database.path)
        }
    }
}
