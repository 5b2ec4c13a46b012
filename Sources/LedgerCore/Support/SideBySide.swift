import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Runs two independent pieces of work at once: one on a thread Dispatch provides, one on the
/// caller's thread, and returns when both are done. A large merge reads two logs and, later,
/// writes one while it finds conflicts (Schemas/merge.md §7); a rebuild prepares the new
/// projection file while it folds the log. On a machine with two cores these halves overlap.
///
/// The background closure is `sending`: the compiler's data-race checking refuses one that
/// captures anything the caller (or the foreground closure) can still reach, and its result
/// comes back the same way. Errors are returned, not thrown, so that neither side is abandoned
/// mid-way.
package enum SideBySide {
    /// Whether a second core is there to run on.
    package static var isWorthwhile: Bool { sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 }

    package static func run<Background, Foreground>(
        background: sending @escaping () -> sending Background, foreground: () -> Foreground
    ) -> (Background, Foreground) {
        let slot = Mutex(Slot(work: background))
        let done = DispatchSemaphore(value: 0)
        // A queue of its own, not a global one: such a queue gets a thread even when every thread
        // of the pool is busy (or blocked in another `run`), so the wait below always ends.
        DispatchQueue(label: "SideBySide.background").async {
            // The work runs holding the lock its result goes to: the caller takes that lock only
            // after the signal, so nothing waits on it.
            slot.withLock { $0.run() }
            done.signal()
        }
        let foregroundResult = foreground()
        done.wait()
        return (slot.withLock { $0.result.take()! }, foregroundResult)
    }
}

/// The background closure, then its result: what crosses to the other thread and back.
private struct Slot<Value> {
    var work: (() -> Value)?
    var result: Value?

    mutating func run() { result = work.take()!() }
}

/// A value the background closure changes in place and hands back (`value.take()`): captured
/// directly, a struct of arrays would be copied, every element, on its first change. Handed
/// to `SideBySide.run`, the box is the background's alone.
package final class Handed<Value> {
    package var value: Value?
    package init(_ value: consuming Value) { self.value = value }
}
