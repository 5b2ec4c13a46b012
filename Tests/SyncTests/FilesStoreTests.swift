import Foundation
import NIOHTTP1
import LedgerCore
import LedgerSync
import LedgerTestSupport
import SyncServer
import Testing

/// The files store through the real server on loopback: per-user serialisation, lazy opening and
/// the LRU of open ledgers, device claims, tokens changed by another process, fork refusal, and
/// a damaged user answered 503 while everyone else is served (Schemas/server-store.md).
@Suite("Files store")
struct FilesStoreTests {
    /// Pushes every record of `ledger` (its name and its events) as one request.
    static func push(_ server: TestServer, _ token: String, _ ledger: Ledger) async throws -> (Int, [String: Any]) {
        let body = try JSONEncoder().encode(PushRequest(records: try ledger.allRecords().map(WireRecord.init)))
        return try await server.request(.POST, "/v1/push", token: token, body: Array(body))
    }

    static func ledger(_ dir: TemporaryDirectory, _ name: String, events: Int) throws -> Ledger {
        let ledger = try Ledger.create(directory: dir.sub(name), deviceName: name)
        for n in 0..<events { _ = try ledger.edit(UInt32(100 + n % 40), date: .year(1990 + n % 30), memo: "\(name) \(n)") }
        return ledger
    }

    @Test("different users push concurrently and each ends with exactly their own events")
    func perUserConcurrency() async throws {
        let dir = try TemporaryDirectory("files-concurrent")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"))
        let names = (0..<6).map { "user\($0)" }
        let tokens = try await names.asyncMap { try await server.addUser($0) }
        let ledgers = try names.map { try Self.ledger(dir, $0, events: 60) }
        defer { ledgers.forEach { $0.close() } }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for (ledger, token) in zip(ledgers, tokens) {
                let box = UncheckedBox(ledger)
                group.addTask { try await Self.push(server, token, box.value).0 }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        var held: [[String: Any]] = []
        for token in tokens { held.append(try await server.request(.GET, "/v1/status", token: token).1) }
        await server.stop()
        #expect(statuses == Array(repeating: 200, count: names.count))
        for (index, ledger) in ledgers.enumerated() {
            let serverHas = held[index]["server_has"] as? [String: Any]
            #expect(serverHas?.count == 1 && serverHas?[ledger.localDevice.description] as? Int == 60, "\(names[index])")
        }
    }

    @Test("at most Tuning.openLedgers stay open; an evicted user's ledger reopens with everything")
    func eviction() async throws {
        let dir = try TemporaryDirectory("files-lru")
        defer { dir.remove() }
        var tuning = FilesStore.Tuning()
        tuning.openLedgers = 2
        let server = try await TestServer.start(data: dir.sub("data"), tuning: tuning)
        #expect(server.store.openLedgerCount == 0)
        let tokens = try await (0..<5).asyncMap { try await server.addUser("u\($0)") }
        let ledgers = try (0..<5).map { try Self.ledger(dir, "u\($0)", events: 5) }
        defer { ledgers.forEach { $0.close() } }
        for (ledger, token) in zip(ledgers, tokens) {
            #expect(try await Self.push(server, token, ledger).0 == 200)
        }
        // Evictions close asynchronously, behind the operations queued before them.
        var open = server.store.openLedgerCount
        for _ in 0..<1_000 where open > 2 {
            try await Task.sleep(for: .milliseconds(5))
            open = server.store.openLedgerCount
        }
        #expect(open <= 2)
        // The first user was evicted: its ledger is closed (its lock free) and reopens on demand.
        let probe = try Ledger.open(directory: dir.sub("data/ledgers/u0"))
        probe.close()
        let (status, body) = try await server.request(.GET, "/v1/status", token: tokens[0])
        await server.stop()
        #expect(status == 200)
        #expect((body["server_has"] as? [String: Any])?[ledgers[0].localDevice.description] as? Int == 5)
    }

    @Test("start-up with 10,000 registered users opens no ledger; the first request opens one")
    func lazyStartUp() async throws {
        let dir = try TemporaryDirectory("files-10k")
        defer { dir.remove() }
        let data = dir.sub("data")
        try FileManager.default.createDirectory(atPath: data + "/devices", withIntermediateDirectories: true)
        var users: [[String: Any]] = []
        for n in 0..<10_000 {
            users.append(["name": "user\(n)", "tokens": [["sha256": TokenHash.hex("token-\(n)"), "created": "2026-01-01T00:00:00Z"]]])
        }
        try Data(try JSONSerialization.data(withJSONObject: ["version": 1, "users": users])).write(to: URL(fileURLWithPath: data + "/users.json"))
        let server = try await TestServer.start(data: data)
        let before = server.store.openLedgerCount
        let (status, _) = try await server.request(.GET, "/v1/status", token: "token-9999")
        let after = server.store.openLedgerCount
        await server.stop()
        #expect(before == 0)
        #expect(status == 200)
        #expect(after == 1)
    }

    @Test("a data directory without devices/ is migrated at start-up: an existing user's device stays theirs")
    func migration() async throws {
        let dir = try TemporaryDirectory("files-migrate")
        defer { dir.remove() }
        var server = try await TestServer.start(data: dir.sub("data"))
        let alice = try await server.addUser("alice")
        let bob = try await server.addUser("bob")
        let phone = try Self.ledger(dir, "phone", events: 3)
        defer { phone.close() }
        #expect(try await Self.push(server, alice, phone).0 == 200)
        await server.stop()
        try FileManager.default.removeItem(atPath: dir.sub("data/devices"))
        server = try await TestServer.start(data: dir.sub("data"))
        let claim = try String(contentsOfFile: dir.sub("data/devices/\(phone.localDevice)"), encoding: .utf8)
        let stolen = try await Self.push(server, bob, phone)
        let own = try await Self.push(server, alice, phone)
        await server.stop()
        #expect(claim == "alice")
        #expect(stolen.0 == 403)
        #expect(own.0 == 200 && own.1["appended"] as? Int == 0)
    }

    @Test("add-token, revoke-token and delete-user by another UserStore take effect on the next request")
    func tokensFromAnotherProcess() async throws {
        let dir = try TemporaryDirectory("files-tokens")
        defer { dir.remove() }
        let server = try await TestServer.start(data: dir.sub("data"))
        let first = try await server.addUser("carol")
        let operator_ = UserStore(dataDirectory: dir.sub("data"))
        #expect(try await server.request(.GET, "/v1/status", token: first).0 == 200)
        let second = try operator_.addToken(user: "carol", now: 1)
        let withBoth = try await (server.request(.GET, "/v1/status", token: first).0, server.request(.GET, "/v1/status", token: second).0)
        _ = try operator_.revoke(user: "carol", token: first, now: 2)
        let afterRevoke = try await (server.request(.GET, "/v1/status", token: first).0, server.request(.GET, "/v1/status", token: second).0)
        try operator_.deleteUser("carol")
        let afterDelete = try await server.request(.GET, "/v1/status", token: second).0
        await server.stop()
        #expect(withBoth == (200, 200))
        #expect(afterRevoke == (401, 200))
        #expect(afterDelete == 401)
    }

    @Test("a damaged user ledger answers that user 503 naming the user, not a server path; another user syncs on")
    func damagedUser() async throws {
        let dir = try TemporaryDirectory("files-damaged")
        defer { dir.remove() }
        let data = dir.sub("data")
        // Carol's server ledger with sealed segments (a small roll threshold), as a server writes it.
        let phone = try Self.ledger(dir, "carol-phone", events: 300)
        defer { phone.close() }
        try FileManager.default.createDirectory(atPath: data + "/ledgers", withIntermediateDirectories: true)
        let stored = try Ledger.create(directory: data + "/ledgers/carol", deviceName: "oritsubushi sync server")
        stored.rollThreshold = 512
        // One push per batch, as clients push: a segment rolls between batches, never inside one.
        let records = try phone.allRecords()
        for start in stride(from: 0, to: records.count, by: 50) {
            let batch = Array(records[start..<min(start + 50, records.count)])
            _ = try LedgerMerger.apply(try LedgerMerger.prepare(batch, for: stored), to: stored)
        }
        let sealed = stored.segments.first!.path
        #expect(stored.segments.count > 2)
        stored.close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: sealed))
        bytes[bytes.count / 2] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: sealed))

        let server = try await TestServer.start(data: data)
        let carol = try await server.addUser("carol")
        let alice = try await server.addUser("alice")
        let (status, body) = try await server.request(.POST, "/v1/pull", token: carol, body: try json(["have": [String: Int](), "have_digests": [String: String]()]))
        // The server closed carol's ledger: an operator's `server repair` can take its lock.
        let repairable = try? Ledger.open(directory: data + "/ledgers/carol")
        repairable?.close()
        let laptop = try Self.ledger(dir, "alice-laptop", events: 4)
        defer { laptop.close() }
        let pushed = try await Self.push(server, alice, laptop)
        let pulled = try await server.request(.POST, "/v1/pull", token: alice, body: try json(["have": [String: Int](), "have_digests": [String: String]()]))
        await server.stop()
        #expect(status == 503)
        #expect(body["error"] as? String == "unavailable")
        let message = body["message"] as? String ?? ""
        // The user and what to run, never the server's paths (`server verify` names the file).
        #expect(message.contains("'carol'") && message.contains("server repair") && !message.contains(data) && !message.contains(".seg"),
                "\(message)")
        #expect(repairable != nil)
        #expect(pushed.0 == 200 && pulled.0 == 200)
        #expect((pulled.1["records"] as? [Any])?.count == 5)
    }
}
