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
///
/// Where two threads would run, `isWorthwhile` says whether to: with a second core, unless
/// `ORITSUBUSHI_SIDE_BY_SIDE` says `always` or `never` (docs/ledger-cli.md "Environment"), so that a one-CPU
/// runner still runs, and compares, the two-thread paths of the merge and the rebuild.
package enum SideBySide {
    /// When the side-by-side paths are taken; their results are the same either way.
    package enum Mode: String, Sendable, CaseIterable {
        /// With a second core only: the product's default.
        case automatic
        /// Even on one CPU (the two threads then take turns).
        case always
        /// Never: one thread.
        case never
    }

    /// The environment variable that sets the mode.
    package static let variable = "ORITSUBUSHI_SIDE_BY_SIDE"

    /// `ORITSUBUSHI_SIDE_BY_SIDE`, read once; unset or empty is `automatic`, a value that is no
    /// mode is refused by the CLI before any command runs (`environmentProblem`).
    package static let configured: Mode? = {
        guard let raw = getenv(variable), raw.pointee != 0 else { return .automatic }
        return Mode(rawValue: String(cString: raw))
    }()

    /// The sentence that refuses a bad `ORITSUBUSHI_SIDE_BY_SIDE`, or nil.
    package static var environmentProblem: String? {
        guard configured == nil, let raw = getenv(variable) else { return nil }
        let modes = Mode.allCases.map(\.rawValue).joined(separator: ", ")
        return "\(variable)='\(String(cString: raw))' is not a mode; use one of \(modes)"
    }

    /// The mode for the work this task runs, over the environment's: how tests run one seeded
    /// input both ways in one process (`SideBySide.$forced.withValue(.always) { … }`).
    @TaskLocal package static var forced: Mode?

    /// Whether to run two threads here: a second core is there to run on, or the mode says so.
    package static var isWorthwhile: Bool {
        switch forced ?? configured ?? .automatic {
        case .always: true
        case .never: false
        case .automatic: sysconf(Int32(_SC_NPROCESSORS_ONLN)) >= 2
        }
    }

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
