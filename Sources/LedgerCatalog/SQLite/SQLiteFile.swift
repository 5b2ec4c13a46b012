import GRDB
import GRDBSQLite
import LedgerCore

/// How this layer keeps SQLite files (`catalog.sqlite`, `projection.sqlite`, exports) so that
/// the steps that decide durability go through the `FileSystem` seam (Schemas/projection.md §3):
///
/// - a file is read where SQLite can reach it on the real disk, and otherwise (an in-memory file
///   system in tests) from its bytes, deserialised into an in-memory database;
/// - a new file is built in memory and its image written through the seam: a temporary name,
///   fsync, rename over the old file, fsync of the directory (`FileSystem.writeAtomically`).
///
/// Only the projection's incremental save writes a file in place through SQLite's own I/O; its
/// rollback journal decides durability there (`rollBackHotJournal`).
package enum SQLiteFile {
    /// The connection settings of every file: SQLite's own defaults, which the original apps
    /// and the dumps rely on (GRDB turns foreign keys on and double-quoted literals off).
    package static func configuration(readonly: Bool = false) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.foreignKeysEnabled = false
        configuration.acceptsDoubleQuotedStringLiterals = true
        configuration.busyMode = .timeout(5)
        return configuration
    }

    /// Opens `path` for reading: the file itself on the real disk, or a copy of its bytes.
    package static func openForReading(_ path: String, fileSystem: any FileSystem) throws -> DatabaseQueue {
        guard let native = fileSystem.nativePath(path) else {
            return try inMemory(fileSystem.readFile(path), file: path)
        }
        rollBackHotJournal(path, fileSystem: fileSystem)
        return try mapped(file: path) { try DatabaseQueue(path: native, configuration: configuration(readonly: true)) }
    }

    /// Opens `path` read-write in place (the projection's incremental save).
    package static func openInPlace(_ path: String, native: String) throws -> DatabaseQueue {
        try mapped(file: path) { try DatabaseQueue(path: native, configuration: configuration()) }
    }

    /// A private in-memory database, empty or holding a copy of a file's bytes.
    package static func inMemory(_ bytes: [UInt8]? = nil, file: String? = nil) throws -> DatabaseQueue {
        try mapped(file: file) {
            let queue = try DatabaseQueue(configuration: configuration())
            guard let bytes, !bytes.isEmpty else { return queue }
            try queue.inDatabase { db in
                // SQLite owns (and frees) the buffer it is given.
                guard let buffer = sqlite3_malloc64(sqlite3_uint64(bytes.count)) else {
                    throw DatabaseError(resultCode: .SQLITE_NOMEM)
                }
                bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
                let rc = sqlite3_deserialize(
                    db.sqliteConnection, "main", buffer.assumingMemoryBound(to: UInt8.self),
                    sqlite3_int64(bytes.count), sqlite3_int64(bytes.count),
                    UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE))
                guard rc == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: rc)) }
                db.clearSchemaCache()
                // Reading the schema now reports a file that is not a database here, not later.
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
            }
            return queue
        }
    }

    /// The database's file image (what SQLite would have on disk).
    package static func image(_ queue: DatabaseQueue, file: String? = nil) throws -> [UInt8] {
        try mapped(file: file) {
            try queue.inDatabase { db in
                var size: sqlite3_int64 = 0
                guard let bytes = sqlite3_serialize(db.sqliteConnection, "main", &size, 0) else {
                    throw DatabaseError(resultCode: .SQLITE_NOMEM)
                }
                defer { sqlite3_free(bytes) }
                return Array(UnsafeBufferPointer(start: bytes, count: Int(size)))
            }
        }
    }

    /// Replaces `path` with the database's image so that a crash leaves the old file or the
    /// new one. A hot journal of the old file is rolled back first; one that cannot be is removed
    /// after the old file (never before it, which would leave a half-written file looking valid),
    /// so that it is never played back into the new file. Stale temporaries of earlier versions
    /// (`staleTemporaries`) are removed.
    package static func replace(_ path: String, with queue: DatabaseQueue, fileSystem: any FileSystem,
                                staleTemporaries: [String] = []) throws {
        let bytes = try image(queue, file: path)
        let journal = path + "-journal"
        rollBackHotJournal(path, fileSystem: fileSystem)
        if fileSystem.fileExists(journal) {
            try fileSystem.removeFileIfPresent(path)
            try fileSystem.removeFile(journal)
            try fileSystem.syncDirectory(Path.parent(of: path))
        }
        try fileSystem.prepareExternalWrite(path)
        try fileSystem.writeAtomically(path, bytes)
        for temporary in staleTemporaries {
            try fileSystem.removeFileIfPresent(temporary)
        }
    }

    /// A command killed inside an in-place save leaves a hot journal (`-journal`). A read-only
    /// connection cannot roll it back and refuses the file ("attempt to write a readonly
    /// database"), so a writable one is opened first: its first read rolls the journal back and
    /// the file holds the previous state again. Where the file cannot be written (a read-only
    /// file system), nothing happens and the caller's read-only open reports the problem.
    package static func rollBackHotJournal(_ path: String, fileSystem: any FileSystem) {
        guard fileSystem.fileExists(path + "-journal"), let native = fileSystem.nativePath(path),
              (try? fileSystem.prepareExternalWrite(path)) != nil,
              let queue = try? DatabaseQueue(path: native, configuration: configuration())
        else { return }
        _ = try? queue.inDatabase { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        try? queue.close()
    }

    /// Runs `body`, turning a `DatabaseError` into a `LedgerError` (`LedgerError(sqlite:)`).
    package static func mapped<T>(file: String?, category: LedgerError.Category = .io,
                                  _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw LedgerError(sqlite: error, category: category, file: file)
        }
    }
}
