#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The single-writer lock of a ledger directory: an exclusive, non-blocking `flock` on the file
/// `LOCK`, plus a POSIX record lock on the same file so that a refused process can name the
/// holder's pid (`F_GETLK`) without anything being written to disk.
package final class LedgerLock {
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock or fails at once with "ledger is locked by pid N".
    package static func acquire(directory: String) throws -> LedgerLock {
        let path = Path.join(directory, "LOCK")
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw LedgerError(.io, "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        if !takeFileLock(fd) {
            let holder = holderPID(fd: fd)
            close(fd)
            throw lockedError(holder, directory)
        }
        var lock = flockRecord(type: Int16(F_WRLCK))
        if fcntl(fd, F_SETLK, &lock) != 0 {
            let holder = holderPID(fd: fd)
            close(fd)
            throw lockedError(holder, directory)
        }
        return LedgerLock(fd: fd)
    }

    /// The `flock`, retried for up to 100 ms while no process holding it can be named. Every
    /// ledger process also holds the record lock that `F_GETLK` names, so a nameless holder is
    /// usually a fork in this very process (another thread spawning a child) that shares the
    /// descriptor of a just-closed ledger until its `exec` drops it (`O_CLOEXEC`).
    private static func takeFileLock(_ fd: Int32) -> Bool {
        for attempt in 0..<50 {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            guard errno == EWOULDBLOCK, holderPID(fd: fd) == nil, attempt < 49 else { return false }
            usleep(2_000)
        }
        return false
    }

    private static func lockedError(_ holder: Int32?, _ directory: String) -> LedgerError {
        let who = holder.map { "pid \($0)" } ?? "another process"
        return LedgerError(.locked, "ledger is locked by \(who); another program is using \(directory), try again when it is done")
    }

    private static func flockRecord(type: Int16) -> flock {
        var lock = flock()
        lock.l_type = type
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 0
        return lock
    }

    private static func holderPID(fd: Int32) -> Int32? {
        var probe = flockRecord(type: Int16(F_WRLCK))
        guard fcntl(fd, F_GETLK, &probe) == 0, probe.l_type != Int16(F_UNLCK) else { return nil }
        return probe.l_pid
    }

    package func release() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}
