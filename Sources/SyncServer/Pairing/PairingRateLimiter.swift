import NIOConcurrencyHelpers

/// Pairing attempts counted in this process's memory (`PairingAttempts`): the files store's
/// limit, which is the whole server's since one `serve` holds a data directory. Each scope keeps
/// the times of its attempts in the window; at most `maximumScopes` scopes are remembered (the
/// least recently used forgotten first), so a flood of addresses cannot grow memory without bound.
package final class PairingRateLimiter: PairingAttempts {
    let maximumScopes: Int
    private struct State {
        var attempts: [String: [(id: Int64, at: Int64)]] = [:]
        var nextID: Int64 = 1
    }
    private let state = NIOLockedValueBox(State())

    init(maximumScopes: Int = 10_000) {
        self.maximumScopes = maximumScopes
    }

    package func admit(_ scopes: [PairingScope], now: Int64) async throws -> PairingAttemptTicket {
        let outcome: Result<PairingAttemptTicket, SyncServerError> = state.withLockedValue { state in
            var waits: [Int64] = []
            for scope in scopes {
                let recent = (state.attempts[scope.key] ?? []).filter { $0.at > now - PairingScope.window }
                state.attempts[scope.key] = recent.isEmpty ? nil : recent
                if recent.count >= scope.allowed, let oldest = recent.first { waits.append(oldest.at + PairingScope.window - now) }
            }
            if let wait = waits.max() { return .failure(PairingRateLimiter.refusal(waitMilliseconds: wait)) }
            let id = state.nextID
            state.nextID += 1
            for scope in scopes {
                if state.attempts[scope.key] == nil, state.attempts.count >= maximumScopes {
                    let stale = state.attempts.min { ($0.value.last?.at ?? 0) < ($1.value.last?.at ?? 0) }?.key
                    if let stale { state.attempts[stale] = nil }
                }
                state.attempts[scope.key, default: []].append((id, now))
            }
            return .success(PairingAttemptTicket(scopes: scopes.map(\.key), id: id))
        }
        return try outcome.get()
    }

    package func forgive(_ ticket: PairingAttemptTicket) async {
        state.withLockedValue { state in
            for key in ticket.scopes {
                state.attempts[key]?.removeAll { $0.id == ticket.id }
                if state.attempts[key]?.isEmpty == true { state.attempts[key] = nil }
            }
        }
    }

    /// The 429 of an attempt over the limit: when to come back, never whose limit it is.
    package static func refusal(waitMilliseconds wait: Int64) -> SyncServerError {
        let seconds = Int((max(wait, 1) + 999) / 1000)
        return SyncServerError(.tooManyRequests, "too many pairing attempts; try again in \(seconds) s", retryAfter: max(1, seconds))
    }
}
