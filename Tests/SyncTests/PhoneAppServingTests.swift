import AsyncHTTPClient
import Crypto
import Foundation
import LedgerTestSupport
import NIOCore
import NIOHTTP1
import SyncServer
import Testing

/// What `server serve` gives the phone app (Schemas/sync-api.yaml): its files at /app/ from the
/// executable, the catalogue document, and pairing with a one-time code, through the built
/// binary on both stores.
@Suite("The phone app's server side on both stores")
struct PhoneAppServingTests {
    /// (status, headers, body) of a GET with extra headers.
    static func get(_ url: String, token: String? = nil, headers extra: [(String, String)] = []) async throws -> (Int, HTTPHeaders, [UInt8]) {
        var request = HTTPClientRequest(url: url)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        // No redirect following and no decompression: the test sees what the server sent.
        let response = try await noRedirects.execute(request, timeout: .seconds(120))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return (Int(response.status.code), response.headers, Array(bytes.readableBytesView))
    }

    static let noRedirects = HTTPClient(configuration: .init(redirectConfiguration: .disallow))

    @Test("every file of Sources/WebApp/app is embedded, and nothing else")
    func embeddedFilesMatchTheFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/WebApp/app")
        let keys: Set<URLResourceKey> = [.isRegularFileKey, .isSymbolicLinkKey]
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: Array(keys)))
        var files: [String] = []
        // A link is embedded as the file it points to (js/mapCore.js is the report's mapCore.js).
        for case let url as URL in enumerator {
            let values = try url.resourceValues(forKeys: keys)
            guard values.isRegularFile == true || values.isSymbolicLink == true else { continue }
            let path = String(url.path.dropFirst(folder.path.count + 1))
            if !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { files.append(path) }
        }
        #expect(WebAppAssets.paths == files.sorted(), "the build embeds every file of the folder (the EmbedFolders plugin)")
        var onDisk: [(path: String, bytes: [UInt8])] = []
        for path in files.sorted() {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(path)))
            onDisk.append((path, bytes))
            guard path != "sw.js" else { continue }
            #expect(WebAppAssets.bytes(path) == bytes, "\(path): the embedded copy is not the folder's")
        }
        // The service worker is served with its version written from the other files: the same
        // digest computed here from the folder, with nothing else of the file changed.
        let digest = SHA256.hash(data: onDisk.filter { $0.path != "sw.js" }.flatMap { Array($0.path.utf8) + [0] + $0.bytes + [0] })
        let expected = digest.prefix(6).map { String(format: "%02x", $0) }.joined()
        let source = String(decoding: try #require(onDisk.first { $0.path == "sw.js" }).bytes, as: UTF8.self)
        #expect(source.contains("const VERSION = 'unstamped';"))
        let served = String(decoding: try #require(WebAppAssets.bytes("sw.js")), as: UTF8.self)
        #expect(served == source.replacingOccurrences(of: "const VERSION = 'unstamped';", with: "const VERSION = '\(expected)';"))
    }

    @Test("/ and /app redirect to /app/, which serves the app with a strict CSP, ETags and gzip", arguments: StoreKind.allCases)
    func appFiles(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("app-files")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let server = try await store.serve()
        defer { server.terminate() }

        for path in ["/", "/app"] {
            let (status, headers, _) = try await Self.get(server.url + path)
            #expect(status == 302 && headers["Location"].first == "/app/", "\(kind) \(path): \(status)")
        }
        let (status, headers, body) = try await Self.get(server.url + "/app/")
        #expect(status == 200)
        #expect(headers["Content-Type"].first?.hasPrefix("text/html") == true)
        let csp = try #require(headers["Content-Security-Policy"].first)
        #expect(csp.contains("default-src 'self'") && csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))
        let html = String(decoding: body, as: UTF8.self)
        #expect(html.contains("manifest.webmanifest"))
        #expect(!html.contains("<script>") && !html.contains("http://") && !html.contains("https://"), "no inline script, nothing from another origin")

        let etag = try #require(headers["ETag"].first)
        let (again, _, empty) = try await Self.get(server.url + "/app/", headers: [("If-None-Match", etag)])
        #expect(again == 304 && empty.isEmpty)

        let (js, jsHeaders, _) = try await Self.get(server.url + "/app/sw.js", headers: [("Accept-Encoding", "gzip")])
        #expect(js == 200 && jsHeaders["Content-Encoding"].first == "gzip")
        #expect(jsHeaders["Content-Type"].first?.hasPrefix("text/javascript") == true)

        let (manifest, _, manifestBody) = try await Self.get(server.url + "/app/manifest.webmanifest")
        let object = try JSONSerialization.jsonObject(with: Data(manifestBody)) as? [String: Any]
        #expect(manifest == 200 && object?["name"] as? String == "降りつぶし" && object?["display"] as? String == "standalone")
        #expect((object?["icons"] as? [[String: Any]])?.isEmpty == false)

        let (missing, _, _) = try await Self.get(server.url + "/app/no-such-file.js")
        #expect(missing == 404)
    }

    @Test("/v1/catalog needs a token, is the catalogue document, gzip on the wire, 304 when unchanged", arguments: StoreKind.allCases)
    func catalogueDocument(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("app-catalog")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try await store.addUser("alice")
        let server = try await store.serve()
        defer { server.terminate() }

        let (anonymous, _, _) = try await Self.get(server.url + "/v1/catalog")
        #expect(anonymous == 401)
        let (status, headers, body) = try await Self.get(server.url + "/v1/catalog", token: token)
        #expect(status == 200)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect(document["version"] as? Int == 176)
        let stations = try #require(document["stations"] as? [[String: Any]])
        #expect(stations.count > 9_000)
        let shinjuku = try #require(stations.first { $0["id"] as? Int == 202_758 })
        #expect(shinjuku["name"] as? String == "新宿駅" && shinjuku["yomi"] as? String == "しんじゅく" && shinjuku["pref"] as? Int == 13)
        for key in ["lat", "lng", "weight", "operator", "lines", "enabled"] { #expect(shinjuku[key] != nil, "station key \(key)") }

        let etag = try #require(headers["ETag"].first)
        let (gzipped, gzipHeaders, gzipBody) = try await Self.get(server.url + "/v1/catalog", token: token,
                                                                 headers: [("Accept-Encoding", "gzip")])
        #expect(gzipped == 200 && gzipHeaders["Content-Encoding"].first == "gzip" && gzipBody.count * 3 < body.count,
                "gzip: \(gzipBody.count) of \(body.count) bytes")
        let (unchanged, _, _) = try await Self.get(server.url + "/v1/catalog", token: token, headers: [("If-None-Match", etag)])
        #expect(unchanged == 304)
    }

    @Test("server pair: the code works once for a new named token; used 410, unknown 401, many wrong 429", arguments: StoreKind.allCases)
    func pairing(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("app-pair")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let laptop = try await store.addUser("alice")
        let server = try await store.serve()
        defer { server.terminate() }

        let printed = try await store.server("pair", "alice", "--url", server.url)
        printed.expectSuccess()
        let lines = printed.stdout.split(separator: "\n").map(String.init)
        let grouped = try #require(lines.first { $0.firstMatch(of: /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/) != nil },
                                   "the code, grouped: \(printed.stdout)")
        let link = try #require(lines.last)
        #expect(link == "\(server.url)/app/#pair=\(grouped.replacingOccurrences(of: "-", with: ""))")

        func pair(_ code: String, _ device: String = "iPhone Safari") async throws -> (Int, HTTPHeaders, [String: Any]) {
            let body = try JSONSerialization.data(withJSONObject: ["code": code, "device_name": device])
            let (status, headers, bytes) = try await testRequest(.POST, server.url + "/v1/pair", token: nil, json: Array(body))
            return (status, headers, (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:])
        }
        // Typed in lower case with a space instead of the dash: still the code.
        let (ok, _, answer) = try await pair(grouped.lowercased().replacingOccurrences(of: "-", with: " "))
        #expect(ok == 200 && answer["user"] as? String == "alice")
        let token = try #require(answer["token"] as? String)
        let (status, _, _) = try await testRequest(.GET, server.url + "/v1/status", token: token, json: nil)
        #expect(status == 200, "the paired token works")

        let (used, _, usedBody) = try await pair(grouped)
        #expect(used == 410 && usedBody["error"] as? String == "gone", "\(usedBody)")
        let (unknown, _, unknownBody) = try await pair("ZZZZ-ZZZZ")
        #expect(unknown == 401 && (unknownBody["message"] as? String)?.isEmpty == false)

        let users = try await store.server("users", "--json")
        users.expectSuccess()
        #expect(users.stdout.contains("\"device\":\"iPhone Safari\""), "\(users.stdout)")

        // The limit is 5 wrong codes a minute. While the whole suite runs, this process may wait
        // many seconds between two sequential requests (six once spanned more than the minute in
        // TrustedProxyTests), so the wrong codes go at once, in up to three rounds.
        let url = server.url + "/v1/pair"
        let wrong: @Sendable () async throws -> (status: Int, retryAfter: Int?, error: String?) = {
            let body = try JSONSerialization.data(withJSONObject: ["code": "0000-0000", "device_name": "iPhone Safari"])
            let (status, headers, bytes) = try await testRequest(.POST, url, token: nil, json: Array(body))
            let error = ((try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any])?["error"] as? String
            return (status, headers["Retry-After"].first.flatMap { Int($0) }, error)
        }
        var limited: (status: Int, retryAfter: Int?, error: String?)?
        for _ in 0..<3 where limited == nil {
            let results = try await withThrowingTaskGroup(of: (status: Int, retryAfter: Int?, error: String?).self) { group in
                for _ in 0..<6 { group.addTask { try await wrong() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.allSatisfy { $0.status == 401 || $0.status == 429 }, "\(results.map(\.status))")
            limited = results.first { $0.status == 429 }
        }
        let refusal = try #require(limited, "wrong codes are never rate-limited")
        #expect((refusal.retryAfter ?? 0) >= 1)
        #expect(refusal.error == "too_many_requests")

        let revoked = try await store.server("revoke-token", "alice", "--device", "iPhone Safari")
        revoked.expectSuccess()
        let (after, _, _) = try await testRequest(.GET, server.url + "/v1/status", token: token, json: nil)
        #expect(after == 401, "revoke-token --device revokes the phone's token")
        let (others, _, _) = try await testRequest(.GET, server.url + "/v1/status", token: laptop, json: nil)
        #expect(others == 200, "and leaves the user's other tokens working")
        let again = try await store.server("revoke-token", "alice", "--device", "iPhone Safari")
        #expect(again.status == 64, "\(again.stderr)")
    }

    @Test("an expired pairing code is refused with 410 and makes no token", arguments: StoreKind.allCases)
    func expiredCode(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        _ = try await fixture.addUser("alice")
        let code = PairingCode.random()
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await fixture.admin.addPairingCode(user: "alice", code: code, now: now - 700_000, expires: now - 100_000)
        let (status, body) = try await fixture.server.call(.POST, "/v1/pair", token: nil, ["code": code.grouped, "device_name": "Pixel"])
        #expect(status == 410 && body["error"] as? String == "gone", "\(kind): \(body)")
        #expect((body["message"] as? String)?.contains("expired") == true, "\(body)")
        let users = try await fixture.admin.users()
        #expect(users.first?.tokens.count == 1, "\(kind): no token was made")
        await fixture.stop()
    }

    @Test("server pair refuses an unknown user and a bad --ttl, and writes nothing", arguments: StoreKind.allCases)
    func pairRefusals(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("app-pair-refusals")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let unknown = try await store.server("pair", "nobody")
        #expect(unknown.status == 64 && unknown.stderr.contains("nobody"), "\(unknown.stderr)")
        for ttl in ["0", "5s", "8d", "ten", "-1m"] {
            let bad = try await store.server("pair", "nobody", "--ttl", ttl)
            #expect(bad.status == 64 && bad.stderr.contains("--ttl"), "\(ttl): \(bad.stderr)")
        }
    }
}
