import Foundation
import GRDB
import LedgerCore

/// Reading an original app database and writing the export formats (Schemas/import-export.md).
package enum CompletionsFile {
    /// Reads the `completions` table of an original app database (read-only; the file is never
    /// modified). `line` of each row is its 1-based row number in `s_id` order. A bad row goes to
    /// `invalid` (throws by default; `--skip-invalid` records it).
    package static func readAppDatabase(_ path: String, fileSystem: any FileSystem = PosixFileSystem(),
                                        invalid: (LedgerError) throws -> Void = { throw $0 }) throws -> [CompletionRow] {
        guard fileSystem.fileExists(path) else { throw LedgerError(.badInput, "cannot read \(path)") }
        let hasTable: Bool
        let db: DatabaseQueue
        do {
            db = try SQLiteFile.openForReading(path, fileSystem: fileSystem)
            hasTable = try db.inDatabase { try $0.tableExists("completions") }
        } catch {
            throw LedgerError(.badInput, "\(path) is not a SQLite database")
        }
        guard hasTable else { throw LedgerError(.badInput, "\(path) has no completions table") }
        // The memo as its stored bytes, to check UTF-8 before trusting it.
        let sql = """
            SELECT s_id, comp_date, update_date, CAST(memo AS BLOB) AS memo_bytes, memo IS NULL AS memo_null, \
            typeof(s_id) AS s_id_type, typeof(comp_date) AS comp_date_type, typeof(update_date) AS update_date_type \
            FROM completions ORDER BY s_id
            """
        return try SQLiteFile.mapped(file: path) {
            try db.inDatabase { db in
                var rows: [CompletionRow] = []
                var number = 0
                let cursor = try Row.fetchCursor(db, sql: sql)
                while let row = try cursor.next() {
                    number += 1
                    do {
                        rows.append(try decodeAppRow(row, number: number, path: path))
                    } catch let error as LedgerError {
                        try invalid(error)
                    }
                }
                return rows
            }
        }
    }

    private static func decodeAppRow(_ row: Row, number: Int, path: String) throws -> CompletionRow {
        func bad(_ why: String) -> LedgerError {
            LedgerError(.badInput, "\(why) (\(path), row \(number))")
        }
        for (column, name) in ["s_id", "comp_date", "update_date"].enumerated() where row.text("\(name)_type") != "integer" {
            throw bad("column \(column + 1) of completions is not an integer")
        }
        let station = row.integer("s_id"), compDate = row.integer("comp_date"), updateDate = row.integer("update_date")
        guard station > 0, station <= Int64(UInt32.max) else { throw bad("s_id \(station) is not a station id") }
        guard compDate >= 0, compDate <= Int64(UInt32.max) else { throw bad("comp_date \(compDate) is invalid") }
        guard updateDate >= 0, updateDate < (1 << 47) / 1000 else { throw bad("update_date \(updateDate) is out of range") }
        var memo = ""
        if row.integer("memo_null") == 0 {
            let bytes = [UInt8]((row["memo_bytes"] as Data?) ?? Data())
            guard bytes.withUnsafeBytes({ RecordStream.isValidUTF8($0) }) else { throw bad("the memo is not valid UTF-8") }
            memo = String(decoding: bytes, as: UTF8.self)
        }
        return CompletionRow(station: UInt32(station), compDate: UInt32(compDate), updateDate: updateDate, memo: memo, line: number)
    }

    /// The projection's rows in `s_id` order.
    package static func rows(_ projection: CompletionsProjection) -> [CompletionRow] {
        projection.sortedRows().map { CompletionRow($0.station, $0.row) }
    }

    package static func tsv(_ rows: [CompletionRow]) -> String {
        rows.map(OritsubushiTSV.line).joined()
    }

    /// One JSON object per line: `{"station":N,"comp_date":N,"update_date":N,"memo":"…"}`.
    package static func jsonl(_ rows: [CompletionRow]) throws -> String {
        let encoder = OrderedJSONEncoder()
        return try rows.map { try encoder.encode($0) + "\n" }.joined()
    }

    /// Writes a new SQLite file holding the original `completions` table, replacing `path`
    /// atomically (`SQLiteFile.replace`, through `PATH.tmp`).
    package static func writeSQLite(_ rows: [CompletionRow], to path: String,
                                    fileSystem: any FileSystem = PosixFileSystem()) throws {
        let queue = try SQLiteFile.inMemory()
        try SQLiteFile.mapped(file: path) {
            try queue.write { db in
                try db.execute(sql: CompletionsTable.create())
                try CompletionsTable.insert(rows, replacing: false, db)
            }
        }
        try SQLiteFile.replace(path, with: queue, fileSystem: fileSystem)
    }
}
