import Foundation
import LedgerCore

/// A file system that forwards to another and counts what is read through it, per file: so that
/// a test can show what a code path reads ("opening reads only footers", "catch-up reads only
/// the records past the checkpoint") instead of trusting a name.
package final class ReadCountingFileSystem: FileSystem, @unchecked Sendable {
    /// What was read from one file.
    package struct Reads: Equatable, Sendable {
        /// `readFile(_:)` calls: the whole file.
        package var wholeFile = 0
        /// `readFile(_:offset:length:)` calls.
        package var ranged = 0
        package var bytes = 0
    }

    package let base: any FileSystem
    private let lock = NSLock()
    private var counts: [String: Reads] = [:]

    package init(_ base: any FileSystem = PosixFileSystem()) {
        self.base = base
    }

    /// Reads per path since the last `reset()`.
    package var reads: [String: Reads] { lock.withLock { counts } }

    /// Bytes read from files whose path passes `filter`.
    package func bytesRead(where filter: (String) -> Bool = { _ in true }) -> Int {
        reads.filter { filter($0.key) }.values.reduce(0) { $0 + $1.bytes }
    }

    package func reset() { lock.withLock { counts = [:] } }

    private func note(_ path: String, whole: Bool, bytes: Int) {
        lock.withLock {
            if whole { counts[path, default: Reads()].wholeFile += 1 } else { counts[path, default: Reads()].ranged += 1 }
            counts[path, default: Reads()].bytes += bytes
        }
    }

    package func readFile(_ path: String) throws -> [UInt8] {
        let bytes = try base.readFile(path)
        note(path, whole: true, bytes: bytes.count)
        return bytes
    }

    package func readFile(_ path: String, offset: Int, length: Int) throws -> [UInt8] {
        let bytes = try base.readFile(path, offset: offset, length: length)
        note(path, whole: false, bytes: bytes.count)
        return bytes
    }

    package func fileExists(_ path: String) -> Bool { base.fileExists(path) }
    package func directoryExists(_ path: String) -> Bool { base.directoryExists(path) }
    package func createDirectory(_ path: String) throws { try base.createDirectory(path) }
    package func listDirectory(_ path: String) throws -> [String] { try base.listDirectory(path) }
    package func fileSize(_ path: String) throws -> Int { try base.fileSize(path) }
    package func openForAppend(_ path: String, create: Bool) throws -> any WritableFile { try base.openForAppend(path, create: create) }
    package func truncateFile(_ path: String, to size: Int) throws { try base.truncateFile(path, to: size) }
    package func overwrite(_ path: String, at offset: Int, with bytes: [UInt8]) throws { try base.overwrite(path, at: offset, with: bytes) }
    package func rename(_ from: String, to: String) throws { try base.rename(from, to: to) }
    package func removeFile(_ path: String) throws { try base.removeFile(path) }
    package func removeDirectory(_ path: String) throws { try base.removeDirectory(path) }
    package func link(_ existing: String, to path: String) throws -> Bool { try base.link(existing, to: path) }
    package func removeTree(_ path: String) throws { try base.removeTree(path) }
    package func syncDirectory(_ path: String) throws { try base.syncDirectory(path) }
    package func prepareExternalWrite(_ path: String) throws { try base.prepareExternalWrite(path) }
    package func nativePath(_ path: String) -> String? { base.nativePath(path) }
    package func lockDirectory(_ path: String, request: LedgerLock.Request) throws -> LedgerLock? {
        try base.lockDirectory(path, request: request)
    }
    package func withExclusiveFileLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
        try base.withExclusiveFileLock(path, body)
    }
    package func stamp(_ path: String) -> FileStamp? { base.stamp(path) }
}
