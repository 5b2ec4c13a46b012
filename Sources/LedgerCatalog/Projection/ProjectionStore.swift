import GRDB
import LedgerCore

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
/// rebuilt from the log on the next save. All file operations go through the ledger's
/// `FileSystem` (`SQLiteFile`).
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

    /// Folds the whole log again and replaces the stored file. With a second core the new
    /// file's empty image is made (schema and all) while the log is folded.
    @discardableResult
    package static func rebuild(_ ledger: Ledger, progress: ((UInt64, UInt64) -> Void)? = nil) throws -> CompletionsProjection {
        let file = path(ledger)
        guard SideBySide.isWorthwhile else {
            var projection = try CompletionsProjection.fold(ledger, progress: progress)
            try save(&projection, ledger: ledger)
            return projection
        }
        let (image, folded) = SideBySide.run(
            background: { Result { try emptyImage(file: file) } },
            foreground: { Result { try CompletionsProjection.fold(ledger, progress: progress) } })
        var projection = try folded.get()
        try save(&projection, ledger: ledger, emptyImage: try image.get())
        return projection
    }

    /// A new in-memory database with the projection's schema.
    private static func emptyImage(file: String) throws -> DatabaseQueue {
        try SQLiteFile.mapped(file: file) {
            let queue = try SQLiteFile.inMemory()
            try ProjectionRows.migrator.migrate(queue)
            return queue
        }
    }

    private static func readStored(_ ledger: Ledger, lazy: Bool) throws -> CompletionsProjection? {
        let file = path(ledger)
        guard ledger.fileSystem.fileExists(file) else { return nil }
        let queue = try SQLiteFile.openForReading(file, fileSystem: ledger.fileSystem)
        return try SQLiteFile.mapped(file: file) {
            var projection = try queue.inDatabase { db in try readCheckpoint(db, ledger: ledger) }
            if lazy {
                projection.loader = ProjectionRowLoader(queue: queue, file: file)
            } else {
                try queue.inDatabase { db in
                    let rows = try Row.fetchCursor(db, sql: "SELECT \(ProjectionRows.columns) \(ProjectionRows.source)")
                    while let row = try rows.next() {
                        projection.insertLoaded(UInt32(truncatingIfNeeded: row["s_id"] as Int64), ProjectionRows.decode(row))
                    }
                }
            }
            return projection
        }
    }

    /// The stored checkpoint, validated against the ledger (an empty projection positioned there).
    private static func readCheckpoint(_ db: Database, ledger: Ledger) throws -> CompletionsProjection {
        var meta: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM projection_meta") { meta[row["key"]] = row["value"] }
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
        for row in try Row.fetchAll(db, sql: "SELECT device, seq FROM projection_checkpoint") {
            guard let device = DeviceID(hex: row["device"]) else {
                throw UnusableProjection(reason: "names a device that is not a device id")
            }
            let seq = UInt64(bitPattern: row["seq"])
            guard seq <= ledger.versionVector[device] ?? 0 else {
                throw UnusableProjection(reason: "has a checkpoint ahead of the log for device \(device)")
            }
            projection.versionVector[device] = seq
        }
        for version in try Int64.fetchAll(db, sql: "SELECT version FROM projection_catalog_versions") {
            projection.catalogVersions.insert(UInt32(truncatingIfNeeded: version))
        }
        projection.position = position
        projection.storedPosition = position
        projection.needsFullWrite = false
        return projection
    }

    /// Writes the rows changed since loading and the new checkpoint in one transaction, or the
    /// whole projection into a new file that replaces the old one.
    ///
    /// On the real disk the changed rows are written in place (SQLite's rollback journal makes
    /// that atomic); elsewhere the stored image is updated in memory and replaces the file.
    ///
    /// A reader (the ledger's lock held shared) saves only with `LedgerLock.saveToken`: when
    /// another reader is saving the same state, it leaves the save to that one.
    package static func save(_ projection: inout CompletionsProjection, ledger: Ledger) throws {
        guard ledger.lockMode == .shared else { return try save(&projection, ledger: ledger, emptyImage: nil) }
        guard let token = LedgerLock.saveToken(directory: ledger.directory) else { return }
        defer { token.release() }
        try save(&projection, ledger: ledger, emptyImage: nil)
    }

    /// `save`; a full write goes into `emptyImage` when one is given (`emptyImage(file:)`).
    private static func save(_ projection: inout CompletionsProjection, ledger: Ledger,
                             emptyImage: DatabaseQueue?) throws {
        let file = path(ledger)
        let fileSystem = ledger.fileSystem
        // A previous version's temporary of a full write, and the name of its working file.
        let stale = [file + ".new"]
        if projection.needsFullWrite || !fileSystem.fileExists(file) {
            try fileSystem.prepareExternalWrite(file)
            let queue = try emptyImage ?? SQLiteFile.inMemory()
            try write(projection.sortedRows(), projection, fresh: true, ledger: ledger, to: queue, file: file)
            try SQLiteFile.replace(file, with: queue, fileSystem: fileSystem, staleTemporaries: stale)
        } else if !projection.dirtyRows().isEmpty || projection.position != projection.storedPosition {
            try fileSystem.prepareExternalWrite(file)
            if let native = fileSystem.nativePath(file) {
                let queue = try SQLiteFile.openInPlace(file, native: native)
                try write(projection.dirtyRows(), projection, fresh: false, ledger: ledger, to: queue, file: file)
                try SQLiteFile.mapped(file: file) { try queue.close() }
            } else {
                let queue = try SQLiteFile.inMemory(fileSystem.readFile(file), file: file)
                try write(projection.dirtyRows(), projection, fresh: false, ledger: ledger, to: queue, file: file)
                try SQLiteFile.replace(file, with: queue, fileSystem: fileSystem, staleTemporaries: stale)
            }
        }
        projection.markSaved()
    }

    /// Brings the schema up to date, then writes `rows` and the checkpoint in one transaction.
    /// Into a `fresh` database the rows are plain inserts (it holds none to replace).
    private static func write(_ rows: [(station: UInt32, row: ProjectedStation)], _ projection: CompletionsProjection,
                              fresh: Bool, ledger: Ledger, to queue: DatabaseQueue, file: String) throws {
        try SQLiteFile.mapped(file: file) {
            try ProjectionRows.migrator.migrate(queue)
            try queue.write { db in
                try CompletionsTable.insert(rows.lazy.map { CompletionRow($0.station, $0.row) }, replacing: !fresh, db)
                try ProjectionRows.insertWinners(rows, replacing: !fresh, db)
                try writeCheckpoint(projection, ledger: ledger, db)
            }
        }
    }

    private static func writeCheckpoint(_ projection: CompletionsProjection, ledger: Ledger, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM projection_checkpoint; DELETE FROM projection_catalog_versions")
        for (device, seq) in projection.versionVector.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "INSERT INTO projection_checkpoint (device, seq) VALUES (?, ?)",
                           arguments: [device.description, Int64(bitPattern: seq)])
        }
        for version in projection.catalogVersions.sorted() {
            try db.execute(sql: "INSERT INTO projection_catalog_versions (version) VALUES (?)", arguments: [Int64(version)])
        }
        for (key, value) in [("format", String(formatVersion)), ("ledger_id", "\(ledger.metadata.ledgerID)"),
                             ("position", String(projection.position))] {
            try db.execute(sql: "INSERT OR REPLACE INTO projection_meta (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }
}

/// Why a stored projection file cannot be used (it is then rebuilt from the log).
struct UnusableProjection: Error {
    var reason: String
}
