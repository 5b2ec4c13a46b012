import Foundation
import NIOHTTP1
import LedgerCore
import LedgerGenerator
import LedgerSync
import LedgerTestSupport
import PostgresNIO
import SyncClient
import SyncServer
import SyncServerPostgres
import Testing

/// What only PostgreSQL has: several instances on one database, the races the keys decide, the
/// migrations, and the operator's integrity commands on rows.
@Suite("PostgreSQL store: several instances, races, migrations, integrity", .requiresPostgres)
struct PostgresStoreTests {
    static func stores(_ count: Int, _ database: TestPostgres.Database) async throws -> [PostgresStore] {
        var stores: [PostgresStore] = []
        for _ in 0..<count { stores.append(database.store(clock: DeviceClock(base: StoreFixture.now))) }
        return stores
    }

    /// Runs `body` while every store's pool runs and the stores are started (no server does it).
    static func whileRunning<T: Sendable>(_ stores: ArraySlice<PostgresStore>, _ body: () async throws -> T) async throws -> T {
        guard let first = stores.first else { return try await body() }
        return try await first.whileRunning { try await whileRunning(stores.dropFirst(), body) }
    }

    static func addUser(_ store: PostgresStore, _ name: String) async throws -> String {
        let (token, hash) = TestPostgres.token()
        try await store.addUser(name, tokenHash: hash, now: StoreFixture.now)
        return token
    }

    @Test("an event pushed through one instance is pulled from another with the first one's cursor")
    func twoInstances() async throws {
        let database = try await TestPostgres.database()
        let stores = try await Self.stores(2, database)
        let servers = [try await StoreServer.start(stores[0]), try await StoreServer.start(stores[1])]
        let token = try await Self.addUser(stores[0], "alice")
        _ = try await servers[0].send(.POST, "/v1/push", token: token, json: try Wire.push((1...3).map { Wire.edit($0) }))
        let (_, first) = try await servers[0].call(.POST, "/v1/pull", token: token, try JSONSerialization.jsonObject(with: Data(try Wire.pull())))
        let cursor = (first["cursor"] as? NSNumber)?.uint64Value
        _ = try await servers[1].send(.POST, "/v1/push", token: token, json: try Wire.push([Wire.edit(4)]))
        let body = try Wire.pull(have: [Wire.device: 3], digests: [Wire.device: EventDigest.hex(Wire.edit(3))], cursor: cursor)
        let (status, second) = try await servers[1].call(.POST, "/v1/pull", token: token, try JSONSerialization.jsonObject(with: Data(body)))
        for server in servers { await server.stop() }
        for store in stores { await store.close() }
        await database.drop()
        #expect((first["records"] as? [Any])?.count == 3)
        #expect(status == 200)
        let seqs = (second["records"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int }
        #expect(seqs == [4], "the other instance resumes at the first one's cursor")
    }

    /// Forced, not hoped for: the test's own session holds alice's user row (the row every push
    /// locks first, inside its transaction: PostgresStore+Push.swift), both `serve` instances
    /// get their push, and the row is released only once pg_stat_activity shows both pushes
    /// waiting on it with their transactions open. PostgreSQL grants the row in arrival order,
    /// so `first` decides the winner: its push 200, the other 409 `fork`, its content stored.
    @Test("two serve instances push two versions of one (device, seq), both transactions open: the first 200, the other 409 fork",
          arguments: [0, 1])
    func sameIDRace(first: Int) async throws {
        let dir = try TemporaryDirectory("pg-same-id")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(.postgres, in: dir)
        let database = try #require(store.database)
        let token = try await store.addUser("alice")
        let servers = [try await store.serve(), try await store.serve()]
        defer { servers.forEach { $0.terminate() } }
        let versions = (0..<2).map { Wire.edit(1, year: 2000 + $0) }
        let bodies = try versions.map { try Wire.push([$0]) }
        let urls = servers.map { $0.url + "/v1/push" }

        let answers = try await TestPostgres.withClient(database.location) { client in
            try await client.withConnection { barrier in
                _ = try await barrier.query("BEGIN", logger: TestPostgres.logger)
                _ = try await barrier.query("SELECT id FROM users WHERE name = 'alice' FOR UPDATE", logger: TestPostgres.logger)
                var pushes: [Int: Task<(Int, [UInt8]), any Error>] = [:]
                var waited = true
                for (arrived, index) in [first, 1 - first].enumerated() where waited {
                    let url = urls[index], body = bodies[index]
                    pushes[index] = Task {
                        let (status, _, bytes) = try await testRequest(.POST, url, token: token, json: body)
                        return (status, bytes)
                    }
                    waited = try await Self.waitForPushesOnTheRow(arrived + 1, database)
                }
                _ = try await barrier.query("COMMIT", logger: TestPostgres.logger)
                #expect(waited, "both pushes waited on the row with their transactions open")
                var answers: [(Int, [UInt8])] = []
                for index in 0..<2 { answers.append(try await pushes[index]?.value ?? (0, [])) }
                return answers
            }
        }
        let digests = try await Self.storedRecords(database).map(EventDigest.hex)
        await database.drop()
        #expect(answers[first].0 == 200, "\(String(decoding: answers[first].1, as: UTF8.self))")
        let refusal = (try? JSONSerialization.jsonObject(with: Data(answers[1 - first].1))) as? [String: Any] ?? [:]
        #expect(answers[1 - first].0 == 409 && refusal["error"] as? String == "fork" && refusal["seq"] as? Int == 1,
                "\(String(decoding: answers[1 - first].1, as: UTF8.self))")
        #expect(digests == [EventDigest.hex(versions[first])], "the stored event is the winner's")
    }

    /// Waits (60 s at most) until `count` backends of the database wait on a lock at the push's
    /// first statement with their transaction open; false if they never do.
    static func waitForPushesOnTheRow(_ count: Int, _ database: TestPostgres.Database) async throws -> Bool {
        for _ in 0..<1_200 {
            let waiting = try await database.sql("""
                SELECT count(*)::text FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND xact_start IS NOT NULL
                  AND query = 'SELECT id, damage FROM users WHERE name = $1 FOR UPDATE'
                """)
            if waiting == [String(count)] { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test("two users claiming one device at once: one owns it, the other gets 403", arguments: 0..<5)
    func deviceClaimRace(round: Int) async throws {
        let database = try await TestPostgres.database()
        let stores = try await Self.stores(2, database)
        let (outcomes, owners) = try await Self.whileRunning(stores[...]) {
            _ = try await Self.addUser(stores[0], "alice")
            _ = try await Self.addUser(stores[0], "bob")
            let outcomes = await withTaskGroup(of: String.self) { group in
                for (index, store) in stores.enumerated() {
                    group.addTask {
                        do {
                            _ = try await store.push(user: index == 0 ? "alice" : "bob", request: PushRequest(records: [WireRecord(Wire.edit(1))]))
                            return "ok"
                        } catch let error as SyncServerError { return error.kind.code } catch { return "\(error)" }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            return (outcomes, try await database.sql("SELECT count(DISTINCT user_id)::text FROM devices"))
        }
        await database.drop()
        #expect(outcomes.sorted() == ["forbidden", "ok"], "round \(round)")
        #expect(owners == ["1"])
    }

    @Test("instances starting at once on an empty database migrate it exactly once")
    func concurrentMigration() async throws {
        let database = try await TestPostgres.database()
        let started = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 { group.addTask { try await database.store().whileRunning { 1 } } }
            return try await group.reduce(0, +)
        }
        let versions = try await database.sql("SELECT version::text FROM schema_migrations ORDER BY schema_migrations.version")
        try await database.store().whileRunning {}
        let after = try await database.sql("SELECT count(*)::text FROM schema_migrations")
        await database.drop()
        #expect(started == 6)
        #expect(versions == PostgresSchema.versions.map(String.init))
        #expect(after == [String(PostgresSchema.versions.count)], "a restart applies nothing twice")
    }

    @Test("verify names a damaged row; that user alone gets 503; repair from a replica restores it; export and delete")
    func integrity() async throws {
        let database = try await TestPostgres.database()
        let store = database.store(clock: DeviceClock(base: StoreFixture.now))
        let server = try await StoreServer.start(store)
        let alice = try await Self.addUser(store, "alice")
        let bob = try await Self.addUser(store, "bob")
        let dir = try TemporaryDirectory("pg-integrity")
        defer { dir.remove() }
        // Two pushes, two frames: a catalogue version (seq 1, a `catalog_versions` row) and seqs
        // 2–7, then seqs 8–13.
        let phone = try Ledger.create(directory: dir.sub("phone"), deviceName: "phone", clock: DeviceClock(base: StoreFixture.now))
        _ = try phone.appendCatalogVersion(176)
        for n in 0..<6 { _ = try phone.edit(UInt32(100 + n), date: .year(2000 + n)) }
        _ = try await SyncSession(connection: try SyncConnection(server: server.url, token: alice)).run(phone)
        for n in 6..<12 { _ = try phone.edit(UInt32(100 + n), date: .year(2000 + n)) }
        _ = try await SyncSession(connection: try SyncConnection(server: server.url, token: alice)).run(phone)
        let held = try #require(phone.versionVector[phone.localDevice])
        _ = try await server.send(.POST, "/v1/push", token: bob, json: try Wire.push([Wire.edit(1)]))
        #expect(try await store.verify(user: nil).isEmpty)

        // One flipped byte in the first frame, and the second frame's row gone.
        let device = Int64(bitPattern: phone.localDevice.rawValue)
        func frame(holding seq: Int) -> String {
            "(user_id, first_position) = (SELECT user_id, frame_position FROM event_runs WHERE device = \(device) AND first_seq <= \(seq) AND last_seq >= \(seq))"
        }
        let flipped = try await database.sql("UPDATE event_frames SET frame = set_byte(frame, 24, get_byte(frame, 24) # 1) WHERE \(frame(holding: 5)) RETURNING 'x'")
        let deleted = try await database.sql("DELETE FROM event_frames WHERE \(frame(holding: 10)) RETURNING 'x'")
        #expect(flipped.count == 1 && deleted.count == 1)
        let damage = try await store.verify(user: nil)
        let (alicePull, aliceBody) = try await server.call(.POST, "/v1/pull", token: alice, try JSONSerialization.jsonObject(with: Data(try Wire.pull())))
        let (bobPull, _) = try await server.call(.POST, "/v1/pull", token: bob, try JSONSerialization.jsonObject(with: Data(try Wire.pull())))
        #expect(damage.map(\.seq) == [1, 8], "the first frame's first seq, the first seq with no frame: \(damage)")
        #expect(damage.map(\.location) == ["event_frames", "event_runs"] && damage.allSatisfy { $0.user == "alice" })
        #expect(alicePull == 503 && (aliceBody["message"] as? String)?.contains("table event_frames") == true)
        #expect(bobPull == 200, "every other user is served")
        await #expect(throws: LedgerError.self) { _ = try await store.export(user: "alice", to: dir.sub("refused"), now: StoreFixture.now) }

        // A replica lacking an event needed changes nothing; the phone's replica repairs.
        let empty = try Ledger.create(directory: dir.sub("empty"), deviceName: "empty")
        empty.close()
        await #expect(throws: LedgerError.self) { _ = try await store.repair(user: "alice", from: dir.sub("empty"), now: StoreFixture.now) }
        phone.close()
        let report = try await store.repair(user: "alice", from: dir.sub("phone"), now: StoreFixture.now)
        #expect(report.restoredEvents == Int(held) && report.quarantine == "quarantine_frames", "\(report)")
        #expect(try await store.verify(user: "alice").isEmpty)
        #expect(try await database.sql("SELECT count(*)::text FROM quarantine_frames") == ["1"], "the damaged frame, set aside")
        let reopened = try Ledger.open(directory: dir.sub("phone"))
        let resync = try await SyncSession(connection: try SyncConnection(server: server.url, token: alice)).run(reopened)
        #expect(resync.pulled == 0 && resync.pushed == 0, "nothing lost, nothing new")

        // Export opens as a ledger with every event; delete leaves no row of alice's and every
        // row of bob's. Every table with a user_id column is counted (a table added later is
        // counted too), and each holds a row of alice's first, so that each count can fail.
        let exported = try await store.export(user: "alice", to: dir.sub("export"), now: StoreFixture.now)
        let copy = try Ledger.open(directory: dir.sub("export"))
        #expect(exported == Int(held) && copy.versionVector[phone.localDevice] == held)
        #expect(try copy.projection() == reopened.projection())
        copy.close()
        reopened.close()
        for user in ["alice", "bob"] {
            try await store.addPairingCode(user: user, code: .random(), now: StoreFixture.now,
                                           expires: StoreFixture.now + 600_000)
        }
        // A key chain entry, as an encrypted account's rotation leaves one (alice's account is
        // plaintext: the rows are here to be counted and deleted).
        _ = try await database.sql("INSERT INTO key_chain (user_id, epoch, wrapped) SELECT id, 1, '\\x00'::bytea FROM users WHERE name = 'alice' RETURNING 'x'")
        // And a sealed name and a staged sealed record, as an encrypted account's push and a
        // conversion leave them.
        _ = try await database.sql("INSERT INTO sealed_names (user_id, fingerprint, position, record) SELECT id, 1, 0, '\\x00'::bytea FROM users WHERE name = 'alice' RETURNING 'x'")
        _ = try await database.sql("INSERT INTO conversion_records (user_id, device, seq, fingerprint, record) SELECT id, 1, 1, 0, '\\x00'::bytea FROM users WHERE name = 'alice' RETURNING 'x'")
        let aliceRows = try await Self.rowsPerTable(of: "alice", database)
        let bobRows = try await Self.rowsPerTable(of: "bob", database)
        // quarantine_events holds rows set aside before schema version 5 only.
        #expect(aliceRows.count >= 9 && aliceRows.filter { $0.key != "quarantine_events" }.values.allSatisfy { $0 > 0 }, "\(aliceRows)")
        try await store.deleteUser("alice")
        let (afterDelete, _) = try await server.send(.POST, "/v1/pull", token: alice, json: try Wire.pull())
        let aliceLeft = try await Self.rowsPerTable(of: "alice", database, id: aliceRows["users"] ?? 0)
        let bobLeft = try await Self.rowsPerTable(of: "bob", database)
        let users = try await store.users().map(\.name)
        await server.stop()
        await store.close()
        await database.drop()
        #expect(afterDelete == 401)
        #expect(aliceLeft.values.allSatisfy { $0 == 0 }, "left behind: \(aliceLeft)")
        #expect(bobLeft == bobRows && bobLeft["event_frames"] == 1 && bobLeft["event_runs"] == 1 && bobLeft["pairing_codes"] == 1, "\(bobLeft)")
        #expect(users == ["bob"])
    }

    /// What a push holds is what the runs hold, not `devices.last_seq` (here set back by hand, as
    /// if rows were written by another transaction): copies of stored ids are compared with the
    /// stored records, an equal one is a duplicate, another version a 409, and nothing of a
    /// refused push stays.
    @Test("ids stored already: equal ones count as duplicates, another version is refused, nothing half-written")
    func storedIDsDecide() async throws {
        let database = try await TestPostgres.database()
        let store = database.store(clock: DeviceClock(base: StoreFixture.now))
        let server = try await StoreServer.start(store)
        let alice = try await Self.addUser(store, "alice")
        var (status, body) = try await server.call(.POST, "/v1/push", token: alice, try JSONSerialization.jsonObject(with: Data(try Wire.push((1...4).map { Wire.edit($0) }))))
        #expect(status == 200 && body["appended"] as? Int == 4)
        _ = try await database.sql("UPDATE devices SET last_seq = 2 RETURNING 'x'")
        let rows = "SELECT first_position || ' ' || count || ' ' || md5(frame) FROM event_frames ORDER BY first_position"
        let before = try await database.sql(rows)

        // Seq 3 in another version: 409, and seq 5 is not kept either.
        (status, body) = try await server.call(.POST, "/v1/push", token: alice, try JSONSerialization.jsonObject(with: Data(try Wire.push(
            [Wire.edit(3, year: 1999), Wire.edit(4), Wire.edit(5)]))))
        #expect(status == 409 && (body["message"] as? String)?.contains("\(EventID(device: Wire.device, seq: 3))") == true, "\(status) \(body)")
        #expect(try await database.sql(rows) == before)

        // The same versions: two duplicates, seq 5 appended.
        (status, body) = try await server.call(.POST, "/v1/push", token: alice, try JSONSerialization.jsonObject(with: Data(try Wire.push(
            [Wire.edit(3), Wire.edit(4), Wire.edit(5)]))))
        #expect(status == 200 && body["appended"] as? Int == 1 && body["duplicates"] as? Int == 2, "\(status) \(body)")
        #expect(try await Self.storedRecords(database).compactMap { $0.eventID?.seq } == [1, 2, 3, 4, 5])
        #expect(try await database.sql("SELECT last_seq::text FROM devices") == ["5"])
    }

    /// Every stored record, frame by frame in (user, position) order, decoded as the store decodes them.
    static func storedRecords(_ database: TestPostgres.Database) async throws -> [LedgerRecord] {
        var records: [LedgerRecord] = []
        let reader = RecordFrames.Reader()
        for bytes in try await storedFrames(database) {
            _ = try bytes.withUnsafeBytes { try reader.forEachRecord(in: $0) { records.append($0.record) } }
        }
        return records
    }

    /// The bytes of every stored frame, in (user, position) order.
    static func storedFrames(_ database: TestPostgres.Database) async throws -> [[UInt8]] {
        try await database.sql("SELECT encode(frame, 'hex') FROM event_frames ORDER BY user_id, first_position").map { hex in
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(try #require(UInt8(hex[index..<next], radix: 16)))
                index = next
            }
            return bytes
        }
    }

    /// Schemas/server-store.md "Frames and runs": the one admission's rule (`AdmittedBatch.keepFrames`)
    /// decides, as on the files store (FramesStoredAsTheyComeTests), whether a push's frames are
    /// stored as they came; a push holding a copy of a stored event is encoded again.
    @Test("a frames push taken whole is stored byte for byte; one holding held copies is encoded again")
    func framesStoredAsTheyCome() async throws {
        let database = try await TestPostgres.database()
        let store = database.store(clock: DeviceClock(base: StoreFixture.now))
        try await store.whileRunning {
            _ = try await Self.addUser(store, "alice")
            let whole = try FramesStoredAsTheyComeTests.received(1...30_000)
            let frames = try #require(whole.frames)
            #expect(frames.frameCount >= 2)
            let answer = try await store.push(user: "alice", records: whole)
            #expect(answer.appended == 60_002)
            #expect(try await Self.storedFrames(database).flatMap { $0 } == frames.bytes)

            let again = try FramesStoredAsTheyComeTests.received(30_000...31_000, names: false)
            let sent = try #require(again.frames)
            #expect(try await store.push(user: "alice", records: again).duplicates == 2)
            let stored = try await Self.storedFrames(database)
            #expect(stored.count > frames.frameCount && !stored.flatMap { $0 }.elementsEqual(frames.bytes + sent.bytes))
            #expect(try await Self.storedRecords(database).count == 60_002 + 2_000)
        }
        await database.drop()
    }

    /// A pull reads frames by their counts, then only the bytes its room takes: a log of many frames, pulled
    /// in pages that end inside frames, by a device holding part of it, arrives whole and once.
    @Test("a pull across many frames and pages brings every record once, as a local merge does")
    func pullAcrossSpans() async throws {
        let database = try await TestPostgres.database()
        let store = database.store()
        let server = try await StoreServer.start(store)
        let token = try await Self.addUser(store, "alice")
        let dir = try TemporaryDirectory("pg-spans")
        defer { dir.remove() }
        let events = 21_234
        let source = try Ledger.create(directory: dir.sub("source"), deviceName: "source")
        var generator = HistoryGenerator(seed: 27, deviceCount: 3, catalog: .synthetic(), expectedEvents: events)
        try HistoryWriter.write(events: events, from: &generator, into: source, batchSize: 7_000)
        _ = try await SyncSession(connection: try SyncConnection(server: server.url, token: token)).run(source)

        // A device holding the source's first 5,000 events (a merge of part of it) pulls the rest.
        let partial = try Ledger.create(directory: dir.sub("partial"), deviceName: "partial")
        let expected = try Ledger.create(directory: dir.sub("expected"), deviceName: "expected")
        var records: [LedgerRecord] = []
        try source.forEachRecord { view, _ in records.append(view.record) }
        try partial.append(records.prefix(5_000).filter { $0.eventID.map { $0.device != source.localDevice } ?? false })
        try expected.append(records.filter { $0.eventID.map { $0.device != source.localDevice } ?? false })
        var session = SyncSession(connection: try SyncConnection(server: server.url, token: token))
        session.framesPageSize = 3_001
        _ = try await session.run(partial)
        for ledger in [partial, expected] {
            for device in source.versionVector.keys where device != source.localDevice {
                #expect(ledger.versionVector[device] == source.versionVector[device], "device \(device)")
            }
        }
        #expect(try partial.projection() == source.projection())
        for ledger in [source, partial, expected] { ledger.close() }
    }

    @Test("a pull that meets a damaged frame, a cut frame or a frame gone answers 503 naming it, and the user stays refused")
    func pullMeetsDamage() async throws {
        let database = try await TestPostgres.database()
        let store = database.store(clock: DeviceClock(base: StoreFixture.now))
        let server = try await StoreServer.start(store)
        let alice = try await Self.addUser(store, "alice"), bob = try await Self.addUser(store, "bob")
        let carol = try await Self.addUser(store, "carol")
        let dir = try TemporaryDirectory("pg-pull-damage")
        defer { dir.remove() }
        for (name, token) in [("alice", alice), ("bob", bob), ("carol", carol)] {
            let phone = try Ledger.create(directory: dir.sub(name), deviceName: name, clock: DeviceClock(base: StoreFixture.now))
            for n in 0..<12 { _ = try phone.edit(UInt32(100 + n), date: .year(2000 + n)) }
            _ = try await SyncSession(connection: try SyncConnection(server: server.url, token: token)).run(phone)
            phone.close()
        }
        func user(_ name: String) -> String { "user_id = (SELECT id FROM users WHERE name = '\(name)')" }
        // Alice: a flipped byte (a checksum fails); bob: the frame cut short; carol: the frame gone
        // (its run names a frame that is not there: her highest event is missing).
        _ = try await database.sql("UPDATE event_frames SET frame = set_byte(frame, 24, get_byte(frame, 24) # 1) WHERE \(user("alice")) RETURNING 'x'")
        _ = try await database.sql("UPDATE event_frames SET frame = substring(frame FROM 1 FOR 20) WHERE \(user("bob")) RETURNING 'x'")
        _ = try await database.sql("DELETE FROM event_frames WHERE \(user("carol")) RETURNING 'x'")
        for (name, token, table, why) in [("alice", alice, "event_frames", "cannot be read"), ("bob", bob, "event_frames", "cannot be read"),
                                          ("carol", carol, "event_runs", "highest event is missing")] {
            let (status, body) = try await server.call(.POST, "/v1/pull", token: token, try JSONSerialization.jsonObject(with: Data(try Wire.pull())))
            let message = body["message"] as? String ?? ""
            #expect(status == 503 && message.contains("table \(table)") && message.contains(why), "\(name): \(status) \(message)")
            let (again, _) = try await server.call(.GET, "/v1/status", token: token)
            #expect(again == 503, "\(name) stays refused until a repair")
        }
    }

    /// The user's rows in every table with a `user_id` column (information_schema, so none is
    /// left out), keyed by table; under "users" the user's id (0 without a row). `id` names a
    /// deleted user.
    static func rowsPerTable(of user: String, _ database: TestPostgres.Database, id: Int64? = nil) async throws -> [String: Int64] {
        let known = try await database.sql("SELECT id::text FROM users WHERE name = '\(user)'").first.flatMap { Int64($0) }
        let userID = id ?? known ?? 0
        var rows: [String: Int64] = ["users": known ?? 0]
        for table in try await database.sql("""
            SELECT table_name::text FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'user_id'
            """) {
            rows[table] = Int64(try await database.sql("SELECT count(*)::text FROM \(table) WHERE user_id = \(userID)").first ?? "") ?? -1
        }
        return rows
    }
}
