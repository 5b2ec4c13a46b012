import Foundation
import NIOHTTP1
import LedgerCore
import LedgerSync
import LedgerTestSupport
import SyncClient
import SyncServer
import SyncServerPostgres
import Testing

/// One store, fresh (a temporary data directory or database), behind the real HTTP server.
struct StoreFixture {
    let server: StoreServer
    let admin: any SyncStoreAdministration
    private let cleanup: @Sendable () async -> Void

    /// The server's clock: fixed, so that the clock bound and the refusals' words are reproducible.
    static let now: Int64 = 1_700_000_000_000

    /// For PostgreSQL without a test server the test is cancelled, saying what to install (and
    /// fails under CI=true).
    static func make(_ kind: StoreKind, stations: any StationDirectory = AnyPositiveStation()) async throws -> StoreFixture {
        // Fixed, so that both stores' refusals name the same instant.
        let clock = FixedClock(milliseconds: now)
        switch kind {
        case .files:
            let dir = try TemporaryDirectory("conformance")
            let store = try FilesStore(dataDirectory: dir.sub("data"), stations: stations, clock: clock)
            let server = try await StoreServer.start(store)
            return StoreFixture(server: server, admin: FilesStoreAdministration(dataDirectory: dir.sub("data"), clock: clock)) {
                await store.close()
                dir.remove()
            }
        case .postgres:
            try TestPostgres.require()
            let database = try await TestPostgres.database()
            let store = database.store(clock: clock, stations: stations)
            let server = try await StoreServer.start(store)
            return StoreFixture(server: server, admin: store) {
                await store.close()
                await database.drop()
            }
        }
    }

    func addUser(_ name: String) async throws -> String {
        let (token, hash) = TestPostgres.token()
        try await admin.addUser(name, tokenHash: hash, now: Self.now)
        return token
    }

    func stop() async {
        await server.stop()
        await admin.close()
        await cleanup()
    }
}

/// Wire bodies for the raw requests.
enum Wire {
    static let device = DeviceID(rawValue: 0xa1)

    static func edit(_ seq: UInt64, station: UInt32 = 120_004, year: Int = 2020, device: DeviceID = device,
                     hlcMilliseconds: Int64 = StoreFixture.now - 60_000) -> LedgerRecord {
        .stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: HybridTimestamp(milliseconds: hlcMilliseconds + Int64(seq)),
                                 station: station, compDate: .year(year), memo: nil, origin: .user))
    }

    static func push(_ records: [LedgerRecord]) throws -> [UInt8] {
        Array(try JSONEncoder().encode(PushRequest(records: records.map(WireRecord.init))))
    }

    static func pull(have: [DeviceID: UInt64] = [:], digests: [DeviceID: String]? = [:], cursor: UInt64? = nil, limit: Int? = nil) throws -> [UInt8] {
        let request = PullRequest(have: WireVersionVector.encode(have), cursor: cursor, limit: limit,
                                  haveDigests: digests.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.description, $0.value) }) })
        return Array(try JSONEncoder().encode(request))
    }
}

@Suite("One conformance suite for both server stores, through the real HTTP server")
struct StoreConformanceTests {
    /// A fixed sequence of requests (pushes, retries, every refusal, paged pulls, a fork, an old
    /// client, a revoked token): (step, status, body with the position-dependent `cursor` removed).
    static func script(_ fixture: StoreFixture) async throws -> [(step: String, status: Int, body: String)] {
        let alice = try await fixture.addUser("alice")
        let bob = try await fixture.addUser("bob")
        let server = fixture.server
        let events = (1...3).map { Wire.edit($0) }
        let steps: [(String, String, String?, [UInt8]?)] = [
            ("push", "/v1/push", alice, try Wire.push(events)),
            ("retried push", "/v1/push", alice, try Wire.push(events)),
            ("different content", "/v1/push", alice, try Wire.push([Wire.edit(2, year: 1999)])),
            ("gap", "/v1/push", alice, try Wire.push([Wire.edit(5)])),
            ("another user's device", "/v1/push", bob, try Wire.push([Wire.edit(4)])),
            ("clock bound", "/v1/push", alice, try Wire.push([Wire.edit(4, hlcMilliseconds: StoreFixture.now + 2 * 86_400_000)])),
            ("unknown station", "/v1/push", alice, try Wire.push([Wire.edit(4, station: 5)])),
            ("pull page 1", "/v1/pull", alice, try Wire.pull(limit: 2)),
            ("pull nothing new", "/v1/pull", alice, try Wire.pull(have: [Wire.device: 3], digests: [Wire.device: EventDigest.hex(events[2])])),
            ("fork", "/v1/pull", alice, try Wire.pull(have: [Wire.device: 2], digests: [Wire.device: EventDigest.hex(events[0])])),
            ("old client", "/v1/pull", alice, try Wire.pull(have: [Wire.device: 2], digests: nil)),
            ("bob sees nothing", "/v1/pull", bob, try Wire.pull()),
            ("status", "/v1/status", alice, nil),
        ]
        var results: [(String, Int, String)] = []
        for (step, path, token, body) in steps {
            let (status, bytes) = try await server.send(body == nil ? .GET : .POST, path, token: token, json: body)
            results.append((step, status, try Self.normalised(bytes)))
        }
        _ = try await fixture.admin.revokeTokens(user: "alice", tokenHash: nil, now: StoreFixture.now)
        let (status, bytes) = try await server.send(.POST, "/v1/push", token: alice, json: try Wire.push(events))
        results.append(("revoked token", status, try Self.normalised(bytes)))
        return results
    }

    static func normalised(_ bytes: [UInt8]) throws -> String {
        guard var object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return "" }
        object["cursor"] = nil
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test("pushes, retries and every refusal answer as the API says", arguments: StoreKind.allCases)
    func refusals(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind, stations: StationSet([120_004]))
        let results = try await Self.script(fixture)
        await fixture.stop()
        let expected: [String: (Int, String?)] = [
            "push": (200, nil), "retried push": (200, nil), "different content": (409, "fork"), "gap": (409, "conflict"),
            "another user's device": (403, "forbidden"), "clock bound": (409, "conflict"), "unknown station": (422, "invalid"),
            "pull page 1": (200, nil), "pull nothing new": (200, nil), "fork": (409, "fork"), "old client": (400, "malformed"),
            "bob sees nothing": (200, nil), "status": (200, nil), "revoked token": (401, "revoked"),
        ]
        for (step, status, body) in results {
            #expect(status == expected[step]?.0, "\(kind) \(step): \(body)")
            if let code = expected[step]?.1 { #expect(body.contains("\"error\":\"\(code)\""), "\(kind) \(step): \(body)") }
        }
        let bodies = Dictionary(uniqueKeysWithValues: results.map { ($0.step, $0.body) })
        #expect(bodies["push"]?.contains("\"appended\":3,\"duplicates\":0") == true)
        #expect(bodies["retried push"]?.contains("\"appended\":0,\"duplicates\":3") == true, "a retried push is a no-op")
        #expect(bodies["pull page 1"]?.contains("\"more\":true") == true)
        #expect(bodies["fork"]?.contains("\"device\":\"00000000000000a1\"") == true && bodies["fork"]?.contains("\"seq\":2") == true)
        #expect(bodies["bob sees nothing"]?.contains("\"records\":[]") == true)
    }

    @Test("both stores answer the same script with the same JSON bodies", .requiresPostgres)
    func sameBodies() async throws {
        var answers: [[(step: String, status: Int, body: String)]] = []
        for kind in StoreKind.allCases {
            let fixture = try await StoreFixture.make(kind, stations: StationSet([120_004]))
            answers.append(try await Self.script(fixture))
            await fixture.stop()
        }
        for (files, postgres) in zip(answers[0], answers[1]) {
            #expect(files.status == postgres.status, "\(files.step)")
            #expect(files.body == postgres.body, "\(files.step)")
        }
    }

    @Test("pull pages follow the cursor to the end, each record once", arguments: StoreKind.allCases)
    func pullPages(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        let token = try await fixture.addUser("alice")
        let (pushed, _) = try await fixture.server.send(.POST, "/v1/push", token: token, json: try Wire.push((1...25).map { Wire.edit($0) }))
        var seqs: [UInt64] = []
        var cursor: UInt64?
        var pages = 0
        while pages < 10 {
            let (status, page) = try await fixture.server.call(.POST, "/v1/pull", token: token,
                                                               try JSONSerialization.jsonObject(with: Data(try Wire.pull(cursor: cursor, limit: 10))))
            #expect(status == 200)
            pages += 1
            seqs += (page["records"] as? [[String: Any]] ?? []).compactMap { ($0["seq"] as? NSNumber)?.uint64Value }
            cursor = (page["cursor"] as? NSNumber)?.uint64Value
            if page["more"] as? Bool != true { break }
        }
        await fixture.stop()
        #expect(pushed == 200)
        #expect(pages == 3)
        #expect(seqs == Array(1...25))
    }

    @Test("two devices converge through the real SyncSession; a second sync moves nothing", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) async throws {
        let fixture = try await StoreFixture.make(kind)
        let token = try await fixture.addUser("alice")
        let dir = try TemporaryDirectory("round-trip")
        defer { dir.remove() }
        let clock = DeviceClock(base: StoreFixture.now)
        let phone = try Ledger.create(directory: dir.sub("phone"), deviceName: "phone", clock: clock)
        let laptop = try Ledger.create(directory: dir.sub("laptop"), deviceName: "laptop", clock: clock)
        defer { phone.close(); laptop.close() }
        for n in 0..<30 { _ = try phone.edit(UInt32(100 + n % 9), date: .year(1990 + n)) }
        for n in 0..<20 { _ = try laptop.edit(UInt32(100 + n % 7), memo: "laptop \(n)") }
        let session = { SyncSession(connection: try SyncConnection(server: fixture.server.url, token: token)) }
        _ = try await session().run(phone)
        _ = try await session().run(laptop)
        _ = try await session().run(phone)
        let again = try await session().run(laptop)
        let (_, status) = try await fixture.server.call(.GET, "/v1/status", token: token)
        await fixture.stop()
        #expect(try phone.eventSet() == laptop.eventSet())
        #expect(try phone.projection() == laptop.projection())
        #expect(again.pushed == 0)
        let serverHas = status["server_has"] as? [String: Int] ?? [:]
        #expect(serverHas[phone.localDevice.description] == Int(phone.versionVector[phone.localDevice] ?? 0))
        #expect(serverHas[laptop.localDevice.description] == Int(laptop.versionVector[laptop.localDevice] ?? 0))
    }
}
