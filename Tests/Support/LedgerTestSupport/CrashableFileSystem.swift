import Foundation
import LedgerCore

/// An in-memory `FileSystem` that can simulate a crash, with pebble's `memfs_crashable` rules.
///
/// Every file keeps two states: what has been written, and what was there at its last `sync()`.
/// Every directory keeps two entry tables: its current entries, and those at its last
/// `syncDirectory`. Files are inodes: a synced file that is later renamed keeps its synced
/// bytes under whichever names its directories made durable.
///
/// - `image(_:)` returns the file system as a machine would find it after losing power now
///   (see `CrashOptions`); the original is unchanged.
/// - `crash(afterOperations:)` arms a crash: once that many mutating operations have been
///   performed, the next one fails and so does everything after it, as if the process had died.
///   Take `image(_:)` afterwards to see what survived.
/// - `inject(_:)` makes a future operation fail with ENOSPC or EIO (a `LedgerError` worded like
///   `PosixFileSystem`'s), and `freeSpace` simulates a full disk.
///
/// Paths are `/`-separated; relative paths are taken from the root.
package final class CrashableFileSystem: FileSystem, @unchecked Sendable {
    // @unchecked: every mutable property below is guarded by `lock`.
    private let lock = NSLock()
    private var root: MemoryNode
    private var operations = 0
    private var crashPoint: Int?
    private var crashed = false
    private var faults: [InjectedFault] = []
    private var space: Int?
    private var trace: [String] = []

    package init() {
        root = MemoryNode(directory: ())
    }

    private init(root: MemoryNode) {
        self.root = root
    }

    // MARK: - Test controls

    /// Mutating operations performed so far (failed ones included): the crash points.
    package var operationCount: Int { locked { operations } }

    /// Every mutating operation performed, in order (for failure messages).
    package var operationLog: [String] { locked { trace } }

    /// Whether an armed crash has happened.
    package var hasCrashed: Bool { locked { crashed } }

    /// Arms a crash once `count` mutating operations have been performed; `0` crashes at the
    /// first one.
    package func crash(afterOperations count: Int) {
        locked { crashPoint = count }
    }

    /// Crashes now: every later operation fails.
    package func crashNow() {
        locked { crashed = true }
    }

    /// Makes a future operation fail.
    package func inject(_ fault: InjectedFault) {
        locked { faults.append(fault) }
    }

    /// Removes every pending fault ("space was freed").
    package func clearFaults() {
        locked { faults.removeAll() }
    }

    /// Bytes that may still be written; writes past it fail with ENOSPC after writing what
    /// fits. `nil` means unlimited.
    package var freeSpace: Int? {
        get { locked { space.map { max(0, $0 - root.usedBytes) } } }
        set { locked { space = newValue.map { $0 + root.usedBytes } } }
    }

    /// The file system after a crash now, under `options`. Works whether or not an armed
    /// crash has happened; the receiver is left as it is.
    package func image(_ options: CrashOptions = .powerLoss) -> CrashableFileSystem {
        locked {
            var generator: SeededGenerator?
            if case .keepRandomPrefix(let seed) = options.unsyncedData { generator = SeededGenerator(seed: seed) }
            return CrashableFileSystem(root: root.survivor(options, generator: &generator))
        }
    }

    /// An exact copy, synced and unsynced state alike.
    package func clone() -> CrashableFileSystem {
        locked { CrashableFileSystem(root: root.copy()) }
    }

    /// Every file and directory as it reads now: files map to their bytes, directories (with a
    /// trailing `/`) to nothing. Two equal snapshots mean byte-identical trees.
    package func snapshot(under path: String = "/") -> [String: [UInt8]] {
        locked {
            var result: [String: [UInt8]] = [:]
            guard let node = root.lookup(Self.components(path)) else { return result }
            node.collect(prefix: Self.components(path).joined(separator: "/"), into: &result)
            return result
        }
    }

    /// Changes file bytes in place, durably and outside the operation count: bit rot.
    package func corrupt(_ path: String, at offset: Int, xor mask: UInt8) {
        locked {
            guard let node = root.lookup(Self.components(path)), !node.isDirectory else {
                preconditionFailure("no file \(path)")
            }
            node.data[offset] ^= mask
            if offset < node.synced.count { node.synced[offset] ^= mask }
        }
    }

    /// Replaces a file's bytes, durably and outside the operation count.
    package func setContents(_ path: String, _ bytes: [UInt8]) {
        locked {
            guard let node = root.lookup(Self.components(path)), !node.isDirectory else {
                preconditionFailure("no file \(path)")
            }
            node.data = bytes
            node.synced = bytes
        }
    }

    // MARK: - FileSystem: reading

    package func fileExists(_ path: String) -> Bool {
        locked { !crashed && root.lookup(Self.components(path)).map { !$0.isDirectory } == true }
    }

    package func directoryExists(_ path: String) -> Bool {
        locked { !crashed && root.lookup(Self.components(path))?.isDirectory == true }
    }

    package func listDirectory(_ path: String) throws -> [String] {
        try locked {
            let node = try existing(path, "cannot list directory")
            guard node.isDirectory else { throw Self.error("cannot list directory", path, "not a directory") }
            return Array(node.children.keys)
        }
    }

    package func fileSize(_ path: String) throws -> Int {
        try locked { try existing(path, "cannot stat").data.count }
    }

    package func readFile(_ path: String) throws -> [UInt8] {
        try readFile(path, offset: 0, length: Int.max)
    }

    package func readFile(_ path: String, offset: Int, length: Int) throws -> [UInt8] {
        try locked {
            let node = try existing(path, "cannot open")
            guard !node.isDirectory else { throw Self.error("cannot read", path, "is a directory") }
            let start = min(max(0, offset), node.data.count)
            let end = start + min(length, node.data.count - start)
            return Array(node.data[start..<end])
        }
    }

    /// Nothing here is on the real disk: SQLite files are read from their bytes and written
    /// through this file system as whole images (LedgerCatalog's `SQLiteFile`).
    package func nativePath(_ path: String) -> String? { nil }
    /// Nothing to lock: no other process sees this file system.
    package func lockDirectory(_ path: String, request: LedgerLock.Request) throws -> LedgerLock? { nil }
    package func withExclusiveFileLock<T>(_ path: String, _ body: () throws -> T) throws -> T { try body() }

    // MARK: - FileSystem: mutating

    package func createDirectory(_ path: String) throws {
        try mutate(.createDirectory, path) { _ in
            let (parent, name) = try parentAndName(path, "cannot create directory")
            guard parent.children[name] == nil else { throw Self.error("cannot create directory", path, "file exists") }
            parent.children[name] = MemoryNode(directory: ())
        }
    }

    package func openForAppend(_ path: String, create: Bool) throws -> any WritableFile {
        if create {
            return try mutate(.createFile, path) { _ in
                let (parent, name) = try parentAndName(path, "cannot create")
                guard parent.children[name] == nil else { throw Self.error("cannot create", path, "file exists") }
                let node = MemoryNode(file: ())
                parent.children[name] = node
                return MemoryWritableFile(fileSystem: self, node: node, path: path)
            }
        }
        return try locked {
            let node = try existing(path, "cannot open")
            guard !node.isDirectory else { throw Self.error("cannot open", path, "is a directory") }
            return MemoryWritableFile(fileSystem: self, node: node, path: path)
        }
    }

    package func truncateFile(_ path: String, to size: Int) throws {
        // Like PosixFileSystem: ftruncate, then fsync, so the new length is durable.
        try mutate(.truncate, path) { _ in
            let node = try existing(path, "cannot open")
            guard !node.isDirectory else { throw Self.error("cannot open", path, "is a directory") }
            if size < node.data.count {
                node.data.removeLast(node.data.count - size)
            } else {
                node.data += [UInt8](repeating: 0, count: size - node.data.count)
            }
            node.synced = node.data
        }
    }

    /// Two operations, as a crash can fall between them: the in-place write (lost by a crash
    /// before the sync, the synced bytes surviving) and the data sync.
    package func overwrite(_ path: String, at offset: Int, with bytes: [UInt8]) throws {
        let node = try locked { try existing(path, "cannot open") }
        try mutate(.write, path) { fault in
            guard !node.isDirectory, offset >= 0, offset + bytes.count <= node.data.count else {
                throw Self.error("cannot write", path, "out of the file's bounds")
            }
            if let fault { throw Self.error(for: fault, "cannot write", path) }
            node.data.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        }
        try sync(node, path: path)
    }

    package func rename(_ from: String, to: String) throws {
        try mutate(.rename, from) { _ in
            let (fromParent, fromName) = try parentAndName(from, "cannot rename \(from) to")
            guard let node = fromParent.children[fromName] else {
                throw Self.error("cannot rename \(from) to", to, "no such file or directory")
            }
            let (toParent, toName) = try parentAndName(to, "cannot rename \(from) to")
            if let existing = toParent.children[toName], existing.isDirectory != node.isDirectory {
                throw Self.error("cannot rename \(from) to", to, existing.isDirectory ? "is a directory" : "not a directory")
            }
            fromParent.children[fromName] = nil
            toParent.children[toName] = node
        }
    }

    package func removeFile(_ path: String) throws {
        try mutate(.remove, path) { _ in
            let (parent, name) = try parentAndName(path, "cannot remove")
            guard let node = parent.children[name] else { throw Self.error("cannot remove", path, "no such file or directory") }
            guard !node.isDirectory else { throw Self.error("cannot remove", path, "is a directory") }
            parent.children[name] = nil
        }
    }

    package func removeDirectory(_ path: String) throws {
        try mutate(.removeDirectory, path) { _ in
            let (parent, name) = try parentAndName(path, "cannot remove directory")
            guard let node = parent.children[name] else { throw Self.error("cannot remove directory", path, "no such file or directory") }
            guard node.isDirectory else { throw Self.error("cannot remove directory", path, "not a directory") }
            guard node.children.isEmpty else { throw Self.error("cannot remove directory", path, "directory not empty") }
            parent.children[name] = nil
        }
    }

    /// The new entry names the same inode, so the file survives a crash under whichever names
    /// their directories made durable.
    package func link(_ existing: String, to path: String) throws -> Bool {
        try mutate(.link, path) { _ in
            let node = try self.existing(existing, "cannot link \(existing) to")
            guard !node.isDirectory else { throw Self.error("cannot link \(existing) to", path, "is a directory") }
            let (parent, name) = try parentAndName(path, "cannot link \(existing) to")
            guard parent.children[name] == nil else { return false }
            parent.children[name] = node
            return true
        }
    }

    package func syncDirectory(_ path: String) throws {
        try mutate(.syncDirectory, path) { _ in
            let node = try existing(path, "cannot open directory")
            guard node.isDirectory else { throw Self.error("cannot open directory", path, "not a directory") }
            node.syncedChildren = node.children
        }
    }

    // MARK: - Handles

    fileprivate func write(_ bytes: UnsafeRawBufferPointer, to node: MemoryNode, path: String) throws {
        try mutate(.write, path) { fault in
            var count = bytes.count
            var failure: LedgerError?
            if let fault {
                count = min(count, fault.partialBytes)
                failure = Self.error(for: fault, "cannot write", path)
            }
            if let space, root.usedBytes + count > space {
                count = max(0, space - root.usedBytes)
                failure = Self.error("cannot write", path, "the disk is full")
            }
            node.data.append(contentsOf: bytes.prefix(count))
            if let failure { throw failure }
        }
    }

    fileprivate func sync(_ node: MemoryNode, path: String) throws {
        try mutate(.sync, path) { fault in
            // A failed fsync promises nothing, so the synced state stays as it was.
            if let fault { throw Self.error(for: fault, "cannot fsync", path) }
            node.synced = node.data
        }
    }

    fileprivate func size(of node: MemoryNode) -> Int {
        locked { node.data.count }
    }

    // MARK: - Internals

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs one mutating operation: counts it, honours an armed crash and pending faults, and
    /// hands the body the fault it must report (the body decides how much of its work happens).
    private func mutate<T>(_ operation: FileOperation, _ path: String,
                           _ body: (InjectedFault?) throws -> T) throws -> T {
        try locked {
            if let point = crashPoint, operations >= point { crashed = true }
            guard !crashed else { throw Self.error("cannot \(operation.rawValue)", path, "the machine crashed") }
            operations += 1
            trace.append("\(operation.rawValue) \(path)")
            var fault: InjectedFault?
            if let index = faults.firstIndex(where: { $0.operation == operation }) {
                if faults[index].occurrence <= 1 {
                    fault = faults[index]
                    if !faults[index].sticky { faults.remove(at: index) }
                } else {
                    faults[index].occurrence -= 1
                }
            }
            if let fault, operation != .write && operation != .sync {
                throw Self.error(for: fault, "cannot \(operation.rawValue)", path)
            }
            return try body(fault)
        }
    }

    private func existing(_ path: String, _ what: String) throws -> MemoryNode {
        guard !crashed else { throw Self.error(what, path, "the machine crashed") }
        guard let node = root.lookup(Self.components(path)) else {
            throw Self.error(what, path, "no such file or directory")
        }
        return node
    }

    private func parentAndName(_ path: String, _ what: String) throws -> (MemoryNode, String) {
        var components = Self.components(path)
        guard let name = components.popLast() else { throw Self.error(what, path, "file exists") }
        guard let parent = root.lookup(components), parent.isDirectory else {
            throw Self.error(what, path, "no such file or directory")
        }
        return (parent, name)
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init).filter { $0 != "." }
    }

    private static func error(_ what: String, _ path: String, _ reason: String) -> LedgerError {
        LedgerError(.io, "\(what) \(path): \(reason)")
    }

    private static func error(for fault: InjectedFault, _ what: String, _ path: String) -> LedgerError {
        error(what, path, fault.code == .noSpace ? "the disk is full" : "input/output error")
    }
}

/// A file open for appending on a `CrashableFileSystem`.
final class MemoryWritableFile: WritableFile {
    private let fileSystem: CrashableFileSystem
    private let node: MemoryNode
    private let path: String
    private var isOpen = true

    init(fileSystem: CrashableFileSystem, node: MemoryNode, path: String) {
        self.fileSystem = fileSystem
        self.node = node
        self.path = path
    }

    var size: Int { fileSystem.size(of: node) }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard isOpen else { throw LedgerError(.io, "cannot write \(path): bad file descriptor") }
        try fileSystem.write(bytes, to: node, path: path)
    }

    func sync() throws {
        guard isOpen else { throw LedgerError(.io, "cannot fsync \(path): bad file descriptor") }
        try fileSystem.sync(node, path: path)
    }

    func close() { isOpen = false }
}
