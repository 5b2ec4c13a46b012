#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock of a ledger directory (Schemas/segment-format.md §7): a `flock` on the file `LOCK`,
/// exclusive for a command that writes and shared for one that only reads, so that readers never
/// wait for each other; plus a POSIX record lock of the same kind on the same file, so that a
/// refused process can name a holder's pid (`F_GETLK`) without anything being written to disk.
///
/// A held lock is waited for up to `Request.waitSeconds` (the CLI's `--wait`), then refused with
/// "ledger is locked by pid N".
package final class LedgerLock {
    /// How a ledger is to be locked.
    package struct Request: Sendable, Equatable {
        package enum Mode: Sendable, Equatable {
            /// A reader: any number at once, none while a writer holds the lock.
            case shared
            /// A writer: alone.
            case exclusive
        }

        package var mode: Mode
        /// How long to wait for a held lock before refusing; 0 refuses at once.
        package var waitSeconds: Double

        package init(mode: Mode, waitSeconds: Double = 0) {
            (self.mode, self.waitSeconds) = (mode, waitSeconds)
        }

        /// A writer's lock, refused at once when held (the library's default).
        package static let exclusive = Request(mode: .exclusive)
    }

    private var fd: Int32
    package let mode: Request.Mode

    private init(fd: Int32, mode: Request.Mode) {
        (self.fd, self.mode) = (fd, mode)
    }

    /// Takes an exclusive lock or fails at once with "ledger is locked by pid N".
    package static func acquire(directory: String) throws -> LedgerLock {
        try acquire(directory: directory, request: .exclusive)
    }

    /// Takes the lock `request` asks for, waiting for a holder up to its `waitSeconds`.
    package static func acquire(directory: String, request: Request) throws -> LedgerLock {
        let path = Path.join(directory, "LOCK")
        var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0, request.mode == .shared, errno == EACCES || errno == EROFS {
            // A read-only directory (a backup, a snapshot, a read-only mount): a reader locks
            // the LOCK that is there, or, when there is none, needs none, since no process can
            // write the directory either.
            fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0, errno == ENOENT { return LedgerLock(fd: -1, mode: .shared) }
        }
        guard fd >= 0 else {
            let code = errno
            if code == EACCES || code == EROFS { throw readOnlyError(directory, errno: code) }
            throw LedgerError(.io, "cannot open the lock file \(path): \(String(cString: strerror(code)))", cause: .errno(code))
        }
        let exclusive = request.mode == .exclusive
        let deadline = monotonicSeconds() + max(0, request.waitSeconds)
        var pause: UInt32 = 2_000
        while true {
            if takeFileLock(fd, exclusive: exclusive) {
                var lock = flockRecord(type: Int16(exclusive ? F_WRLCK : F_RDLCK))
                if fcntl(fd, F_SETLK, &lock) == 0 { return LedgerLock(fd: fd, mode: request.mode) }
                flock(fd, LOCK_UN)
            }
            guard monotonicSeconds() < deadline else {
                let holder = holderPID(fd: fd, exclusive: exclusive)
                close(fd)
                throw lockedError(holder, directory, waited: request.waitSeconds)
            }
            // Short pauses with a little jitter, so that many waiting writers take turns.
            usleep(pause + UInt32.random(in: 0...1_000))
            pause = min(pause * 2, 50_000)
        }
    }

    /// The `flock`, retried for up to 100 ms while no process holding it can be named. Every
    /// ledger process also holds the record lock that `F_GETLK` names, so a nameless holder is
    /// usually a fork in this very process (another thread spawning a child) that shares the
    /// descriptor of a just-closed ledger until its `exec` drops it (`O_CLOEXEC`).
    private static func takeFileLock(_ fd: Int32, exclusive: Bool) -> Bool {
        for attempt in 0..<50 {
            if flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK, holderPID(fd: fd, exclusive: exclusive) == nil, attempt < 49 else { return false }
            usleep(2_000)
        }
        return false
    }

    /// The refusal of a command that writes a ledger it cannot write (exit 74).
    package static func readOnlyError(_ directory: String, errno code: Int32 = EACCES) -> LedgerError {
        LedgerError(.io, "the ledger directory is read-only (\(directory)); nothing was changed", cause: .errno(code))
    }

    /// Serialises the projection saves of readers, which hold the lock only shared: an
    /// exclusive `flock` on `ledger.json`, taken without waiting (a reader that does not get it
    /// leaves the save to the one that has it; both fold the same log). Writers hold `LOCK`
    /// exclusively and need no token.
    package static func saveToken(directory: String) -> LedgerLock? {
        let fd = open(Path.join(directory, LedgerMetadata.fileName), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return LedgerLock(fd: fd, mode: .exclusive)
    }

    private static func lockedError(_ holder: Int32?, _ directory: String, waited: Double) -> LedgerError {
        let who = holder.map { "pid \($0)" } ?? "another process"
        let wait = waited > 0 ? " (waited \(waited.secondsText) s)" : ""
        return LedgerError(.locked, "ledger is locked by \(who)\(wait); another program is using \(directory), try again when it is done")
    }

    private static func flockRecord(type: Int16) -> flock {
        var lock = flock()
        lock.l_type = type
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 0
        return lock
    }

    /// The pid of a process whose record lock stands in the way of this kind of lock.
    /// The pid of a process (not this one) that holds `directory`'s lock, if any: what a refusal
    /// names, read without taking the lock.
    package static func holder(directory: String) -> Int32? {
        let fd = open(Path.join(directory, "LOCK"), O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return holderPID(fd: fd, exclusive: true)
    }

    private static func holderPID(fd: Int32, exclusive: Bool) -> Int32? {
        var probe = flockRecord(type: Int16(exclusive ? F_WRLCK : F_RDLCK))
        guard fcntl(fd, F_GETLK, &probe) == 0, probe.l_type != Int16(F_UNLCK) else { return nil }
        return probe.l_pid
    }

    private static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    package func release() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}

private extension Double {
    /// `10`, `0.5`: seconds as typed.
    var secondsText: String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
