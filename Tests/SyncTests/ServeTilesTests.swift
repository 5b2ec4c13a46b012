import Foundation
import LedgerTestSupport
import NIOHTTP1
import Testing

/// `serve --tiles URL_TEMPLATE [--tiles-attribution TEXT]` (Schemas/sync-api.yaml
/// `/app/config.json`): what the app is told, the CSP that admits the tiles' origin and no other,
/// and the templates refused before anything is made, through the built binary on both stores.
@Suite("serve --tiles: the app's configuration and its CSP")
struct ServeTilesTests {
    static func config(_ server: ServerProcess) async throws -> ([String: Any], HTTPHeaders) {
        let (status, headers, body) = try await PhoneAppServingTests.get(server.url + "/app/config.json")
        #expect(status == 200 && headers["Content-Type"].first == "application/json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) as? [String: Any])
        return (object, headers)
    }

    static func sources(_ csp: String, _ directive: String) -> [String] {
        let part = csp.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(directive + " ") }
        return part.map { $0.split(separator: " ").dropFirst().map(String.init) } ?? []
    }

    @Test("without --tiles the app is told none and the CSP admits only the server", arguments: StoreKind.allCases)
    func noTiles(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("no-tiles")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let server = try await store.serve()
        defer { server.terminate() }
        let (config, headers) = try await Self.config(server)
        #expect(config.keys.sorted() == ["tiles"] && config["tiles"] is NSNull, "\(config)")
        let csp = try #require(headers["Content-Security-Policy"].first)
        #expect(Self.sources(csp, "img-src") == ["'self'", "data:"])
        #expect(Self.sources(csp, "connect-src") == ["'self'"])
    }

    @Test("with --tiles the app is told the template and credit, and the CSP admits that origin only", arguments: StoreKind.allCases)
    func tilesOffered(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("tiles")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let template = "https://Tiles.Example:8443/osm/{z}/{x}/{y}.png?key=abc"
        let server = try await store.serve(["server", "serve", "--tiles", template, "--tiles-attribution", "© テスト地図の寄稿者"])
        defer { server.terminate() }
        let (config, _) = try await Self.config(server)
        let tiles = try #require(config["tiles"] as? [String: Any])
        #expect(tiles["url_template"] as? String == template)
        #expect(tiles["attribution"] as? String == "© テスト地図の寄稿者")
        for path in ["/app/", "/app/js/main.js", "/app/config.json"] {
            let (_, headers, _) = try await PhoneAppServingTests.get(server.url + path)
            let csp = try #require(headers["Content-Security-Policy"].first)
            #expect(Self.sources(csp, "img-src") == ["'self'", "data:", "https://tiles.example:8443"], "\(path): \(csp)")
            #expect(Self.sources(csp, "connect-src") == ["'self'", "https://tiles.example:8443"], "\(path): \(csp)")
            #expect(Self.sources(csp, "script-src") == ["'self'"], "\(path): tiles never run script")
        }

        // Without --tiles-attribution the credit is the template's host (one serve per store).
        #expect(await server.stop() == 0)
        let plain = try await store.serve(["server", "serve", "--tiles", "http://127.0.0.1:9/{z}/{x}/{y}.png"])
        defer { plain.terminate() }
        let (plainConfig, plainHeaders) = try await Self.config(plain)
        #expect((plainConfig["tiles"] as? [String: Any])?["attribution"] as? String == "127.0.0.1")
        #expect(Self.sources(try #require(plainHeaders["Content-Security-Policy"].first), "img-src").last == "http://127.0.0.1:9")
    }

    @Test("a bad template or credit is refused in one sentence, exit 64, and nothing is made", arguments: [
        (["--tiles", "ftp://tiles.example/{z}/{x}/{y}.png"], "is not an http:// or https:// URL"),
        (["--tiles", "/tiles/{z}/{x}/{y}.png"], "is not an http:// or https:// URL"),
        (["--tiles", "https://tiles.example/{z}/{x}.png"], "has no {y}"),
        (["--tiles", "https://tiles.example/{z}/{x}/{y}.png; script-src *"], "holds a space"),
        (["--tiles", "https://a.example/{z}/{x}/{y}.png'"], "holds a space"),
        (["--tiles", "https://user@tiles.example/{z}/{x}/{y}.png"], "is not an http:// or https:// URL"),
        (["--tiles", "https://tiles.example/{z}/{x}/{y}.png", "--tiles-attribution", ""], "--tiles-attribution must be 1 to 200"),
        (["--tiles", "https://tiles.example/{z}/{x}/{y}.png", "--tiles-attribution", "a\u{7}b"], "--tiles-attribution must be 1 to 200"),
        (["--tiles-attribution", "© somebody"], "--tiles-attribution needs --tiles"),
    ])
    func refused(arguments: [String], reason: String) async throws {
        let dir = try TemporaryDirectory("tiles-refused")
        defer { dir.remove() }
        let data = dir.path + "/data"
        let result = try await CLI.run(["server", "serve", "--data", data, "--port", "0"] + arguments, environment: [:])
        #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
        #expect(result.stderr.contains(reason), "\(arguments): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count <= 2, "one sentence (and the usage hint): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data), "\(arguments): a refused start makes no data directory")
    }
}
