import GRDB
import LedgerCore

/// The original apps' `completions` table, defined once: the projection keeps it, the catalogue
/// import runs the dumps' carry-overs against a TEMP copy, and `export --format sqlite` writes
/// an app database with it.
package enum CompletionsTable {
    /// The apps' DDL byte for byte (SQLite stores it in `sqlite_master` without `IF NOT EXISTS`
    /// or `TEMP`, so every file holds the same text).
    package static func create(_ prefix: String = "CREATE TABLE") -> String {
        #"\#(prefix) "completions" ("s_id" INTEGER PRIMARY KEY  NOT NULL ,"comp_date" INTEGER NOT NULL  DEFAULT (0) ,"update_date" INTEGER NOT NULL  DEFAULT (0) ,"memo" TEXT)"#
    }

    /// Writes `rows` into `table` (`completions` or `temp.completions`), replacing rows of the
    /// same `s_id` when `replacing`.
    package static func insert(_ rows: some Collection<CompletionRow>, into table: String = "completions",
                               replacing: Bool = true, _ db: Database) throws {
        let insert = SQLiteInsert(db, into: table, columns: ["s_id", "comp_date", "update_date", "memo"],
                                  replacing: replacing)
        try insert.insert(rows) { insert, row in
            insert.bind(1, Int64(row.station))
            insert.bind(2, Int64(row.compDate))
            insert.bind(3, row.updateDate)
            insert.bind(4, row.memo)
        }
    }
}

extension CompletionRow {
    /// The apps' row of a projected station.
    package init(_ station: UInt32, _ row: ProjectedStation) {
        self.init(station: station, compDate: row.compDate, updateDate: row.updateDate, memo: row.memo)
    }
}
