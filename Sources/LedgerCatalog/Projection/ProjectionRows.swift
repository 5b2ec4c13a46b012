import GRDB
import LedgerCore

/// The schema of `projection.sqlite` and its rows' codec (Schemas/projection.md §2).
enum ProjectionRows {
    /// Named, versioned migrations. The first is the schema every earlier version wrote; its
    /// `IF NOT EXISTS` makes it a no-op on such files, which GRDB then records as migrated.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: projection format 1") { db in
            try db.execute(sql: CompletionsTable.create("CREATE TABLE IF NOT EXISTS") + ";\n" + schema)
        }
        return migrator
    }()

    /// The tables besides `completions`.
    static let schema = """
        CREATE TABLE IF NOT EXISTS completion_winners (s_id INTEGER PRIMARY KEY NOT NULL, date_hlc INTEGER, date_device INTEGER, date_seq INTEGER, memo_hlc INTEGER, memo_device INTEGER, memo_seq INTEGER, events INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS projection_checkpoint (device TEXT PRIMARY KEY NOT NULL, seq INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS projection_catalog_versions (version INTEGER PRIMARY KEY NOT NULL);
        CREATE TABLE IF NOT EXISTS projection_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
        """

    static let columns = """
        c.s_id, c.comp_date, c.memo, w.date_hlc, w.date_device, w.date_seq, \
        w.memo_hlc, w.memo_device, w.memo_seq, w.events
        """
    static let source = "FROM completions c JOIN completion_winners w ON w.s_id = c.s_id"

    static func decode(_ row: Row) -> ProjectedStation {
        var station = ProjectedStation()
        station.compDate = UInt32(truncatingIfNeeded: row["comp_date"] as Int64)
        station.memo = row["memo"] ?? ""
        station.dateWinner = order(row, "date")
        station.memoWinner = order(row, "memo")
        station.events = UInt32(truncatingIfNeeded: row["events"] as Int64)
        return station
    }

    private static func order(_ row: Row, _ register: String) -> EventOrder? {
        guard let hlc = row["\(register)_hlc"] as Int64?, let device = row["\(register)_device"] as Int64?,
              let seq = row["\(register)_seq"] as Int64? else { return nil }
        return EventOrder(hlc: HybridTimestamp(rawValue: UInt64(bitPattern: hlc)),
                          device: DeviceID(rawValue: UInt64(bitPattern: device)), seq: UInt64(bitPattern: seq))
    }

    /// Writes the winners of `rows`, replacing rows of the same `s_id` when `replacing`.
    static func insertWinners(_ rows: [(station: UInt32, row: ProjectedStation)], replacing: Bool,
                              _ db: Database) throws {
        let insert = SQLiteInsert(db, into: "completion_winners",
                                  columns: ["s_id", "date_hlc", "date_device", "date_seq", "memo_hlc", "memo_device",
                                            "memo_seq", "events"],
                                  replacing: replacing)
        try insert.insert(rows) { insert, element in
            insert.bind(1, Int64(element.station))
            insert.bind(2, winner: element.row.dateWinner)
            insert.bind(5, winner: element.row.memoWinner)
            insert.bind(8, Int64(element.row.events))
        }
    }
}

extension SQLiteInsert {
    /// Binds a winner's hlc, device and seq to three parameters from `index` (NULLs when none).
    fileprivate func bind(_ index: Int32, winner: EventOrder?) {
        bind(index, winner.map { Int64(bitPattern: $0.hlc.rawValue) })
        bind(index + 1, winner.map { Int64(bitPattern: $0.device.rawValue) })
        bind(index + 2, winner.map { Int64(bitPattern: $0.seq) })
    }
}

/// Reads single stored rows on demand for a lazily loaded projection. Each lookup prepares and
/// finalises its own statement, so no read lock outlives it and the same process can then write
/// the file.
final class ProjectionRowLoader: @unchecked Sendable {
    // @unchecked: a DatabaseQueue serialises its own access.
    private let queue: DatabaseQueue
    private let file: String

    init(queue: DatabaseQueue, file: String) {
        (self.queue, self.file) = (queue, file)
    }

    func load(_ station: UInt32) throws -> ProjectedStation? {
        try SQLiteFile.mapped(file: file) {
            try queue.inDatabase { db in
                try Row.fetchOne(db, sql: "SELECT \(ProjectionRows.columns) \(ProjectionRows.source) WHERE c.s_id = ?",
                                 arguments: [Int64(station)]).map(ProjectionRows.decode)
            }
        }
    }
}
