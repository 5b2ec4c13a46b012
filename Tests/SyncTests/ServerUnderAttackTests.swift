import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import NIOHTTP1
import Testing

/// The server against a hostile client, through the built `serve` on loopback, on both stores
/// (RELIABILITY.md "Hostile clients"): trickled bodies cannot hold the connection slots, a
/// burst of wrong pairing codes is counted one by one (also across two PostgreSQL instances), a
/// refusal to a caller without a token names no account, and a push is bounded by what it
/// decodes to.
@Suite("The server under attack: slow bodies and pairing bursts")
struct ServerUnderAttackTests {
    /// A wrong pairing code, as a phone would send it.
    static func pairBody(_ code: String = "0000-0000") throws -> [UInt8] {
        Array(try JSONSerialization.data(withJSONObject: ["code": code, "device_name": "phone"]))
    }

    @Test("every slot held by a trickled body: the bodies are closed within seconds and /v1/health answers",
          arguments: StoreKind.allCases)
    func trickledBodies(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("attack-trickle")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try await store.addUser("alice")
        let slots = 8
        let server = try await store.serve(["server", "serve", "--max-connections", "\(slots)"])
        defer { server.terminate() }

        // Every slot: a head announcing 1030 bytes, then a byte a second (the idle timeout, 30 s,
        // never fires: bytes keep coming), from a thread of its own so that the pace is this
        // test's, whatever else the suite runs. Bounded: 10 s.
        let port = server.port
        let (closedAfter, stillOpen) = try await offCooperativePool { () throws -> (Double, Int) in
            let started = Date()
            let tricklers = try (0..<slots).map { _ in try RawConnection(port: port) }
            for connection in tricklers {
                try connection.send("POST /v1/pair HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1030\r\n\r\n{")
            }
            var open = Set(tricklers.indices)
            while !open.isEmpty, Date().timeIntervalSince(started) < 10 {
                Thread.sleep(forTimeInterval: 1)
                for index in open where tricklers[index].isClosed() || !tricklers[index].trySend(" ") { open.remove(index) }
            }
            return (Date().timeIntervalSince(started), open.count)
        }
        // The server judges the rate after 2 s of waiting, once a second: closed by about 4 s.
        #expect(stillOpen == 0, "\(stillOpen) trickled bodies still hold their slots after 10 s")
        #expect(closedAfter < 8, "closed after \(closedAfter) s")
        let (health, _, _) = try await testRequest(.GET, server.url + "/v1/health", token: nil, json: nil)
        #expect(health == 200)

        // A slow but steady body (2 KiB a second, twice the minimum rate) is served.
        let answer = try await offCooperativePool { () throws -> String in
            let steady = try RawConnection(port: port)
            let body = #"{"have":{},"cursor":null,"have_digests":{}}"# + String(repeating: " ", count: 6 * 1024)
            try steady.send("POST /v1/pull HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n")
            var rest = Substring(body)
            while !rest.isEmpty {
                try steady.send(String(rest.prefix(1024)))
                rest = rest.dropFirst(1024)
                Thread.sleep(forTimeInterval: 0.5)
            }
            return steady.readUntilClose(seconds: 10).text
        }
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
    }

    @Test("40 wrong pairing codes at once from one address: at most 5 are evaluated", arguments: StoreKind.allCases)
    func pairingBurst(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("attack-pair-burst")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        _ = try await store.addUser("alice")
        let server = try await store.serve()
        defer { server.terminate() }
        let statuses = try await Self.burst(40, to: [server.url])
        #expect(statuses.filter { $0 == 401 }.count <= 5, "evaluated: \(statuses)")
        #expect(statuses.filter { $0 == 401 }.count >= 1, "\(statuses)")
        #expect(statuses.allSatisfy { $0 == 401 || $0 == 429 }, "\(statuses)")
        #expect(server.log.contains("wrong pairing code"), "each wrong code is logged")
        #expect(server.log.contains("address=127.0.0.1"), "with its address")
    }

    @Test("two PostgreSQL instances share the pairing limit: 40 codes at once, 20 to each, at most 5 evaluated")
    func pairingBurstAcrossInstances() async throws {
        let dir = try TemporaryDirectory("attack-pair-instances")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(.postgres, in: dir)
        _ = try await store.addUser("alice")
        let first = try await store.serve()
        defer { first.terminate() }
        let second = try await store.serve()
        defer { second.terminate() }
        let statuses = try await Self.burst(40, to: [first.url, second.url])
        #expect(statuses.filter { $0 == 401 }.count <= 5, "evaluated: \(statuses)")
        #expect(statuses.allSatisfy { $0 == 401 || $0 == 429 }, "\(statuses)")
    }

    @Test("a used code's 410 and an unknown code's 401 name no account", arguments: StoreKind.allCases)
    func refusalsNameNoAccount(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("attack-pair-names")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        _ = try await store.addUser("alice")
        let server = try await store.serve()
        defer { server.terminate() }
        let printed = try await store.server("pair", "alice", "--url", server.url)
        printed.expectSuccess()
        let code = try #require(printed.stdout.firstMatch(of: /[0-9A-Z]{4}-[0-9A-Z]{4}/).map { String($0.output) })
        let (paired, _, _) = try await testRequest(.POST, server.url + "/v1/pair", token: nil, json: try Self.pairBody(code))
        #expect(paired == 200)
        let (used, _, usedBody) = try await testRequest(.POST, server.url + "/v1/pair", token: nil, json: try Self.pairBody(code))
        #expect(used == 410)
        let (unknown, _, unknownBody) = try await testRequest(.POST, server.url + "/v1/pair", token: nil, json: try Self.pairBody())
        #expect(unknown == 401)
        for body in [usedBody, unknownBody] {
            let text = String(decoding: body, as: UTF8.self)
            #expect(!text.contains("alice"), "a stranger learns the account: \(text)")
            #expect(!text.contains(dir.path), "a stranger learns a path: \(text)")
        }
    }

    @Test("a frames push that decodes past --max-decoded-bytes is 413 and stores nothing; a count over 100,000 is 413",
          arguments: StoreKind.allCases)
    func decompressionAmplification(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("attack-amplification")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try await store.addUser("alice")
        let server = try await store.serve(["server", "serve", "--max-decoded-bytes", "\(4 << 20)"])
        defer { server.terminate() }
        // 2,000 edits with 4,000-byte memos of "a": about 8 MB of records in a body of a few KB.
        let device = DeviceID(rawValue: 0x7777_0000_0000_0001)
        let memo = String(repeating: "a", count: 4_000)
        let records = EncodedRecords((1...2_000).map { (seq: UInt64) in
            LedgerRecord.stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: HybridTimestamp(milliseconds: 1_700_000_000_000 + Int64(seq)),
                                                 station: UInt32(seq), compDate: .unknown, memo: memo, origin: .user))
        })
        let body = try FramesBody.encode(header: PushFramesHeader(count: records.count), records: records, writer: RecordFrames.Writer())
        #expect(body.count < 200_000, "the body is small: \(body.count) bytes")
        let (status, _, answer) = try await testRequest(.POST, server.url + "/v1/push", token: token, json: body, contentType: FramesBody.mediaType)
        let text = String(decoding: answer, as: UTF8.self)
        #expect(status == 413, "\(text)")
        #expect(text.contains("decode to more than \(4 << 20) bytes"), "\(text)")
        let (_, _, held) = try await testRequest(.GET, server.url + "/v1/status", token: token, json: nil)
        #expect(String(decoding: held, as: UTF8.self).contains(#""records":0"#), "nothing stored: \(String(decoding: held, as: UTF8.self))")

        // A header counting more records than a push may carry: 413 before any frame is read.
        let counted = try FramesBody.encode(header: PushFramesHeader(count: 100_001), records: FramesWireTests.edits(1...3), writer: RecordFrames.Writer())
        let (tooMany, _, tooManyBody) = try await testRequest(.POST, server.url + "/v1/push", token: token, json: counted, contentType: FramesBody.mediaType)
        #expect(tooMany == 413, "\(String(decoding: tooManyBody, as: UTF8.self))")
    }

    @Test("one strong ETag per representation with Vary; one rule for paths (%61pp.css and app.css/ alike)", arguments: StoreKind.allCases)
    func httpAsClientsExpect(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("attack-http")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let server = try await store.serve()
        defer { server.terminate() }
        let css = server.url + "/app/app.css"
        let (plain, plainHeaders, plainBody) = try await testRequest(.GET, css, token: nil, json: nil, headers: [("Accept-Encoding", "identity")])
        let (zipped, zippedHeaders, _) = try await testRequest(.GET, css, token: nil, json: nil, headers: [("Accept-Encoding", "gzip")])
        #expect(plain == 200 && zipped == 200)
        #expect(zippedHeaders.first(name: "content-encoding") == "gzip")
        let plainTag = try #require(plainHeaders.first(name: "etag")), zippedTag = try #require(zippedHeaders.first(name: "etag"))
        #expect(plainTag != zippedTag, "gzip and identity bodies share the strong ETag \(plainTag)")
        #expect(plainHeaders.first(name: "vary") == "Accept-Encoding" && zippedHeaders.first(name: "vary") == "Accept-Encoding")
        for tag in [plainTag, zippedTag] {
            let (unchanged, _, _) = try await testRequest(.GET, css, token: nil, json: nil, headers: [("If-None-Match", tag)])
            #expect(unchanged == 304, "\(tag)")
        }
        let (encoded, _, encodedBody) = try await testRequest(.GET, server.url + "/app/%61pp.css", token: nil, json: nil,
                                                              headers: [("Accept-Encoding", "identity")])
        #expect(encoded == 200 && encodedBody == plainBody, "the decoded path names app.css")
        let (slashed, _, slashedBody) = try await testRequest(.GET, server.url + "/app/app.css/", token: nil, json: nil)
        #expect(slashed == 404, "app.css/ names no file")
        #expect(!String(decoding: slashedBody, as: UTF8.self).contains("app.css"), "a refusal echoes no path")
    }

    /// `count` wrong codes sent at once, spread over `urls` in turn; their statuses.
    static func burst(_ count: Int, to urls: [String]) async throws -> [Int] {
        let body = try pairBody()
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                let url = urls[index % urls.count] + "/v1/pair"
                group.addTask { try await testRequest(.POST, url, token: nil, json: body).0 }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}
