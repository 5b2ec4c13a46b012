import AsyncHTTPClient
import Foundation
import NIOHTTP1
import LedgerCore
import LedgerSync
import SyncClient
import SyncServer
import Testing
import LedgerTestSupport

@Suite("Sync server on loopback")
struct SyncServerTests {
    @Test("health answers without a token; tokens are stored only as hashes")
    func health() async throws {
        let dir = try TemporaryDirectory("health")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"))
        let token = try server.addUser("alice")
        let (status, body) = try await server.request(.GET, "/v1/health", token: nil)
        let (alias, _) = try await server.request(.GET, "/health", token: nil)
        await server.stop()
        #expect(status == 200 && alias == 200)
        #expect(body["status"] as? String == "ok")
        let stored = try String(contentsOfFile: dir.sub("data/users.json"), encoding: .utf8)
        #expect(!stored.contains(token))
        #expect(stored.contains(TokenHash.hex(token)))
    }

    @Test("missing, wrong and revoked tokens get 401 with a JSON error")
    func unauthorized() async throws {
        let dir = try TemporaryDirectory("auth")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"))
        let token = try server.addUser("alice")
        let pull = try json(["have": [String: Int](), "have_digests": [String: String]()])
        let missing = try await server.request(.POST, "/v1/pull", token: nil, body: pull)
        let wrong = try await server.request(.POST, "/v1/pull", token: token + "x", body: pull)
        let right = try await server.request(.POST, "/v1/pull", token: token, body: pull)
        _ = try UserStore(dataDirectory: dir.sub("data")).revoke(user: "alice", token: nil, now: 0)
        let revoked = try await server.request(.POST, "/v1/pull", token: token, body: pull)
        await server.stop()
        #expect(missing.0 == 401 && missing.1["error"] as? String == "unauthorized")
        #expect(wrong.0 == 401)
        #expect(right.0 == 200)
        #expect(revoked.0 == 401)
    }

    @Test("malformed, oversize and invalid bodies get 4xx JSON errors and change nothing")
    func refusals() async throws {
        let dir = try TemporaryDirectory("refuse")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"), stations: StationSet([120_004]), maximumBodyBytes: 64 << 10)
        let token = try server.addUser("alice")
        func edit(_ seq: Int, station: Int = 120_004, date: Int = 20200101) -> [String: Any] {
            ["kind": "station_edit", "device": "00000000000000a1", "seq": seq, "hlc": "111422361600000000",
             "station": station, "comp_date": date]
        }
        let cases: [(String, [UInt8], Int)] = [
            ("not JSON", Array("{nope".utf8), 400),
            ("wrong shape", try json(["records": "x"]), 400),
            ("oversize", try json(["records": [["kind": "station_edit", "memo": String(repeating: "x", count: 70_000)]]]), 413),
            ("unknown kind", try json(["records": [["kind": "teleport", "device": "00000000000000a1", "hlc": "1"]]]), 422),
            ("invalid date", try json(["records": [edit(1, date: 20201399)]]), 422),
            ("unknown station", try json(["records": [edit(1, station: 5)]]), 422),
            ("seq gap", try json(["records": [edit(1), edit(3)]]), 409),
            ("first seq missing", try json(["records": [edit(2)]]), 409),
            ("a day ahead", try json(["records": [["kind": "station_edit", "device": "00000000000000a1", "seq": 1,
                                                    "hlc": String(UInt64(4_000_000_000_000) << 16), "station": 120_004, "comp_date": 1]]]), 409),
        ]
        for (name, body, expected) in cases {
            let (status, reply) = try await server.request(.POST, "/v1/push", token: token, body: body)
            #expect(status == expected, "\(name)")
            #expect(reply["error"] is String && reply["message"] is String, "\(name): JSON error body")
        }
        let (_, state) = try await server.request(.GET, "/v1/status", token: token)
        await server.stop()
        #expect((state["server_has"] as? [String: Any])?.isEmpty == true, "no partial write")
    }

    @Test("a token never reaches another user's log")
    func crossUser() async throws {
        let dir = try TemporaryDirectory("cross")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"))
        let aliceToken = try server.addUser("alice")
        let bobToken = try server.addUser("bob")
        let alice = try Ledger.create(directory: dir.sub("alice"), deviceName: "alice-phone")
        let bob = try Ledger.create(directory: dir.sub("bob"), deviceName: "bob-phone")
        defer { alice.close(); bob.close() }
        _ = try alice.edit(120_004, memo: "alice's secret")
        _ = try await server.session(aliceToken).run(alice)
        // Bob pulls: he sees nothing of Alice's.
        let report = try await server.session(bobToken).run(bob)
        #expect(report.pulled == 0)
        #expect(try bob.projection().isEmpty)
        // Bob pushes events of Alice's device: refused with 403.
        let stolen = try alice.allRecords().filter { $0.eventID?.device == alice.localDevice }.map(WireRecord.init)
        let body = try JSONEncoder().encode(PushRequest(records: stolen))
        let (status, reply) = try await server.request(.POST, "/v1/push", token: bobToken, body: Array(body))
        await server.stop()
        #expect(status == 403)
        #expect(reply["error"] as? String == "forbidden")
    }

    @Test("two and more clients syncing concurrently converge")
    func concurrentClients() async throws {
        let dir = try TemporaryDirectory("concurrent")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"))
        let token = try server.addUser("alice")
        let ledgers = try (0..<3).map { try Ledger.create(directory: dir.sub("d\($0)"), deviceName: "device-\($0)") }
        defer { ledgers.forEach { $0.close() } }
        for (i, ledger) in ledgers.enumerated() {
            for n in 0..<40 {
                _ = try ledger.edit(UInt32(100 + (n * 7 + i) % 25), date: .year(1990 + i), memo: "d\(i) n\(n)")
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for ledger in ledgers {
                let box = UncheckedBox(ledger)
                group.addTask {
                    var session = try server.session(token)
                    session.pageSize = 16
                    session.framesPageSize = 16
                    _ = try await session.run(box.value)
                }
            }
            try await group.waitForAll()
        }
        for ledger in ledgers { _ = try await server.session(token).run(ledger) }
        let reference = try ledgers[0].eventSet()
        for ledger in ledgers.dropFirst() {
            #expect(try ledger.eventSet() == reference)
            #expect(try ledger.projection() == ledgers[0].projection())
            #expect(try ledger.conflicts() == ledgers[0].conflicts())
        }
        let (_, state) = try await server.request(.GET, "/v1/status", token: token)
        await server.stop()
        let serverHas = state["server_has"] as? [String: Int] ?? [:]
        #expect(serverHas.count == 3)
        for ledger in ledgers {
            #expect(UInt64(serverHas[ledger.localDevice.description] ?? 0) == ledger.versionVector[ledger.localDevice])
        }
    }

    @Test("an interrupted sync resumes; a retried push appends nothing twice")
    func interrupted() async throws {
        let dir = try TemporaryDirectory("resume")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"))
        let token = try server.addUser("alice")
        let phone = try Ledger.create(directory: dir.sub("phone"), deviceName: "phone")
        let laptop = try Ledger.create(directory: dir.sub("laptop"), deviceName: "laptop")
        defer { phone.close(); laptop.close() }
        for n in 0..<50 { _ = try phone.edit(UInt32(n + 1), date: .unknown) }
        var session = try server.session(token)
        session.pageSize = 10
        session.framesPageSize = 10
        var pushedPages = 0
        session.progress = { event in
            if case .pushed = event {
                pushedPages += 1
                if pushedPages == 2 { throw CancellationError() }
            }
        }
        await #expect(throws: CancellationError.self) { _ = try await session.run(phone) }
        // Half way: the server holds a prefix; resend the same page (a retry) — nothing twice.
        let page = try phone.allRecords().filter { $0.eventID != nil }.prefix(10).map(WireRecord.init)
        let (status, reply) = try await server.request(.POST, "/v1/push", token: token,
                                                       body: Array(try JSONEncoder().encode(PushRequest(records: Array(page)))))
        #expect(status == 200)
        #expect(reply["appended"] as? Int == 0)
        session.progress = { _ in }
        _ = try await session.run(phone)
        _ = try await session.run(laptop)
        await server.stop()
        #expect(try laptop.projection() == phone.projection())
        #expect(try laptop.eventSet().filter { $0.key.device == phone.localDevice }
                == phone.eventSet().filter { $0.key.device == phone.localDevice })
    }

    @Test("a server restart between pull and push loses nothing acknowledged")
    func restart() async throws {
        let dir = try TemporaryDirectory("restart")
        defer { dir.remove() }
        var server = try await TestServer.start(data: dir.sub("data"))
        let token = try server.addUser("alice")
        let phone = try Ledger.create(directory: dir.sub("phone"), deviceName: "phone")
        let tablet = try Ledger.create(directory: dir.sub("tablet"), deviceName: "tablet")
        defer { phone.close(); tablet.close() }
        _ = try phone.edit(120_004, date: .day(2019, 5, 1))
        _ = try await server.session(token).run(phone)
        _ = try tablet.edit(120_004, date: .day(2018, 1, 1))
        // The tablet pulls, then the server goes away before it pushes.
        var session = try server.session(token)
        session.progress = { event in if case .pulled = event { throw CancellationError() } }
        await #expect(throws: CancellationError.self) { _ = try await session.run(tablet) }
        await server.stop()
        server = try await TestServer.start(data: dir.sub("data"))
        _ = try await server.session(token).run(tablet)
        _ = try await server.session(token).run(phone)
        // The phone's last sync added its knowledge mark; one more sync brings it to the tablet.
        let last = try await server.session(token).run(tablet)
        #expect(last.pulled == 1 && last.pushed == 0)
        await server.stop()
        #expect(try tablet.eventSet() == phone.eventSet())
        #expect(try tablet.projection() == phone.projection())
        #expect(try tablet.conflicts() == phone.conflicts())
        #expect(try phone.conflicts().count == 1, "the two offline edits were concurrent")
    }
}

extension SyncServerTests {
    @Test("a new device learns the catalogue version the history assumes")
    func catalogueVersion() async throws {
        let dir = try TemporaryDirectory("catalog")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"))
        let token = try server.addUser("alice")
        let old = try Ledger.create(directory: dir.sub("old"), deviceName: "old")
        let new = try Ledger.create(directory: dir.sub("new"), deviceName: "new")
        defer { old.close(); new.close() }
        try old.appendCatalogVersion(152)
        _ = try old.edit(120_004, date: .unknown)
        try old.appendCatalogVersion(176)
        _ = try await server.session(token).run(old)
        let report = try await server.session(token).run(new)
        let (_, status) = try await server.request(.GET, "/v1/status", token: token)
        await server.stop()
        #expect(report.catalogVersion == 176)
        #expect(status["catalog_version"] as? Int == 176)
        #expect(try new.allRecords().contains { if case .catalogVersion(let e) = $0 { e.version == 176 } else { false } })
    }
}

/// Hands a ledger to one child task; each ledger is used by exactly one task at a time.
struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

extension SyncServerTests {
    /// Seeded random schedules through the real server: devices edit offline and sync in a
    /// random order (sometimes interrupted after a page); after a final round every replica
    /// and the server agree.
    @Test("random edit and sync schedules through the server converge", arguments: [UInt64(3), 17, 42])
    func randomSyncSchedules(seed: UInt64) async throws {
        var rng = SeededGenerator(seed: seed)
        let dir = try TemporaryDirectory("random-sync\(seed)")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"))
        let token = try server.addUser("alice")
        let count = Int.random(in: 2...4, using: &rng)
        let ledgers = try (0..<count).map { i in
            try Ledger.create(directory: dir.sub("d\(i)"), deviceName: "device-\(i)",
                              clock: DeviceClock(skew: Int64.random(in: -3...3, using: &rng) * 3_600_000))
        }
        defer { ledgers.forEach { $0.close() } }
        var created: Set<EventID> = []
        for _ in 0..<30 {
            let i = Int.random(in: 0..<count, using: &rng)
            if Bool.random(using: &rng) {
                let date: CompletionDate = [.unknown, .year(2003), .month(2011, 11)].randomElement(using: &rng)!
                created.insert(try ledgers[i].edit(UInt32.random(in: 1...3, using: &rng), date: date).id)
            } else {
                var session = try server.session(token)
                session.pageSize = Int.random(in: 1...5, using: &rng)
                session.framesPageSize = session.pageSize
                let interrupted = Int.random(in: 0..<4, using: &rng) == 0
                if interrupted {
                    session.progress = { _ in throw CancellationError() }  // interrupted after one page
                }
                // Only the planned interruption is ignored; any other failure fails the test.
                do {
                    _ = try await session.run(ledgers[i])
                } catch is CancellationError where interrupted {}
            }
        }
        // Round 1 brings every edit to the server, round 2 to every device (which each write a
        // knowledge mark), round 3 spreads those marks; pulling only marks writes no new mark.
        for _ in 0..<3 { for ledger in ledgers { _ = try await server.session(token).run(ledger) } }
        for ledger in ledgers {
            let report = try await server.session(token).run(ledger)
            #expect(report.pulled == 0 && report.pushed == 0, "a fixed point (seed \(seed))")
        }
        await server.stop()
        let reference = try ledgers[0].eventSet()
        #expect(created.isSubset(of: Set(reference.keys)))
        for ledger in ledgers.dropFirst() {
            #expect(try ledger.eventSet() == reference, "seed \(seed)")
            #expect(try ledger.projection() == ledgers[0].projection(), "seed \(seed)")
            #expect(try ledger.conflicts() == ledgers[0].conflicts(), "seed \(seed)")
        }
    }
}

extension SyncServerTests {
    @Test("undeclared methods on declared paths answer 405 with Allow; unknown paths 404",
          arguments: [(HTTPMethod.DELETE, "/v1/pull", "POST"), (.GET, "/v1/push", "POST"), (.PUT, "/v1/status", "GET"),
                      (.POST, "/v1/health", "GET"), (.PATCH, "/health", "GET"), (.OPTIONS, "/v1/pull", "POST"),
                      (.RAW(value: "QUERY"), "/v1/status", "GET"), (.DELETE, "/app/config.json", "GET"),
                      (.POST, "/app/config.json", "GET")])
    func methodNotAllowed(method: HTTPMethod, path: String, allow: String) async throws {
        let dir = try TemporaryDirectory("405")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"))
        let token = try server.addUser("alice")
        let (status, headers, body) = try await server.exchange(method, path, token: token, body: try json([String: Int]()))
        let unknown = try await server.request(.GET, "/v1/nothing", token: token)
        let health = try await server.request(.GET, "/v1/health", token: nil)
        await server.stop()
        #expect(status == 405)
        #expect(headers["Allow"] == [allow])
        #expect(body["error"] as? String == "method_not_allowed")
        #expect(unknown.0 == 404)
        #expect(health.1["api"] as? String == "2")
    }

    @Test("a pull whose have_digests disagree with the stored events is refused 409 fork naming device and seq")
    func forkRefusal() async throws {
        let dir = try TemporaryDirectory("fork")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"))
        let token = try server.addUser("alice")
        let phone = try Ledger.create(directory: dir.sub("phone"), deviceName: "phone")
        defer { phone.close() }
        for n in 0..<3 { _ = try phone.edit(UInt32(120 + n), date: .year(2000 + n)) }
        #expect(try await FilesStoreTests.push(server, token, phone).0 == 200)
        let events = try phone.allRecords().filter { $0.eventID != nil }
        let device = phone.localDevice.description
        func pull(_ seq: Int, _ digest: String?) async throws -> (Int, [String: Any]) {
            var body: [String: Any] = ["have": [device: seq]]
            if let digest { body["have_digests"] = [device: digest] }
            return try await server.request(.POST, "/v1/pull", token: token, body: try json(body))
        }
        let agreeing = try await pull(2, EventDigest.hex(events[1]))
        let copied = try await pull(2, EventDigest.hex(events[0]))
        let ahead = try await pull(9, EventDigest.hex(events[0]))
        let old = try await pull(2, nil)
        await server.stop()
        #expect(agreeing.0 == 200)
        #expect(agreeing.1["server_digests"] as? [String: String] == [device: EventDigest.hex(events[2])])
        #expect(copied.0 == 409 && copied.1["error"] as? String == "fork")
        #expect(copied.1["device"] as? String == device && copied.1["seq"] as? Int == 2)
        #expect(ahead.0 == 200, "a seq the server does not hold is not compared")
        #expect(old.0 == 400, "an API 1 client is told to update")
    }
}
