import Synchronization

/// Every user's `UserLedger` (one per user for the life of the store, so one user's requests
/// are serialised by exactly one actor) and which of them hold an open ledger: at most
/// `capacity`, the least recently used closed first.
final class LedgerPool: Sendable {
    private struct State {
        var users: [String: UserLedger] = [:]
        /// Open ledgers by last use (a tick); evicted ones leave at once, before they close.
        var lastUse: [String: UInt64] = [:]
        var tick: UInt64 = 0
        var openCount = 0
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) { self.capacity = max(1, capacity) }

    func ledger(for user: String, make: () -> UserLedger) -> UserLedger {
        state.withLock { state in
            if let ledger = state.users[user] { return ledger }
            let ledger = make()
            state.users[user] = ledger
            return ledger
        }
    }

    var all: [UserLedger] { state.withLock { Array($0.users.values) } }

    /// Ledgers open now (tests check that start-up opens none).
    var openCount: Int { state.withLock { $0.openCount } }

    func touch(_ user: String) {
        state.withLock { state in
            guard state.lastUse[user] != nil else { return }
            state.tick += 1
            state.lastUse[user] = state.tick
        }
    }

    /// Notes that `user`'s ledger opened; returns the ledgers to close to stay within capacity.
    func opened(_ user: String) -> [UserLedger] {
        state.withLock { state in
            state.openCount += 1
            state.tick += 1
            state.lastUse[user] = state.tick
            guard state.lastUse.count > capacity else { return [] }
            let victims = state.lastUse.filter { $0.key != user }.sorted { $0.value < $1.value }
                .prefix(state.lastUse.count - capacity).map(\.key)
            for name in victims { state.lastUse[name] = nil }
            return victims.compactMap { state.users[$0] }
        }
    }

    func closed(_ user: String) {
        state.withLock { state in
            state.openCount -= 1
            state.lastUse[user] = nil
        }
    }
}
