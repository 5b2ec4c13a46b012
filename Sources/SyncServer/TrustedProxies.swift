import Foundation
import NIOCore

/// Who a request comes from, for the pairing route's rate limit (`PairingRateLimiter`). Behind a
/// reverse proxy every connection comes from the proxy, so `serve --trusted-proxy ADDRESS` names
/// the proxies whose `X-Forwarded-For` is believed: for a connection from one of them the client
/// is the rightmost address of that header that is not itself a trusted proxy (each proxy appends
/// the address it was reached from, so only entries left of that one can be forged). A
/// connection from anywhere else is its own client, whatever it sends (docs/server.md "Behind a
/// TLS-terminating reverse proxy").
package struct TrustedProxies: Sendable {
    private let addresses: Set<String>

    /// `addresses` in any textual form `canonical` reads; throws the first that is not an IP
    /// address.
    package init(_ addresses: [String]) throws(NotAnAddress) {
        var canonical = Set<String>()
        for text in addresses {
            guard let address = Self.canonical(text) else { throw NotAnAddress(text: text) }
            canonical.insert(address)
        }
        self.addresses = canonical
    }

    /// No proxy is trusted: every connection is its own client.
    package static let none = TrustedProxies(canonical: [])

    private init(canonical: Set<String>) {
        addresses = canonical
    }

    package struct NotAnAddress: Error {
        package let text: String
    }

    /// The client of a request from `peer` (nil: the channel has no address) carrying the
    /// `X-Forwarded-For` header lines `forwardedFor`, in their order.
    package func client(peer: SocketAddress?, forwardedFor: [String]) -> String {
        guard let peer = peer?.ipAddress else { return "unknown" }
        let peerAddress = Self.canonical(peer) ?? peer
        guard addresses.contains(peerAddress) else { return peerAddress }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
        for hop in hops.reversed() {
            // An entry the trusted proxy wrote that is not an address: believe nothing left of it.
            guard let address = Self.canonical(String(hop)) else { return peerAddress }
            if !addresses.contains(address) { return address }
        }
        return peerAddress
    }

    /// One textual form per IP address (as the C library prints it; an IPv4-mapped IPv6 address,
    /// as a dual-stack listener sees IPv4 peers, as the IPv4 one), also from the forms proxies
    /// write: surrounding spaces, `[v6]`, `[v6]:port` and `v4:port`. Nil for anything else.
    package static func canonical(_ text: String) -> String? {
        var host = Substring(text.trimmingCharacters(in: .whitespaces))
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber) && rest.count > 1) else { return nil }
            host = host[host.index(after: host.startIndex)..<close]
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            let port = host[host.index(after: colon)...]
            guard !port.isEmpty, port.allSatisfy(\.isNumber) else { return nil }
            host = host[..<colon]
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) else { return nil }
        guard let address = (try? SocketAddress(ipAddress: String(host), port: 0))?.ipAddress else { return nil }
        let mapped = "::ffff:"
        if address.hasPrefix(mapped), address.contains(".") { return String(address.dropFirst(mapped.count)) }
        return address
    }
}
