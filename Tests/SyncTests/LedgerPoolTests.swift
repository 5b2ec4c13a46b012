import Dispatch
import Synchronization
import Testing
@testable import SyncServer

/// The files store's pool of open ledgers, met by many threads at once. Every request opens or
/// touches its user's entry, so its lock is the most contended one in the server; under
/// ThreadSanitizer (Tools/ci-sanitizers) this suite shows that the sanitizer sees the lock: with
/// `Synchronization.Mutex`, whose contended path is a futex the sanitizer cannot see, it reports
/// a data race here (RELIABILITY.md).
@Suite struct LedgerPoolTests {
    @Test("threads opening and touching ledgers at once lose no count")
    func contendedPool() {
        let threads = 4, rounds = 5_000, users = 9
        let pool = LedgerPool(capacity: 3)
        let victims = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<rounds {
                let user = "u\((round + thread) % users)"
                victims.add(pool.opened(user).count, ordering: .relaxed)
                pool.touch(user)
            }
        }
        #expect(pool.openCount == threads * rounds)
        // No user has a ledger in the pool, so an evicted entry names none to close.
        #expect(victims.load(ordering: .relaxed) == 0)
        #expect(pool.all.isEmpty)
    }
}
