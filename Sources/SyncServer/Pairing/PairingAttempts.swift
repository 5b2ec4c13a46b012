#if canImport(Glibc)
import Glibc
#endif

/// How many pairing attempts `POST /v1/pair` may evaluate (Schemas/sync-api.yaml `/v1/pair`):
/// every attempt is counted, in every scope it belongs to, *before* its code is looked up, and
/// atomically, so that a burst of concurrent requests cannot all pass one check before any is
/// counted. An attempt that pairs is forgiven; a wrong, used or expired code keeps counting for
/// the window. The files store counts in memory (one `serve` holds its data directory); the
/// PostgreSQL store counts in the database, so that several instances share one limit.
package protocol PairingAttempts: Sendable {
    /// Counts one attempt in each scope, or throws `.tooManyRequests` (with `Retry-After`) and
    /// counts nothing when a scope has used up its attempts in the window.
    func admit(_ scopes: [PairingScope], now: Int64) async throws -> PairingAttemptTicket
    /// The attempt paired: it no longer counts against its scopes.
    func forgive(_ ticket: PairingAttemptTicket) async
}

/// One limit an attempt counts against: its key and how many attempts it allows per window.
package struct PairingScope: Sendable, Hashable {
    package let key: String
    package let allowed: Int

    /// The window every scope counts over, in milliseconds.
    package static let window: Int64 = 60_000
    /// Attempts from one client address (an IPv6 one by its /64: one subscriber's network).
    package static let perAddress = 5
    /// Attempts from everywhere together: what many addresses together may try against the
    /// 40-bit code space (at 60 a minute, finding one of 100 live codes takes over 300 years on
    /// average); a flood from many addresses holds up pairing for everyone for up to a minute,
    /// never opens an account.
    package static let everywhere = 60

    package init(key: String, allowed: Int) {
        (self.key, self.allowed) = (key, allowed)
    }

    /// The scopes of an attempt from `address` (`TrustedProxies.client`).
    package static func scopes(address: String) -> [PairingScope] {
        [PairingScope(key: "address " + network(of: address), allowed: perAddress),
         PairingScope(key: "everywhere", allowed: everywhere)]
    }

    /// The address an attempt is counted under: an IPv4 address itself, an IPv6 one as its /64
    /// (`2001:db8:1:2::/64`), since one subscriber is given a whole /64 to pick addresses from.
    package static func network(of address: String) -> String {
        guard address.contains(":"), let bytes = IPv6Bytes(address) else { return address }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}

/// What `admit` counted, for `forgive`.
package struct PairingAttemptTicket: Sendable {
    package let scopes: [String]
    package let id: Int64

    package init(scopes: [String], id: Int64) {
        (self.scopes, self.id) = (scopes, id)
    }
}

/// The 16 bytes of an IPv6 address in any textual form (`inet_pton`); nil for anything else.
private func IPv6Bytes(_ text: String) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: 16)
    return inet_pton(AF_INET6, text, &bytes) == 1 ? bytes : nil
}
