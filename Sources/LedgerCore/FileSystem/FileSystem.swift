/// The file operations the storage engine uses, behind a protocol so that tests can substitute a
/// crashable in-memory file system (unsynced writes and directory entries vanish on a crash).
///
/// Every mutation is explicit about durability: data is durable only after `WritableFile.sync()`,
/// and a new or renamed directory entry only after `syncDirectory(_:)` of its parent.
package protocol FileSystem: Sendable {
    func fileExists(_ path: String) -> Bool
    func directoryExists(_ path: String) -> Bool
    func createDirectory(_ path: String) throws
    /// Entry names (not paths), unsorted.
    func listDirectory(_ path: String) throws -> [String]
    func fileSize(_ path: String) throws -> Int
    func readFile(_ path: String) throws -> [UInt8]
    func readFile(_ path: String, offset: Int, length: Int) throws -> [UInt8]
    /// Opens for appending; `create` makes a new file and fails if one exists.
    func openForAppend(_ path: String, create: Bool) throws -> any WritableFile
    func truncateFile(_ path: String, to size: Int) throws
    /// Writes `bytes` over the file's bytes at `offset` (inside its length, so its size never
    /// changes) and syncs its data: durable when it returns (the segment watermark's slots).
    func overwrite(_ path: String, at offset: Int, with bytes: [UInt8]) throws
    func rename(_ from: String, to: String) throws
    func removeFile(_ path: String) throws
    /// Removes an empty directory.
    func removeDirectory(_ path: String) throws
    /// Gives the file `existing` a second name `path` (a hard link: both name one file); false,
    /// changing nothing, when `path` exists. Durable once `path`'s directory is synced. One
    /// process or another wins a name this way: the files store's device claims.
    func link(_ existing: String, to path: String) throws -> Bool
    /// Removes a directory and everything in it (the default walks the tree with the calls
    /// above; the real file system never follows a symbolic link).
    func removeTree(_ path: String) throws
    func syncDirectory(_ path: String) throws
    /// Called before a library with its own I/O (SQLite) creates or writes `path`, so that a file
    /// system simulating a fault refuses that write the way it refuses its own.
    func prepareExternalWrite(_ path: String) throws
    /// Where a library with its own I/O (SQLite) finds `path` on the real disk, or `nil` when the
    /// file lives only inside this file system (an in-memory one): read its bytes instead.
    func nativePath(_ path: String) -> String?
    /// Locks the ledger directory `path` as `request` asks (`LedgerLock`, Schemas/segment-format.md
    /// §7); nil where no other process can reach the files (a file system in memory). No default:
    /// a wrapper decides whether it locks what it wraps.
    func lockDirectory(_ path: String, request: LedgerLock.Request) throws -> LedgerLock?
    /// Runs `body` holding an exclusive lock on the file `path` (made if missing), waiting for
    /// another holder as long as it takes: short critical sections such as a change of the
    /// server's users.json. Where no other process can reach the files, `body` alone.
    func withExclusiveFileLock<T>(_ path: String, _ body: () throws -> T) throws -> T
    /// What changes whenever the file is replaced or written (its inode, size and modification
    /// time), for a cache of what was read from it; `nil` when there is no such stamp (a file
    /// system in memory: read the file instead) or the file is missing.
    func stamp(_ path: String) -> FileStamp?
}

/// A file's identity and version as `FileSystem.stamp` reads it.
package struct FileStamp: Equatable, Sendable {
    package var inode: UInt64
    package var size: Int
    package var modifiedNanoseconds: Int64
    // Made only by the file systems in this module: the memberwise init serves.
}

/// A file open for appending.
package protocol WritableFile: AnyObject {
    var size: Int { get }
    func write(_ bytes: UnsafeRawBufferPointer) throws
    /// fdatasync: after it returns, everything written so far (and the file's length) survives
    /// a crash.
    func sync() throws
    func close()
}

extension FileSystem {
    /// The real file system has nothing to check: SQLite reports its own errors.
    package func prepareExternalWrite(_ path: String) throws {}

    /// A file system that is not the real disk has no native paths.
    package func nativePath(_ path: String) -> String? { nil }

    /// Nor stamps: a cache over it reads the file every time.
    package func stamp(_ path: String) -> FileStamp? { nil }

    package func removeTree(_ path: String) throws {
        for name in try listDirectory(path) {
            let child = Path.join(path, name)
            if directoryExists(child) { try removeTree(child) } else { try removeFile(child) }
        }
        try removeDirectory(path)
    }

    /// Creates the directory `path` unless it exists, durably: its entry in the parent is fsynced,
    /// so that a power loss cannot take it away with what is later written inside it.
    package func createDirectoryDurably(_ path: String) throws {
        guard !directoryExists(path) else { return }
        try createDirectory(path)
        try syncDirectory(Path.parent(of: path))
    }

    /// Removes `path` if it exists (a stale temporary or journal); other failures are thrown.
    package func removeFileIfPresent(_ path: String) throws {
        if fileExists(path) { try removeFile(path) }
    }

    /// Replaces `path` with `bytes` so that a crash leaves either the old or the new content:
    /// write a temporary file, fsync it, rename it over, fsync the directory.
    package func writeAtomically(_ path: String, _ bytes: [UInt8]) throws {
        let temporary = path + ".tmp"
        if fileExists(temporary) { try removeFile(temporary) }
        let file = try openForAppend(temporary, create: true)
        do {
            try bytes.withUnsafeBytes { (buffer) throws in try file.write(buffer) }
            try file.sync()
        } catch {
            file.close()
            try? removeFile(temporary)
            throw error
        }
        file.close()
        do {
            try rename(temporary, to: path)
        } catch {
            // e.g. `path` is a directory: leave nothing behind beside it.
            try? removeFile(temporary)
            throw error
        }
        try syncDirectory(Path.parent(of: path))
    }
}

/// Path helpers (plain strings, `/`-separated).
package enum Path {
    package static func join(_ base: String, _ name: String) -> String {
        base.hasSuffix("/") ? base + name : base + "/" + name
    }
    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
    package static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
