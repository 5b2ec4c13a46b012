import Foundation
import LedgerTestSupport
import NIOHTTP1
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `serve` refuses to start where it cannot serve, and one client cannot hold the server's
/// connections (docs/server.md, "Connections, timeouts and the data directory"), through the built
/// binary.
@Suite("serve: start-up refusals, timeouts, permissions")
struct ServeOperabilityTests {
    @Test("a second serve on the same data directory exits 75 naming the holder; the first keeps serving")
    func secondServeRefused() async throws {
        let dir = try TemporaryDirectory("serve-lock")
        defer { dir.remove() }
        let first = try await ServerProcess(data: dir.sub("data"))
        defer { first.terminate() }
        let second = try await CLI.run(["server", "serve", "--data", dir.sub("data"), "--port", "0"], environment: [:])
        #expect(second.status == 75, "\(second.stderr)")
        #expect(second.stderr.contains("already serves the data directory") && second.stderr.contains("pid"), "\(second.stderr)")
        let (health, _, _) = try await testRequest(.GET, first.url + "/v1/health", token: nil, json: nil)
        #expect(health == 200)
    }

    @Test("the data directory is 0700 and its files 0600")
    func privateFiles() async throws {
        let dir = try TemporaryDirectory("serve-modes")
        defer { dir.remove() }
        let (data, token, server) = try await Self.serveAlice(in: dir)
        defer { server.terminate() }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let (status, _, _) = try await testRequest(.POST, server.url + "/v1/push", token: token,
                                                   json: try Wire.push([Wire.edit(1, hlcMilliseconds: now - 1000)]))
        #expect(status == 200)
        let enumerator = try #require(FileManager.default.enumerator(atPath: data))
        var checked = 0
        for case let path as String in enumerator {
            let attributes = try FileManager.default.attributesOfItem(atPath: data + "/" + path)
            let mode = (attributes[.posixPermissions] as? Int ?? 0) & 0o777
            let isDirectory = attributes[.type] as? FileAttributeType == .typeDirectory
            #expect(mode & 0o077 == 0, "\(path) is \(String(mode, radix: 8)): readable by others")
            #expect(!isDirectory || mode == 0o700, "\(path)")
            checked += 1
        }
        #expect(checked >= 4, "users.json, LOCK, ledgers/alice and its files")
        let top = try FileManager.default.attributesOfItem(atPath: data)[.posixPermissions] as? Int ?? 0
        #expect(top & 0o777 == 0o700)
    }

    @Test("a connection that never completes its request head is closed after --header-timeout; an idle one after --idle-timeout")
    func slowConnectionsAreClosed() async throws {
        let dir = try TemporaryDirectory("serve-timeouts")
        defer { dir.remove() }
        let server = try await ServerProcess(storeArguments: ["--data", dir.sub("data")],
                                       command: ["server", "serve", "--header-timeout", "1", "--idle-timeout", "2"])
        defer { server.terminate() }
        // A timeout of S closes between S and S + 2 s (the product's promise; the test's reads
        // hold no cooperative thread, so a loaded suite does not stretch them).
        let opened = ContinuousClock.now
        let slow = try RawConnection(port: server.port)
        try slow.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  // never finished
        #expect(await slow.waitForClose(seconds: 3), "a half-sent head holds the connection past --header-timeout 1 + 2 s")
        let headClosed = ContinuousClock.now - opened
        #expect(headClosed >= .milliseconds(950) && headClosed < .seconds(3), "closed after \(headClosed)")

        let idle = try RawConnection(port: server.port)
        let asked = ContinuousClock.now
        try idle.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answered = await idle.readUntilClose(seconds: 4)
        let idleClosed = ContinuousClock.now - asked
        #expect(answered.closed && answered.text.hasPrefix("HTTP/1.1 200"), "an idle keep-alive connection is held past --idle-timeout 2 + 2 s")
        #expect(idleClosed >= .milliseconds(1950) && idleClosed < .seconds(4), "closed after \(idleClosed)")
    }

    @Test("CONNECT gets 405 with Allow and the connection closed; a method the parser refuses gets 400 with a JSON body")
    func unroutableMethods() async throws {
        let dir = try TemporaryDirectory("serve-methods")
        defer { dir.remove() }
        let server = try await ServerProcess(data: dir.sub("data"))
        defer { server.terminate() }
        let connect = try RawConnection(port: server.port)
        try connect.send("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
        let tunnel = await connect.readUntilClose(seconds: 5)
        #expect(tunnel.closed, "the client of a CONNECT waits for an answer that never ends")
        #expect(tunnel.text.hasPrefix("HTTP/1.1 405"), "\(tunnel.text)")
        #expect(tunnel.text.lowercased().contains("allow: get, post"), "\(tunnel.text)")

        let unknown = try RawConnection(port: server.port)
        try unknown.send("FOO /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let refused = await unknown.readUntilClose(seconds: 5)
        #expect(refused.closed)
        #expect(refused.text.hasPrefix("HTTP/1.1 400"), "\(refused.text)")
        let body = refused.text.components(separatedBy: "\r\n\r\n").last ?? ""
        #expect(refused.text.lowercased().contains("content-length: \(body.utf8.count)"), "\(refused.text)")
        #expect(body.contains(#""error":"malformed""#), "\(refused.text)")

        let (health, _, _) = try await testRequest(.GET, server.url + "/v1/health", token: nil, json: nil)
        #expect(health == 200)
    }

    @Test("HTTP/1.0 without keep-alive is closed after its answer; with keep-alive, or HTTP/1.1, it stays open")
    func http10IsClosedAfterItsAnswer() async throws {
        let dir = try TemporaryDirectory("serve-http10")
        defer { dir.remove() }
        let server = try await ServerProcess(data: dir.sub("data"))
        defer { server.terminate() }
        let port = server.port
        let plainConnection = try RawConnection(port: port)
        try plainConnection.send("GET /v1/health HTTP/1.0\r\n\r\n")
        let keptConnection = try RawConnection(port: port)
        try keptConnection.send("GET /v1/health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let currentConnection = try RawConnection(port: port)
        try currentConnection.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // The close is due with the answer: 2 s is the bound, far below the 30-s idle timeout.
        let plain = await plainConnection.readUntilClose(seconds: 2)
        let kept = await keptConnection.readUntilClose(seconds: 2)
        let current = await currentConnection.readUntilClose(seconds: 2)
        #expect(plain.closed && plain.text.contains(" 200 "), "HTTP/1.0: \(plain)")
        #expect(!kept.closed && kept.text.contains(" 200 "), "HTTP/1.0 keep-alive: \(kept)")
        #expect(!current.closed && current.text.contains(" 200 "), "HTTP/1.1: \(current)")
    }

    @Test("server users shows a push within the documented 5 s, and the time survives SIGKILL")
    func activitySurvivesKill() async throws {
        let dir = try TemporaryDirectory("serve-activity")
        defer { dir.remove() }
        let (data, token, server) = try await Self.serveAlice(in: dir)
        defer { server.terminate() }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var (status, _, _) = try await testRequest(.POST, server.url + "/v1/push", token: token,
                                                   json: try Wire.push([Wire.edit(1, hlcMilliseconds: now - 5000)]))
        #expect(status == 200)
        try await Task.sleep(for: .seconds(1))
        let second = Int64(Date().timeIntervalSince1970 * 1000)
        (status, _, _) = try await testRequest(.POST, server.url + "/v1/push", token: token,
                                               json: try Wire.push([Wire.edit(2, hlcMilliseconds: now - 4000)]))
        #expect(status == 200)
        // The second push is written by 5 s after the first: checked at 6 s.
        try await Task.sleep(for: .seconds(5))
        await server.kill()
        let users = try await CLI.run(["server", "users", "--json", "--data", data], environment: [:])
        users.expectSuccess()
        let object = try JSONSerialization.jsonObject(with: Data(users.stdout.utf8)) as? [String: Any]
        let alice = (object?["users"] as? [[String: Any]])?.first
        let lastPush = (alice?["last_push"] as? String).flatMap { ISO8601DateFormatter().date(from: $0.replacingOccurrences(of: #"\.\d+"#, with: "", options: .regularExpression)) }
        #expect(lastPush.map { $0.timeIntervalSince1970 * 1000 >= Double(second - 1000) } == true, "\(users.stdout)")
    }

    @Test("a client that disconnects in the middle of a body is not counted as 413")
    func disconnectIsNotTooLarge() async throws {
        let dir = try TemporaryDirectory("serve-disconnect")
        defer { dir.remove() }
        let (_, token, server) = try await Self.serveAlice(in: dir)
        defer { server.terminate() }
        let cut = try RawConnection(port: server.port)
        try cut.send("POST /v1/push HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{\"records\":[")
        cut.close()
        try await Task.sleep(for: .milliseconds(500))
        let (_, _, metrics) = try await testRequest(.GET, server.url + "/metrics", token: nil, json: nil)
        let text = String(decoding: metrics, as: UTF8.self)
        #expect(!text.contains("status=\"413\""), "a disconnect was counted as 413")
        #expect(!server.log.contains("status=413"), "\(server.log)")  // (a port may hold the digits 413)
    }

    @Test("a PostgreSQL port where nothing listens fails serve and server commands at once, exit 69 naming the cause")
    func unreachableDatabase() async throws {
        let url = "postgres://postgres@127.0.0.1:9/nothing"  // the discard port: nothing listens
        for command in [["server", "users", "--store", url], ["server", "serve", "--store", url, "--port", "0"]] {
            let started = Date()
            // The product's deadline, whatever the suite's environment sets for its own stores.
            let result = try await CLI.run(command, environment: ["ORITSUBUSHI_PG_START_TIMEOUT": "10"])
            #expect(result.status == 69, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("cannot use the PostgreSQL store"), "\(result.stderr)")
            #expect(result.stderr.contains("127.0.0.1:9 was refused"), "named as itself, not as a timeout: \(result.stderr)")
            // Refused at once; within 15 s in any case (the 10-s deadline's promise, not the pool's minute).
            #expect(Date().timeIntervalSince(started) < 15, "\(command) took \(Date().timeIntervalSince(started)) s")
        }
    }

    @Test("serve --data NEWDIR on a port in use exits 69 and leaves no new directory behind")
    func busyPortLeavesNothing() async throws {
        let dir = try TemporaryDirectory("serve-busy-port")
        defer { dir.remove() }
        let holder = try await ServerProcess(data: dir.sub("held"))
        defer { holder.terminate() }
        let fresh = dir.sub("fresh")
        let port = holder.port
        let result = try await CLI.run(["server", "serve", "--data", fresh, "--port", "\(port)"], environment: [:])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fresh), "a failed start left \(fresh) behind")
    }

    @Test("a refused database login (SQLSTATE class 28) is reported at once as itself, exit 69")
    func refusedLogin() async throws {
        try TestPostgres.require()
        let database = try await TestPostgres.database()
        let url = try #require(URLComponents(string: database.url))
        var stranger = url
        stranger.user = "nobody_at_all"
        let started = Date()
        let result = try await CLI.run(["server", "users", "--store", try #require(stranger.string)], environment: ["ORITSUBUSHI_PG_START_TIMEOUT": "10"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("SQLSTATE 28"), "\(result.stderr)")
        #expect(result.stderr.contains("login was refused"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 10, "a refusal is not a timeout: \(Date().timeIntervalSince(started)) s")
    }

    @Test("while its database is down, a request gets 503 with Retry-After within the 10-s deadline; service resumes after")
    func databaseOutage() async throws {
        try TestPostgres.require()
        let database = try await TestPostgres.database()
        let token = try CommandLineStore.token(try await CLI.run(["server", "add-user", "alice", "--store", database.url], environment: [:]))
        // The product's deadline, whatever the suite's environment sets for its own stores.
        let server = try await ServerProcess(storeArguments: ["--store", database.url], environment: ["ORITSUBUSHI_PG_START_TIMEOUT": "10"])
        defer { server.terminate() }
        var (status, _, _) = try await testRequest(.GET, server.url + "/v1/status", token: token, json: nil)
        #expect(status == 200)

        try await database.allowConnections(false)
        for attempt in 0..<3 {  // the first may meet a cut connection, the next wait for a new one
            let started = Date()
            let (refused, headers, body) = try await testRequest(.GET, server.url + "/v1/status", token: token, json: nil)
            let waited = Date().timeIntervalSince(started)
            #expect(refused == 503, "attempt \(attempt): \(refused) \(String(decoding: body, as: UTF8.self))")
            #expect(headers.first(name: "retry-after") != nil, "attempt \(attempt)")
            // Without the deadline postgres-nio's pool fails a waiting request after a minute;
            // with it, 10 s (ORITSUBUSHI_PG_LEASE_TIMEOUT's default): answered within 15 s.
            #expect(waited < 15, "attempt \(attempt) waited \(waited) s")
        }
        let expired = server.log.split(separator: "\n")
            .filter { $0.contains("no database connection within the deadline") && $0.contains("seconds=10 ") }.count
        // The first attempt may meet a cut connection instead (logged as a failed connection).
        #expect(expired >= 2, "the 10-s deadline did not answer the outage:\n\(server.log)")
        // An outage is counted as one, never as a user's damaged data (docs/server.md "Metrics and health checks").
        let (_, _, metrics) = try await testRequest(.GET, server.url + "/metrics", token: nil, json: nil)
        let exposed = String(decoding: metrics, as: UTF8.self)
        #expect(MetricsTests.value(exposed, "oritsubushi_store_outages_total") >= 3, "\(exposed)")
        #expect(MetricsTests.value(exposed, #"oritsubushi_store_errors_total{status="503"}"#) == 0, "\(exposed)")

        try await database.allowConnections(true)
        let resumed = Date().addingTimeInterval(60)
        repeat {
            (status, _, _) = try await testRequest(.GET, server.url + "/v1/status", token: token, json: nil)
            if status == 200 { break }
            try await Task.sleep(for: .milliseconds(500))
        } while Date() < resumed
        #expect(status == 200, "serving did not resume after the database came back")
        server.terminate()
        await database.drop()
    }

    @Test("serve refuses a PostgreSQL schema newer than it knows, exit 69 in one sentence")
    func newerSchemaRefused() async throws {
        try TestPostgres.require()
        let database = try await TestPostgres.database()
        let setup = try await CLI.run(["server", "users", "--store", database.url], environment: [:])
        setup.expectSuccess()  // creates and migrates the schema
        _ = try await database.sql("INSERT INTO schema_migrations (version) VALUES (999)")
        let refused = try await CLI.run(["server", "serve", "--store", database.url, "--port", "0"], environment: [:])
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(refused.stderr.contains("newer than this oritsubushi knows"), "\(refused.stderr)")
        await database.drop()
    }

    /// A files store in `dir/data` with user alice, served by the built binary.
    static func serveAlice(in dir: TemporaryDirectory) async throws -> (data: String, token: String, server: ServerProcess) {
        let data = dir.sub("data")
        let token = try CommandLineStore.token(try await CLI.run(["server", "add-user", "alice", "--data", data], environment: [:]))
        return (data, token, try await ServerProcess(data: data))
    }
}
