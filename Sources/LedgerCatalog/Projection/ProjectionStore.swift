import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

/// Persists the completions projection in `projection.sqlite` (Schemas/projection.md):
///
/// - `completions`: exactly the original apps' table, one row per station that has events;
/// - `completion_winners`: the `(hlc, device, seq)` keys of each row's winning date and memo
///   events, and its event count, so that later events fold in without rereading the log;
/// - `projection_checkpoint` + `projection_meta`: the version vector and log position the rows
///   reflect, and the ledger they belong to.
///
/// Loading never writes and never creates the file, so a command that is later rejected leaves
/// the ledger directory as it was. A missing, foreign or unreadable file is treated as empty and
/// rebuilt from the log on the next save.
package enum ProjectionStore {
    package static let formatVersion = 1

    package static func path(_ ledger: Ledger) -> String {
        LedgerFiles.path(LedgerFiles.projection, in: ledger.directory)
    }

    /// The current projection: the stored rows plus an in-memory fold of the records past the
    /// checkpoint (reads no record before it).
    ///
    /// With `lazy`, stored rows are read only for the stations the caller looks up and the
    /// records past the checkpoint touch, so a one-station command costs the same on a ledger
    /// of any size (`sortedRows()` then holds only those rows).
    package static func load(_ ledger: Ledger, lazy: Bool = false) throws -> CompletionsProjection {
        var projection: CompletionsProjection
        do {
            projection = try readStored(ledger, lazy: lazy) ?? CompletionsProjection()
        } catch let unusable as UnusableProjection {
            projection = CompletionsProjection()
            projection.discardedBecause = unusable.reason
        } catch {
            // An unreadable projection is only a cache: fold the log again.
            projection = CompletionsProjection()
            projection.discardedBecause = "cannot be read (\(error))"
        }
        try projection.catchUp(ledger)
        return projection
    }

    /// Loads, catches up and saves: what every command runs to keep the projection current.
    @discardableResult
    package static func update(_ ledger: Ledger) throws -> CompletionsProjection {
        var projection = try load(ledger)
        try save(&projection, ledger: ledger)
        return projection
    }

    /// Folds the whole log again and replaces the stored file.
    @discardableResult
    package static func rebuild(_ ledger: Ledger, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> CompletionsProjection {
        var projection = try CompletionsProjection.fold(ledger, progress: progress)
        try save(&projection, ledger: ledger)
        return projection
    }

    /// A command killed inside an incremental save leaves a hot journal (`-journal`). A read-only
    /// connection cannot roll it back and refuses the file ("attempt to write a readonly
    /// database"), so a writable one is opened first: its first read rolls the journal back and
    /// the file holds the previous checkpoint again. Where the file cannot be written (a read-only
    /// file system), the read-only open then fails and the projection is rebuilt in memory.
    private static func rollBackInterruptedSave(_ file: String, ledger: Ledger) {
        guard access(file + "-journal", F_OK) == 0,
              (try? ledger.fileSystem.prepareExternalWrite(file)) != nil,
              let db = try? SQLiteDatabase(path: file, mode: .readWriteCreate)
        else { return }
        _ = try? db.execute("SELECT count(*) FROM sqlite_master")
        db.close()
    }

    private static func readStored(_ ledger: Ledger, lazy: Bool) throws -> CompletionsProjection? {
        let file = path(ledger)
        guard access(file, F_OK) == 0 else { return nil }
        rollBackInterruptedSave(file, ledger: ledger)
        let db = try SQLiteDatabase(path: file, mode: .readOnly)
        var meta: [String: String] = [:]
        let metaRows = try db.prepare("SELECT key, value FROM projection_meta")
        while try metaRows.step() { meta[metaRows.string(0)] = metaRows.string(1) }
        guard meta["format"] == String(formatVersion) else {
            throw UnusableProjection(reason: "has format \(meta["format"] ?? "none"), not \(formatVersion)")
        }
        guard meta["ledger_id"] == "\(ledger.metadata.ledgerID)" else {
            throw UnusableProjection(reason: "belongs to another ledger")
        }
        guard let position = meta["position"].flatMap(UInt64.init) else {
            throw UnusableProjection(reason: "has no checkpoint position")
        }
        // A checkpoint ahead of the log means the log was replaced or cut: start over.
        guard position <= ledger.recordCount else {
            throw UnusableProjection(reason: "has its checkpoint at record \(position), past the end of the log (\(ledger.recordCount) records)")
        }
        var projection = CompletionsProjection()
        let checkpoint = try db.prepare("SELECT device, seq FROM projection_checkpoint")
        while try checkpoint.step() {
            guard let device = DeviceID(hex: checkpoint.string(0)) else {
                throw UnusableProjection(reason: "names a device that is not a device id")
            }
            let seq = UInt64(bitPattern: checkpoint.int64(1))
            guard seq <= ledger.versionVector[device] ?? 0 else {
                throw UnusableProjection(reason: "has a checkpoint ahead of the log for device \(device)")
            }
            projection.versionVector[device] = seq
        }
        let versions = try db.prepare("SELECT version FROM projection_catalog_versions")
        while try versions.step() { projection.catalogVersions.insert(UInt32(truncatingIfNeeded: versions.int64(0))) }
        if lazy {
            projection.loader = try ProjectionRowLoader(database: db)
        } else {
            defer { db.close() }
            let rows = try db.prepare("SELECT \(rowColumns) FROM completions c JOIN completion_winners w ON w.s_id = c.s_id")
            while try rows.step() {
                projection.insertLoaded(UInt32(truncatingIfNeeded: rows.int64(0)), decodeRow(rows))
            }
        }
        projection.position = position
        projection.storedPosition = position
        projection.needsFullWrite = false
        return projection
    }

    static let rowColumns = """
        c.s_id, c.comp_date, c.memo, w.date_hlc, w.date_device, w.date_seq, \
        w.memo_hlc, w.memo_device, w.memo_seq, w.events
        """

    static func decodeRow(_ rows: SQLiteStatement) -> ProjectedStation {
        var row = ProjectedStation()
        row.compDate = UInt32(truncatingIfNeeded: rows.int64(1))
        row.memo = rows.isNull(2) ? "" : rows.string(2)
        row.dateWinner = order(rows, 3)
        row.memoWinner = order(rows, 6)
        row.events = UInt32(truncatingIfNeeded: rows.int64(9))
        return row
    }

    private static func order(_ statement: SQLiteStatement, _ column: Int32) -> EventOrder? {
        guard !statement.isNull(column) else { return nil }
        return EventOrder(hlc: HybridTimestamp(rawValue: UInt64(bitPattern: statement.int64(column))),
                          device: DeviceID(rawValue: UInt64(bitPattern: statement.int64(column + 1))),
                          seq: UInt64(bitPattern: statement.int64(column + 2)))
    }

    /// The schema; `completions` is the original apps' DDL byte for byte.
    package static let schema = """
        CREATE TABLE IF NOT EXISTS "completions" ("s_id" INTEGER PRIMARY KEY  NOT NULL ,"comp_date" INTEGER NOT NULL  DEFAULT (0) ,"update_date" INTEGER NOT NULL  DEFAULT (0) ,"memo" TEXT);
        CREATE TABLE IF NOT EXISTS completion_winners (s_id INTEGER PRIMARY KEY NOT NULL, date_hlc INTEGER, date_device INTEGER, date_seq INTEGER, memo_hlc INTEGER, memo_device INTEGER, memo_seq INTEGER, events INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS projection_checkpoint (device TEXT PRIMARY KEY NOT NULL, seq INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS projection_catalog_versions (version INTEGER PRIMARY KEY NOT NULL);
        CREATE TABLE IF NOT EXISTS projection_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
        """

    /// Writes the rows changed since loading and the new checkpoint in one transaction, or the
    /// whole projection into a fresh file that replaces the old one.
    package static func save(_ projection: inout CompletionsProjection, ledger: Ledger) throws {
        let file = path(ledger)
        if projection.needsFullWrite || access(file, F_OK) != 0 {
            let temporary = file + ".new"
            try ledger.fileSystem.prepareExternalWrite(temporary)
            unlink(temporary)
            do {
                let db = try SQLiteDatabase(path: temporary, mode: .readWriteCreate)
                try db.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
                try db.execute(schema)
                try db.transaction {
                    try write(projection.sortedRows(), to: db)
                    try writeCheckpoint(projection, ledger: ledger, to: db)
                }
                // The file is derived data, so one fsync at the end (not per page) is enough.
                try db.execute("PRAGMA journal_mode = DELETE")
                db.close()
                try syncFile(temporary)
            } catch {
                unlink(temporary)
                throw error
            }
            // A leftover hot journal would be played back into the new file once it has the old
            // one's name, so when there is one, the old file goes first, then its journal (a
            // crash in between leaves no projection, which the next command rebuilds).
            if access(file + "-journal", F_OK) == 0 {
                unlink(file)
                unlink(file + "-journal")
            }
            guard rename(temporary, file) == 0 else {
                unlink(temporary)
                throw LedgerError(.io, "cannot replace the projection: errno \(errno)", file: file)
            }
        } else if !projection.dirtyRows().isEmpty || projection.position != projection.storedPosition {
            try ledger.fileSystem.prepareExternalWrite(file)
            let db = try SQLiteDatabase(path: file, mode: .readWriteCreate)
            defer { db.close() }
            try db.transaction {
                try write(projection.dirtyRows(), to: db)
                try writeCheckpoint(projection, ledger: ledger, to: db)
            }
        }
        projection.markSaved()
    }


    private static func write(_ rows: [(station: UInt32, row: ProjectedStation)], to db: SQLiteDatabase) throws {
        let completion = try db.prepare("INSERT OR REPLACE INTO completions (s_id, comp_date, update_date, memo) VALUES (?, ?, ?, ?)")
        let winners = try db.prepare("""
            INSERT OR REPLACE INTO completion_winners \
            (s_id, date_hlc, date_device, date_seq, memo_hlc, memo_device, memo_seq, events) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (station, row) in rows {
            completion.reset()
            try completion.bind(1, Int64(station))
            try completion.bind(2, Int64(row.compDate))
            try completion.bind(3, row.updateDate)
            try completion.bind(4, row.memo)
            try completion.step()
            winners.reset()
            try winners.bind(1, Int64(station))
            for (offset, winner) in [(Int32(2), row.dateWinner), (Int32(5), row.memoWinner)] {
                if let winner {
                    try winners.bind(offset, Int64(bitPattern: winner.hlc.rawValue))
                    try winners.bind(offset + 1, Int64(bitPattern: winner.device.rawValue))
                    try winners.bind(offset + 2, Int64(bitPattern: winner.seq))
                } else {
                    for k in offset..<offset + 3 { try winners.bindNull(k) }
                }
            }
            try winners.bind(8, Int64(row.events))
            try winners.step()
        }
    }

    private static func writeCheckpoint(_ projection: CompletionsProjection, ledger: Ledger, to db: SQLiteDatabase) throws {
        try db.execute("DELETE FROM projection_checkpoint; DELETE FROM projection_catalog_versions")
        let checkpoint = try db.prepare("INSERT INTO projection_checkpoint (device, seq) VALUES (?, ?)")
        for (device, seq) in projection.versionVector.sorted(by: { $0.key < $1.key }) {
            checkpoint.reset()
            try checkpoint.bind(1, device.description)
            try checkpoint.bind(2, Int64(bitPattern: seq))
            try checkpoint.step()
        }
        let versions = try db.prepare("INSERT INTO projection_catalog_versions (version) VALUES (?)")
        for version in projection.catalogVersions.sorted() {
            versions.reset()
            try versions.bind(1, Int64(version))
            try versions.step()
        }
        let meta = try db.prepare("INSERT OR REPLACE INTO projection_meta (key, value) VALUES (?, ?)")
        for (key, value) in [("format", String(formatVersion)), ("ledger_id", "\(ledger.metadata.ledgerID)"),
                             ("position", String(projection.position))] {
            meta.reset()
            try meta.bind(1, key)
            try meta.bind(2, value)
            try meta.step()
        }
    }

    private static func syncFile(_ path: String) throws {
        let fd = Glibc.open(path, O_RDONLY)
        guard fd >= 0 else { throw LedgerError(.io, "cannot open for fsync: errno \(errno)", file: path) }
        defer { Glibc.close(fd) }
        guard fsync(fd) == 0 else { throw LedgerError(.io, "fsync failed: errno \(errno)", file: path) }
    }
}


/// Why a stored projection file cannot be used (it is then rebuilt from the log).
struct UnusableProjection: Error {
    var reason: String
}

/// Reads single stored rows on demand for a lazily loaded projection. Each lookup resets its
/// statement, so no read lock outlives it and the same process can then write the file.
final class ProjectionRowLoader: @unchecked Sendable {
    private let database: SQLiteDatabase
    private let statement: SQLiteStatement

    init(database: SQLiteDatabase) throws {
        self.database = database
        statement = try database.prepare(
            "SELECT \(ProjectionStore.rowColumns) FROM completions c JOIN completion_winners w ON w.s_id = c.s_id WHERE c.s_id = ?")
    }

    func load(_ station: UInt32) throws -> ProjectedStation? {
        statement.reset()
        defer { statement.reset() }
        try statement.bind(1, Int64(station))
        return try statement.step() ? ProjectionStore.decodeRow(statement) : nil
    }
}
