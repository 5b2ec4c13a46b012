import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

/// Reading an original app database and writing the export formats (Schemas/import-export.md).
package enum CompletionsFile {
    /// Reads the `completions` table of an original app database (read-only; the file is never
    /// modified). `line` of each row is its 1-based row number in `s_id` order.
    package static func readAppDatabase(_ path: String) throws -> [CompletionRow] {
        guard access(path, R_OK) == 0 else { throw LedgerError(.badInput, "cannot read \(path)") }
        let db: SQLiteDatabase
        do { db = try SQLiteDatabase(path: path, mode: .readOnly) } catch {
            throw LedgerError(.badInput, "\(path) is not a SQLite database")
        }
        defer { db.close() }
        let hasTable: Bool
        do { hasTable = try db.tableExists("completions") } catch {
            throw LedgerError(.badInput, "\(path) is not a SQLite database")
        }
        guard hasTable else { throw LedgerError(.badInput, "\(path) has no completions table") }
        let statement = try db.prepare("SELECT s_id, comp_date, update_date, memo FROM completions ORDER BY s_id")
        var rows: [CompletionRow] = []
        var number = 0
        while try statement.step() {
            number += 1
            func bad(_ why: String) -> LedgerError {
                LedgerError(.badInput, "\(why) (\(path), row \(number))")
            }
            for column in Int32(0)...2 where statement.columnType(column) != 1 {
                throw bad("column \(column + 1) of completions is not an integer")
            }
            let station = statement.int64(0), compDate = statement.int64(1), updateDate = statement.int64(2)
            guard station > 0, station <= Int64(UInt32.max) else { throw bad("s_id \(station) is not a station id") }
            guard compDate >= 0, compDate <= Int64(UInt32.max) else { throw bad("comp_date \(compDate) is invalid") }
            guard updateDate >= 0, updateDate < (1 << 47) / 1000 else { throw bad("update_date \(updateDate) is out of range") }
            var memo = ""
            if !statement.isNull(3) {
                let bytes = statement.bytes(3)
                guard bytes.withUnsafeBytes({ RecordStream.isValidUTF8($0) }) else { throw bad("the memo is not valid UTF-8") }
                memo = String(decoding: bytes, as: UTF8.self)
            }
            rows.append(CompletionRow(station: UInt32(station), compDate: UInt32(compDate), updateDate: updateDate,
                                      memo: memo, line: number))
        }
        return rows
    }

    /// The projection's rows in `s_id` order.
    package static func rows(_ projection: CompletionsProjection) -> [CompletionRow] {
        projection.sortedRows().map { CompletionRow(station: $0.station, compDate: $0.row.compDate,
                                                    updateDate: $0.row.updateDate, memo: $0.row.memo) }
    }

    package static func tsv(_ rows: [CompletionRow]) -> String {
        rows.map(OritsubushiTSV.line).joined()
    }

    /// One JSON object per line: `{"station":N,"comp_date":N,"update_date":N,"memo":"…"}`.
    package static func jsonl(_ rows: [CompletionRow]) -> String {
        rows.map { "{\"station\":\($0.station),\"comp_date\":\($0.compDate),\"update_date\":\($0.updateDate),\"memo\":\(JSONText.quoted($0.memo))}\n" }.joined()
    }

    /// Writes a new SQLite file holding the original `completions` table (to a temporary name,
    /// renamed over `path` when complete).
    package static func writeSQLite(_ rows: [CompletionRow], to path: String) throws {
        let temporary = path + ".partial"
        unlink(temporary)
        do {
            let db = try SQLiteDatabase(path: temporary, mode: .readWriteCreate)
            try db.execute("""
                CREATE TABLE "completions" ("s_id" INTEGER PRIMARY KEY  NOT NULL ,"comp_date" INTEGER NOT NULL  DEFAULT (0) ,"update_date" INTEGER NOT NULL  DEFAULT (0) ,"memo" TEXT)
                """)
            try db.transaction {
                let insert = try db.prepare("INSERT INTO completions (s_id, comp_date, update_date, memo) VALUES (?, ?, ?, ?)")
                for row in rows {
                    insert.reset()
                    try insert.bind(1, Int64(row.station))
                    try insert.bind(2, Int64(row.compDate))
                    try insert.bind(3, row.updateDate)
                    try insert.bind(4, row.memo)
                    try insert.step()
                }
            }
            db.close()
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw LedgerError(.io, "cannot write \(path): errno \(errno)")
        }
    }
}
