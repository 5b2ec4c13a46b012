import GRDB
@testable import LedgerCatalog

/// Plain SQL on a SQLite file, for tests that look inside or damage the files the code writes.
struct TestDatabase {
    let queue: DatabaseQueue

    init(path: String, readonly: Bool = true) throws {
        queue = try DatabaseQueue(path: path, configuration: SQLiteFile.configuration(readonly: readonly))
    }

    /// A private in-memory database.
    init() throws {
        queue = try DatabaseQueue(configuration: SQLiteFile.configuration())
    }

    /// Runs statements outside any transaction of GRDB's (they may open and end their own).
    func execute(_ sql: String) throws {
        try queue.inDatabase { try $0.execute(sql: sql) }
    }

    /// Every row as text, as `sqlite3_column_text` gives it; NULL as `null`.
    func rows(_ sql: String, _ arguments: [String] = [], null: String = "") throws -> [[String]] {
        try queue.inDatabase { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                row.databaseValues.map { $0.isNull ? null : row.textValue($0) }
            }
        }
    }

    /// Runs `sql` (which opens a transaction), then `body` while the transaction is still open,
    /// then rolls it back: the state of a process killed inside that transaction.
    func insideTransaction(_ sql: String, _ body: () throws -> Void) throws {
        try queue.inDatabase { db in
            try db.execute(sql: sql)
            defer { try? db.execute(sql: "ROLLBACK") }
            try body()
        }
    }

    func integer(_ sql: String) throws -> Int64 {
        try queue.inDatabase { try Int64.fetchOne($0, sql: sql) ?? 0 }
    }

    func userVersion() throws -> Int64 {
        try integer("PRAGMA user_version")
    }

    func tableExists(_ name: String) throws -> Bool {
        try queue.inDatabase { try $0.tableExists(name) }
    }

    func close() throws {
        try queue.close()
    }
}

private extension Row {
    func textValue(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return ""
        case .int64(let v): return String(v)
        case .double(let v): return String(v)
        case .string(let v): return v
        case .blob(let d): return String(decoding: d, as: UTF8.self)
        }
    }
}
