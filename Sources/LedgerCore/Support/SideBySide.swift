#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs two independent pieces of work at once: one on a thread of its own, one on the caller's
/// thread, and returns when both are done. A large merge reads two logs and, later, writes one
/// while it finds conflicts (Schemas/merge.md §7); a rebuild prepares the new projection file
/// while it folds the log. On a machine with two cores these halves overlap.
///
/// The two closures must not share mutable state: each owns what it captures until both
/// return. Errors are returned, not thrown, so that neither side is abandoned mid-way.
package enum SideBySide {
    /// Whether a second core is there to run on.
    package static var isWorthwhile: Bool { sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2 }

    package static func run<Background, Foreground>(
        background: @escaping () -> Background, foreground: () -> Foreground
    ) -> (Background, Foreground) {
        let result = ResultBox<Background>()
        let job = Job { result.value = background() }
        var thread = pthread_t()
        // Joined before this returns; until then `job` is kept alive by this frame.
        guard pthread_create(&thread, nil, runJob, Unmanaged.passUnretained(job).toOpaque()) == 0 else {
            // No thread to be had: the same work, one after the other.
            job.work()
            return (result.value!, foreground())
        }
        let foregroundResult = foreground()
        pthread_join(thread, nil)
        return (result.value!, foregroundResult)
    }
}

/// A value the background closure changes in place and hands back (`value.take()`): captured
/// directly, a struct of arrays would be copied, every element, on its first change.
package final class Handed<Value> {
    package var value: Value?
    package init(_ value: consuming Value) { self.value = value }
}

/// The background closure, handed to the thread as an unretained pointer.
private final class Job {
    let work: () -> Void
    init(_ work: @escaping () -> Void) { self.work = work }
}

/// Where the background closure leaves its result (read only after the join).
private final class ResultBox<Value> {
    var value: Value?
}

private func runJob(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    Unmanaged<Job>.fromOpaque(argument!).takeUnretainedValue().work()
    return nil
}
