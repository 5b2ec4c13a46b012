import Foundation
import LedgerTestSupport
import NIOCore
import NIOHTTP1
import SyncServer
import Testing

/// `serve --trusted-proxy`: behind a reverse proxy the pairing rate limit counts each phone, not
/// the proxy (docs/server.md "Behind a TLS-terminating reverse proxy").
@Suite("Trusted proxies and X-Forwarded-For")
struct TrustedProxyTests {
    @Test("the client is the rightmost untrusted X-Forwarded-For entry, for a trusted peer only", arguments: [
        (["127.0.0.1"], ["203.0.113.5"], "203.0.113.5"),
        (["127.0.0.1"], ["198.51.100.1, 203.0.113.5"], "203.0.113.5"),       // the left one may be forged
        (["127.0.0.1"], ["198.51.100.1", "203.0.113.5"], "203.0.113.5"),     // two header lines, in order
        (["127.0.0.1", "10.0.0.2"], ["203.0.113.5, 10.0.0.2"], "203.0.113.5"),  // a chain of proxies
        (["127.0.0.1"], ["2001:DB8:0:0::1"], "2001:db8::1"),
        (["127.0.0.1"], ["[2001:db8::1]:443"], "2001:db8::1"),
        (["127.0.0.1"], ["203.0.113.5:4711"], "203.0.113.5"),
        (["::ffff:127.0.0.1"], ["::FFFF:203.0.113.5"], "203.0.113.5"),      // IPv4-mapped is IPv4
        (["127.0.0.1"], [], "127.0.0.1"),                                    // no header: the proxy itself
        (["127.0.0.1"], ["198.51.100.1, unknown"], "127.0.0.1"),             // garbage where the proxy wrote
        ([], ["203.0.113.5"], "127.0.0.1"),                                  // no trusted proxy: ignored
        (["10.0.0.2"], ["203.0.113.5"], "127.0.0.1"),                        // this peer is not trusted
    ] as [([String], [String], String)])
    func client(trusted: [String], forwardedFor: [String], expected: String) throws {
        let peer = try SocketAddress(ipAddress: "127.0.0.1", port: 50_000)
        #expect(try TrustedProxies(trusted).client(peer: peer, forwardedFor: forwardedFor) == expected)
    }

    @Test("--trusted-proxy takes an IP address, nothing else (exit 64)", arguments: ["proxy.example.org", "127.0.0.1/8", "", "1.2.3"])
    func refusesNonAddresses(_ text: String) async throws {
        let dir = try TemporaryDirectory("trusted-proxy-bad")
        defer { dir.remove() }
        let result = try await CLI.run(["server", "serve", "--data", dir.sub("data"), "--port", "0", "--trusted-proxy", text], environment: [:])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--trusted-proxy '\(text)' is not an IP address"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.sub("data")), "nothing was made")
    }

    @Test("wrong pairing codes are counted per forwarded client behind a trusted proxy, per connection otherwise",
          arguments: [true, false])
    func rateLimitPerClient(trusted: Bool) async throws {
        let dir = try TemporaryDirectory("trusted-proxy")
        defer { dir.remove() }
        let data = dir.sub("data")
        _ = try CommandLineStore.token(try await CLI.run(["server", "add-user", "alice", "--data", data], environment: [:]))
        let server = try await ServerProcess(storeArguments: ["--data", data],
                                       command: ["server", "serve"] + (trusted ? ["--trusted-proxy", "127.0.0.1"] : []))
        defer { server.terminate() }
        let url = server.url + "/v1/pair"
        let pair: @Sendable (_ client: String) async throws -> (status: Int, retryAfter: Int?) = { client in
            let body = try JSONSerialization.data(withJSONObject: ["code": "0000-0000", "device_name": "phone"])
            let (status, headers, _) = try await testRequest(.POST, url, token: nil, json: Array(body),
                                                             headers: [("X-Forwarded-For", client)])
            return (status, headers.first(name: "retry-after").flatMap { Int($0) })
        }
        // The limit is 5 wrong codes in a minute. While the whole suite runs, this process may
        // wait many seconds between two of its steps (CI once saw six sequential tries span
        // more than a minute), so the five go at once and reach the server within moments.
        var retryAfter: Int?, asked = Date()
        for _ in 0..<3 where retryAfter == nil {
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<5 { group.addTask { try await pair("203.0.113.5").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == 401 || $0 == 429 }, "\(statuses)")
            // Taken before the request: the server's Retry-After counts from no earlier moment.
            asked = Date()
            let next = try await pair("203.0.113.5")
            if next.status == 429 {
                #expect(next.retryAfter != nil, "429 without Retry-After")
                retryAfter = next.retryAfter ?? 0
            }
        }
        let limitLasts = try #require(retryAfter, "five wrong codes from one client were never limited")
        // Another phone behind the same proxy: its own count when the proxy is trusted; the
        // proxy's (still limited, unless the minute ran out meanwhile) when it is not.
        let other = try await pair("203.0.113.6").status
        if trusted {
            #expect(other == 401)
        } else {
            #expect(other == 429 || Date().timeIntervalSince(asked) >= Double(limitLasts), "\(other)")
        }
    }
}
