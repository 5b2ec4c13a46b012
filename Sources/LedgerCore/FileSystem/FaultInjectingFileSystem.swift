#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A test hook for the real binary: wraps a file system so that every mutating operation fails
/// the way a full disk (ENOSPC) or a read-only file system (EROFS) makes it fail, with the same
/// wording as `PosixFileSystem`. Reads pass through, so a command gets as far as its first write.
///
/// The CLI selects it with `ORITSUBUSHI_SIMULATE_FAULT=disk-full|read-only`, and only in debug
/// builds (`fromEnvironment`): release builds ignore the variable.
package struct FaultInjectingFileSystem: FileSystem {
    package enum Fault: String, Sendable, CaseIterable {
        /// Creating a file or directory and writing bytes fail with ENOSPC; renames, removals and
        /// truncation (which free space or need none) still work, as they do on a full disk.
        case diskFull = "disk-full"
        /// Every operation that would change the file system fails with EROFS.
        case readOnly = "read-only"

        var errorNumber: Int32 { self == .diskFull ? ENOSPC : EROFS }
    }

    package static let environmentVariable = "ORITSUBUSHI_SIMULATE_FAULT"

    package let base: any FileSystem
    package let fault: Fault

    package init(base: any FileSystem, fault: Fault) {
        self.base = base
        self.fault = fault
    }

    /// `base`, wrapped when a debug build runs with `ORITSUBUSHI_SIMULATE_FAULT` set to a known
    /// fault; an unknown value is a usage error, so that a typo cannot make a test pass vacuously.
    package static func fromEnvironment(base: any FileSystem) throws -> any FileSystem {
        #if DEBUG
        guard let raw = getenv(environmentVariable), raw.pointee != 0 else { return base }
        let value = String(cString: raw)
        guard let fault = Fault(rawValue: value) else {
            let known = Fault.allCases.map(\.rawValue).joined(separator: ", ")
            throw LedgerError(.usage, "\(environmentVariable)='\(value)' is not one of \(known)")
        }
        return FaultInjectingFileSystem(base: base, fault: fault)
        #else
        return base
        #endif
    }

    func failure(_ what: String, _ path: String) -> LedgerError {
        PosixFileSystem.error(what, path, errno: fault.errorNumber)
    }

    package func fileExists(_ path: String) -> Bool { base.fileExists(path) }
    package func directoryExists(_ path: String) -> Bool { base.directoryExists(path) }
    package func listDirectory(_ path: String) throws -> [String] { try base.listDirectory(path) }
    package func fileSize(_ path: String) throws -> Int { try base.fileSize(path) }
    package func readFile(_ path: String) throws -> [UInt8] { try base.readFile(path) }
    package func readFile(_ path: String, offset: Int, length: Int) throws -> [UInt8] {
        try base.readFile(path, offset: offset, length: length)
    }
    package func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }

    package func createDirectory(_ path: String) throws { throw failure("cannot create directory", path) }

    package func openForAppend(_ path: String, create: Bool) throws -> any WritableFile {
        if create { throw failure("cannot create", path) }
        if fault == .readOnly { throw failure("cannot open", path) }
        return FullDiskFile(file: try base.openForAppend(path, create: false), path: path)
    }

    package func truncateFile(_ path: String, to size: Int) throws {
        if fault == .readOnly { throw failure("cannot open", path) }
        try base.truncateFile(path, to: size)
    }

    package func rename(_ from: String, to: String) throws {
        if fault == .readOnly { throw failure("cannot rename \(from) to", to) }
        try base.rename(from, to: to)
    }

    package func removeFile(_ path: String) throws {
        if fault == .readOnly { throw failure("cannot remove", path) }
        try base.removeFile(path)
    }

    package func prepareExternalWrite(_ path: String) throws {
        throw failure(base.fileExists(path) ? "cannot write" : "cannot create", path)
    }
}

/// An existing file on a full disk: it opens, but no byte can be added to it.
private final class FullDiskFile: WritableFile {
    private let file: any WritableFile
    private let path: String

    init(file: any WritableFile, path: String) {
        self.file = file
        self.path = path
    }

    var size: Int { file.size }
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        if bytes.isEmpty { return }
        throw PosixFileSystem.error("cannot write", path, errno: ENOSPC)
    }
    func sync() throws { try file.sync() }
    func close() { file.close() }
}
