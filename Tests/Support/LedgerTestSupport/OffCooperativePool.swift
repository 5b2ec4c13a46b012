import Foundation

/// Runs blocking work (sockets read with timeouts, sleeps between sends, waits on a child
/// process) on a thread of its own and awaits its result, so that an async test never blocks one
/// of Swift's cooperative threads (two on a 2-core machine) and, in turn, never misses its own
/// timing because other tests block them.
package func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
