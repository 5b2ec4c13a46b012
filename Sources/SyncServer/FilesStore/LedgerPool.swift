import NIOConcurrencyHelpers

/// Every user's `UserLedger` (one per user generation, so one user's requests are serialised by
/// exactly one actor) and which of them hold an open ledger: at most `capacity`, the least
/// recently used closed first. A user deleted (and perhaps made again) by another process is
/// retired as soon as the token index sees it, so a re-created user never meets the old one's
/// open files, digests, claims or activity.
final class LedgerPool: Sendable {
    private struct State {
        var users: [String: UserLedger] = [:]
        /// Open ledgers by last use (a tick); evicted ones leave at once, before they close.
        var lastUse: [String: UInt64] = [:]
        var tick: UInt64 = 0
        var openCount = 0
    }

    let capacity: Int
    private let state = NIOLockedValueBox(State())

    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// The user's ledger of this generation, made when there is none; one of an older
    /// generation is returned in `retired` for the caller to close.
    func ledger(for user: String, generation: String, make: () -> UserLedger) -> (ledger: UserLedger, retired: UserLedger?) {
        state.withLockedValue { state in
            if let ledger = state.users[user], ledger.generation == generation { return (ledger, nil) }
            let old = state.users[user]
            if old != nil { state.lastUse[user] = nil }
            let ledger = make()
            state.users[user] = ledger
            return (ledger, old)
        }
    }

    /// Removes every user whose generation is not the one given (deleted users have none) and
    /// returns their ledgers for the caller to retire.
    func retire(keeping generations: [String: String]) -> [UserLedger] {
        state.withLockedValue { state in
            let gone = state.users.filter { generations[$0.key] != $0.value.generation }
            for name in gone.keys {
                state.users[name] = nil
                state.lastUse[name] = nil
            }
            return Array(gone.values)
        }
    }

    var all: [UserLedger] { state.withLockedValue { Array($0.users.values) } }

    /// Ledgers open now (tests check that start-up opens none).
    var openCount: Int { state.withLockedValue { $0.openCount } }

    func touch(_ user: String) {
        state.withLockedValue { state in
            guard state.lastUse[user] != nil else { return }
            state.tick += 1
            state.lastUse[user] = state.tick
        }
    }

    /// Notes that `user`'s ledger opened; returns the ledgers to close to stay within capacity.
    func opened(_ user: String) -> [UserLedger] {
        state.withLockedValue { state in
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

    func closed(_ ledger: UserLedger) {
        state.withLockedValue { state in
            state.openCount -= 1
            // A retired generation's entry is gone already (its successor may be in use).
            if state.users[ledger.user] === ledger { state.lastUse[ledger.user] = nil }
        }
    }
}
