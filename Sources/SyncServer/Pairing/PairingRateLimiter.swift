import NIOConcurrencyHelpers

/// Wrong pairing codes per client address: at most `allowed` in any `window`, then 429 with
/// `Retry-After` until the oldest of them leaves the window. A code has 40 random bits, so at
/// this rate guessing one that is alive (10 minutes by default) is hopeless; the limit also keeps
/// one address from filling the log. At most `maximumAddresses` are remembered (the oldest
/// forgotten first), so a flood of addresses cannot grow memory without bound.
final class PairingRateLimiter: Sendable {
    let allowed: Int
    let window: Int64
    let maximumAddresses: Int
    private let failures = NIOLockedValueBox<[String: [Int64]]>([:])

    init(allowed: Int = 5, windowMilliseconds: Int64 = 60_000, maximumAddresses: Int = 10_000) {
        self.allowed = allowed
        self.window = windowMilliseconds
        self.maximumAddresses = maximumAddresses
    }

    /// Throws 429 when `address` has used up its wrong tries.
    func check(_ address: String, now: Int64) throws {
        let wait: Int64? = failures.withLockedValue { failures in
            let recent = (failures[address] ?? []).filter { $0 > now - window }
            failures[address] = recent.isEmpty ? nil : recent
            guard recent.count >= allowed, let oldest = recent.first else { return nil }
            return oldest + window - now
        }
        if let wait {
            let seconds = Int((wait + 999) / 1000)
            throw SyncServerError(.tooManyRequests, "too many wrong pairing codes from this address; try again in \(seconds) s",
                                  retryAfter: max(1, seconds))
        }
    }

    /// Notes one wrong code from `address`.
    func fail(_ address: String, now: Int64) {
        failures.withLockedValue { failures in
            if failures[address] == nil, failures.count >= maximumAddresses {
                let stale = failures.min { ($0.value.last ?? 0) < ($1.value.last ?? 0) }?.key
                if let stale { failures[stale] = nil }
            }
            failures[address, default: []].append(now)
        }
    }
}
