// Compiled only into debug builds of the CLI (Package.swift defines ORITSUBUSHI_FAULT_HOOKS for
// the debug configuration): the end-to-end tests (CLITests' BadInputTableTests) run the debug
// binary with ORITSUBUSHI_SIMULATE_FAULT set; a release build has no hook and ignores the
// variable. The hook stays in this target rather than a test-only one because the tests drive
// the real executable, which cannot load test code. A release build cannot be given the hook by
// hand either (`-Xswiftc -DORITSUBUSHI_FAULT_HOOKS`): without SwiftPM's DEBUG it does not compile.
#if ORITSUBUSHI_FAULT_HOOKS && !DEBUG
#error("ORITSUBUSHI_FAULT_HOOKS is for debug builds only: a release build must not contain the fault hook")
#endif
#if ORITSUBUSHI_FAULT_HOOKS
#if canImport(Glibc)
import Glibc
#endif
import LedgerCore

/// A test hook for the real binary: wraps a file system so that every mutating operation fails
/// the way a full disk (ENOSPC) or a read-only file system (EROFS) makes it fail, with the same
/// wording as `PosixFileSystem`. Reads pass through, so a command gets as far as its first write.
///
/// The CLI selects it with `ORITSUBUSHI_SIMULATE_FAULT=disk-full|read-only` (`fromEnvironment`).
/// The in-process tests simulate faults with test support's `CrashableFileSystem` instead.
struct FaultInjectingFileSystem: FileSystem {
    enum Fault: String, Sendable, CaseIterable {
        /// Creating a file or directory and writing bytes fail with ENOSPC; renames, removals and
        /// truncation (which free space or need none) still work, as they do on a full disk.
        case diskFull = "disk-full"
        /// Every operation that would change the file system fails with EROFS.
        case readOnly = "read-only"

        var errorNumber: Int32 { self == .diskFull ? ENOSPC : EROFS }
    }

    static let environmentVariable = "ORITSUBUSHI_SIMULATE_FAULT"

    let base: any FileSystem
    let fault: Fault

    init(base: any FileSystem, fault: Fault) {
        (self.base, self.fault) = (base, fault)
    }

    /// The lock is taken as without the fault: a full or read-only disk still has other
    /// processes to exclude (a read-only directory's reader locks as `LedgerLock` says).
    func lockDirectory(_ path: String, request: LedgerLock.Request) throws -> LedgerLock? {
        try base.lockDirectory(path, request: request)
    }

    func withExclusiveFileLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
        try base.withExclusiveFileLock(path, body)
    }

    /// `base`, wrapped when `ORITSUBUSHI_SIMULATE_FAULT` is set to a known fault; an unknown value
    /// is a usage error, so that a typo cannot make a test pass vacuously.
    static func fromEnvironment(base: any FileSystem) throws -> any FileSystem {
        guard let value = Environment.variable(environmentVariable) else { return base }
        guard let fault = Fault(rawValue: value) else {
            let known = Fault.allCases.map(\.rawValue).joined(separator: ", ")
            throw LedgerError(.usage, "\(environmentVariable)='\(value)' is not one of \(known)")
        }
        return FaultInjectingFileSystem(base: base, fault: fault)
    }

    func failure(_ what: String, _ path: String) -> LedgerError {
        PosixFileSystem.error(what, path, errno: fault.errorNumber)
    }

    func fileExists(_ path: String) -> Bool { base.fileExists(path) }
    func directoryExists(_ path: String) -> Bool { base.directoryExists(path) }
    func listDirectory(_ path: String) throws -> [String] { try base.listDirectory(path) }
    func fileSize(_ path: String) throws -> Int { try base.fileSize(path) }
    func readFile(_ path: String) throws -> [UInt8] { try base.readFile(path) }
    func readFile(_ path: String, offset: Int, length: Int) throws -> [UInt8] {
        try base.readFile(path, offset: offset, length: length)
    }
    func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }

    func createDirectory(_ path: String) throws { throw failure("cannot create directory", path) }

    func openForAppend(_ path: String, create: Bool) throws -> any WritableFile {
        if create { throw failure("cannot create", path) }
        if fault == .readOnly { throw failure("cannot open", path) }
        return FullDiskFile(file: try base.openForAppend(path, create: false), path: path)
    }

    func truncateFile(_ path: String, to size: Int) throws {
        if fault == .readOnly { throw failure("cannot open", path) }
        try base.truncateFile(path, to: size)
    }

    /// In place: a full disk has room for it (the file keeps its size), a read-only one has not.
    func overwrite(_ path: String, at offset: Int, with bytes: [UInt8]) throws {
        if fault == .readOnly { throw failure("cannot open", path) }
        try base.overwrite(path, at: offset, with: bytes)
    }

    func rename(_ from: String, to: String) throws {
        if fault == .readOnly { throw failure("cannot rename \(from) to", to) }
        try base.rename(from, to: to)
    }

    func removeFile(_ path: String) throws {
        if fault == .readOnly { throw failure("cannot remove", path) }
        try base.removeFile(path)
    }

    func removeDirectory(_ path: String) throws {
        if fault == .readOnly { throw failure("cannot remove directory", path) }
        try base.removeDirectory(path)
    }

    func link(_ existing: String, to path: String) throws -> Bool {
        throw failure("cannot link \(existing) to", path)
    }

    func removeTree(_ path: String) throws {
        if fault == .readOnly { throw failure("cannot remove", path) }
        try base.removeTree(path)
    }

    func prepareExternalWrite(_ path: String) throws {
        throw failure(base.fileExists(path) ? "cannot write" : "cannot create", path)
    }
}

/// An existing file on a full disk: it opens, but no byte can be added to it.
private final class FullDiskFile: WritableFile {
    private let file: any WritableFile
    private let path: String

    init(file: any WritableFile, path: String) {
        (self.file, self.path) = (file, path)
    }

    var size: Int { file.size }
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if bytes.isEmpty { return }
        throw PosixFileSystem.error("cannot write", path, errno: ENOSPC)
    }
    func sync() throws { try file.sync() }
    func close() { file.close() }
}
#endif
