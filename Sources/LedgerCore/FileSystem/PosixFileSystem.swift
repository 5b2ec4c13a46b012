#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real file system, through POSIX calls with EINTR retries and explicit fsync.
package struct PosixFileSystem: FileSystem {
    /// The permissions of files it creates: 0600 for a secret (the sync token), whose temporary
    /// copy must never be readable by others either.
    private let newFileMode: mode_t

    package init(ownerOnly: Bool = false) { newFileMode = ownerOnly ? 0o600 : 0o644 }

    package func nativePath(_ path: String) -> String? { path }
    package func lockDirectory(_ path: String, request: LedgerLock.Request) throws -> LedgerLock? {
        try LedgerLock.acquire(directory: path, request: request)
    }

    package func withExclusiveFileLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.error("cannot open", path) }
        defer { _ = systemClose(fd) }
        guard flock(fd, LOCK_EX) == 0 else { throw Self.error("cannot lock", path) }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }

    package func stamp(_ path: String) -> FileStamp? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = st.st_mtimespec
        #else
        let modified = st.st_mtim
        #endif
        return FileStamp(inode: UInt64(st.st_ino), size: Int(st.st_size),
                         modifiedNanoseconds: Int64(modified.tv_sec) * 1_000_000_000 + Int64(modified.tv_nsec))
    }

    package func fileExists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    package func directoryExists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    package func createDirectory(_ path: String) throws {
        guard mkdir(path, 0o755) == 0 else { throw Self.error("cannot create directory", path) }
    }

    package func listDirectory(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw Self.error("cannot list directory", path) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    package func fileSize(_ path: String) throws -> Int {
        var st = stat()
        guard stat(path, &st) == 0 else { throw Self.error("cannot stat", path) }
        return Int(st.st_size)
    }

    package func readFile(_ path: String) throws -> [UInt8] {
        try readFile(path, offset: 0, length: Int.max)
    }

    package func readFile(_ path: String, offset: Int, length: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error("cannot open", path) }
        defer { _ = systemClose(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Self.error("cannot stat", path) }
        let available = max(0, Int(st.st_size) - offset)
        let count = min(length, available)
        // Read straight into uninitialised storage: zero-filling first cost a pass over every
        // segment on each replay.
        var failure: LedgerError?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    if n < 0 { failure = Self.error("cannot read", path) }
                    break
                }
                done += n
            }
            initialized = done
        }
        if let failure { throw failure }
        return bytes
    }

    package func openForAppend(_ path: String, create: Bool) throws -> any WritableFile {
        let flags = O_WRONLY | O_APPEND | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0)
        let fd = open(path, flags, newFileMode)
        guard fd >= 0 else { throw Self.error(create ? "cannot create" : "cannot open", path) }
        var st = stat()
        fstat(fd, &st)
        return PosixWritableFile(fd: fd, path: path, size: Int(st.st_size))
    }

    package func truncateFile(_ path: String, to size: Int) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error("cannot open", path) }
        defer { _ = systemClose(fd) }
        guard ftruncate(fd, off_t(size)) == 0 else { throw Self.error("cannot truncate", path) }
        guard fsync(fd) == 0 else { throw Self.error("cannot fsync", path) }
    }

    package func overwrite(_ path: String, at offset: Int, with bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error("cannot open", path) }
        defer { _ = systemClose(fd) }
        var done = 0
        try bytes.withUnsafeBytes { buffer in
            while done < buffer.count {
                let n = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw Self.error("cannot write", path) }
                done += n
            }
        }
        while fdatasync(fd) != 0 {
            if errno != EINTR { throw Self.error("cannot fsync", path) }
        }
    }

    package func rename(_ from: String, to: String) throws {
        guard systemRename(from, to) == 0 else { throw Self.error("cannot rename \(from) to", to) }
    }

    package func removeFile(_ path: String) throws {
        guard unlink(path) == 0 else { throw Self.error("cannot remove", path) }
    }

    /// Removes a directory and everything in it; a symbolic link is removed, never followed.
    package func removeTree(_ path: String) throws {
        for name in try listDirectory(path) {
            let child = path + "/" + name
            var st = stat()
            if lstat(child, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
                try removeTree(child)
            } else {
                try removeFile(child)
            }
        }
        try removeDirectory(path)
    }

    package func removeDirectory(_ path: String) throws {
        guard rmdir(path) == 0 else { throw Self.error("cannot remove directory", path) }
    }

    package func link(_ existing: String, to path: String) throws -> Bool {
        if systemLink(existing, path) == 0 { return true }
        guard errno == EEXIST else { throw Self.error("cannot link \(existing) to", path) }
        return false
    }

    package func syncDirectory(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.error("cannot open directory", path) }
        defer { _ = systemClose(fd) }
        guard fsync(fd) == 0 else { throw Self.error("cannot fsync directory", path) }
    }

    /// An I/O error naming the system's reason (strerror's text, not a number; a full disk gets
    /// its own clear wording), keeping the errno as its cause.
    package static func error(_ what: String, _ path: String, errno code: Int32 = errno) -> LedgerError {
        let reason = code == ENOSPC ? "the disk is full" : String(cString: strerror(code)).lowercased()
        return LedgerError(.io, "\(what) \(path): \(reason)", cause: .errno(code))
    }
}

// The C functions under names that do not clash with this file's methods.
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
private func systemRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
private func systemLink(_ from: String, _ to: String) -> Int32 { link(from, to) }
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }

final class PosixWritableFile: WritableFile {
    private var fd: Int32
    private let path: String
    private(set) var size: Int

    init(fd: Int32, path: String, size: Int) {
        (self.fd, self.path, self.size) = (fd, path, size)
    }

    deinit { close() }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let n = systemWrite(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw PosixFileSystem.error("cannot write", path) }
            done += n
            size += n
        }
    }

    /// fdatasync, not fsync: an append's data and the file's new length are what must be
    /// durable; timestamps need not be (Schemas/segment-format.md §5).
    func sync() throws {
        while fdatasync(fd) != 0 {
            if errno != EINTR { throw PosixFileSystem.error("cannot fsync", path) }
        }
    }

    func close() {
        if fd >= 0 { _ = systemClose(fd); fd = -1 }
    }
}
