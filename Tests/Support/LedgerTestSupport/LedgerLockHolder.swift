import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Holds a ledger's `LOCK` with an exclusive `flock` alone, on its own open file description.
/// Any other open of the ledger, by a child command or by this process, is refused, after the
/// brief retry for a holder that `F_GETLK` cannot name (Schemas/segment-format.md §7).
package final class LedgerLockHolder: Sendable {
    private let descriptor: Mutex<Int32>

    package init(ledger: String) throws {
        let fd = open(ledger + "/LOCK", O_RDWR | O_CLOEXEC)
        guard fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            if fd >= 0 { close(fd) }
            throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: ledger + "/LOCK"])
        }
        descriptor = Mutex(fd)
    }

    /// Releases the lock; later calls do nothing.
    package func stop() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { stop() }
}
