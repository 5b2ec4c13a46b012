import GRDB
import Testing
@testable import LedgerCatalog

/// `SQLiteInsert` writes rows several to a statement: every row count around the batch size
/// must land whole, a replacing insert keeps the last row of a key, and a plain one refuses a
/// duplicate key with SQLite's error.
@Suite struct SQLiteInsertTests {
    static let batch = SQLiteInsert.rowsPerStatement

    struct Sample {
        var id: Int64
        var text: String?
    }

    @Test(arguments: [0, 1, batch - 1, batch, batch + 1, 3 * batch + 5])
    func everyRowLands(count: Int) throws {
        let queue = try DatabaseQueue()
        let rows: [Sample] = (0..<count).map { index in
            let text: String? = index % 3 == 0 ? nil : "row \(index) 駅"
            return Sample(id: Int64(index * 7 + 1), text: text)
        }
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY NOT NULL, text TEXT, n INTEGER NOT NULL)")
            let insert = SQLiteInsert(db, into: "t", columns: ["id", "text", "n"], replacing: false)
            try insert.insert(rows) { insert, row in
                insert.bind(1, row.id)
                if let text = row.text { insert.bind(2, text) } else { insert.bind(2, nil as Int64?) }
                insert.bind(3, row.id * 2)
            }
        }
        let stored = try queue.read { db in try Row.fetchAll(db, sql: "SELECT id, text, n FROM t ORDER BY id") }
        let ids: [Int64] = stored.map { $0["id"] }
        let texts: [String?] = stored.map { $0["text"] }
        let doubled: [Int64] = stored.map { $0["n"] }
        #expect(ids == rows.map(\.id))
        #expect(texts == rows.map(\.text))
        #expect(doubled == rows.map { $0.id * 2 })
    }

    @Test func replacingKeepsTheLastRowOfAKey() throws {
        let queue = try DatabaseQueue()
        let ids: [Int64] = (0..<(2 * Self.batch + 3)).map { Int64($0 % 10) }
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY NOT NULL, n INTEGER NOT NULL)")
            let insert = SQLiteInsert(db, into: "t", columns: ["id", "n"], replacing: true)
            try insert.insert(Array(ids.enumerated())) { insert, element in
                insert.bind(1, element.element)
                insert.bind(2, Int64(element.offset))
            }
        }
        let stored = try queue.read { db in try Row.fetchAll(db, sql: "SELECT id, n FROM t ORDER BY id") }
        for row in stored {
            let id: Int64 = row["id"]
            #expect(row["n"] as Int64 == Int64(ids.lastIndex(of: id)!))
        }
        #expect(stored.count == 10)
    }

    @Test func plainInsertRefusesADuplicateKey() throws {
        let queue = try DatabaseQueue()
        #expect(throws: DatabaseError.self) {
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY NOT NULL)")
                let insert = SQLiteInsert(db, into: "t", columns: ["id"], replacing: false)
                try insert.insert([Int64(1), 2, 1]) { insert, id in insert.bind(1, id) }
            }
        }
    }
}
