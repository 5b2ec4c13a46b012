import Foundation
import LedgerTestSupport
import Testing

/// The operator's commands (`oritsubushi server add-token | users | verify | repair | export |
/// delete-user`) as an operator runs them: the built executable on a real store, next to a real
/// `oritsubushi server serve` process and real client ledgers that sync through it. Every test
/// runs on both stores; only damaging the store and looking below the commands (`StoredState`)
/// differ between them.
@Suite("Server operations (end to end)", .serialized)
struct ServerOpsTests {
    static func token(_ result: CLI.Result, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try CommandLineStore.token(result, sourceLocation: sourceLocation)
    }

    static func usersJSON(_ store: CommandLineStore) async throws -> [String: [String: Any]] {
        let listed = try await store.server("users", "--json")
        listed.expectSuccess()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let users = try #require(object["users"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: users.map { ($0["name"] as? String ?? "", $0) })
    }

    /// A client ledger with `stations` completed, synced through `url` with `token`, one sync
    /// per completion so the server's segment holds one frame per push.
    static func client(_ path: String, device: String, stations: [Int], url: String, token: String) async throws {
        try await CLI.run("init", "--ledger", path, "--device", device, "--no-catalog").expectSuccess()
        for (index, station) in stations.enumerated() {
            try await CLI.run("complete", String(station), "2024-05-\(String(format: "%02d", index % 28 + 1))", "--ledger", path).expectSuccess()
            try await sync(path, url: url, token: token).expectSuccess()
        }
    }

    /// Carol and Alice on a fresh store behind a running server, each with a synced phone.
    static func twoUsers(_ kind: StoreKind, _ dir: TemporaryDirectory, carolStations: [Int]) async throws
        -> (CommandLineStore, ServerProcess, carol: (token: String, ledger: String), alice: (token: String, ledger: String)) {
        let store = try await CommandLineStore.make(kind, in: dir)
        let carolToken = try await store.addUser("carol")
        let aliceToken = try await store.addUser("alice")
        let server = try await store.serve()
        let phone = dir.sub("carol-phone"), alice = dir.sub("alice-phone")
        do {
            try await client(phone, device: "phone", stations: carolStations, url: server.url, token: carolToken)
            try await client(alice, device: "alice", stations: [202919], url: server.url, token: aliceToken)
        } catch {
            server.terminate()
            throw error
        }
        return (store, server, (carolToken, phone), (aliceToken, alice))
    }

    static func sync(_ path: String, url: String, token: String) async throws -> CLI.Result {
        try await CLI.run(["sync", "--server", url, "--ledger", path], environment: ["ORITSUBUSHI_TOKEN": token])
    }

    static func events(_ ledger: String) async throws -> Int {
        let verified = try await CLI.run("verify", "--json", "--ledger", ledger)
        verified.expectSuccess()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(verified.stdout.utf8)) as? [String: Any])
        return try #require(object["events"] as? Int)
    }

    @Test("add-token: both tokens work; revoking one keeps the other; users --json counts", arguments: StoreKind.allCases)
    func tokenLifecycle(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("ops-tokens")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let first = try await store.addUser("carol")
        let second = try Self.token(try await store.server("add-token", "carol"))
        #expect(first != second)
        #expect(try await store.server("add-token", "nobody").status == 64)
        let server = try await store.serve()
        defer { server.terminate() }
        let url = "http://127.0.0.1:\(server.port)"
        let phone = dir.sub("phone"), laptop = dir.sub("laptop")
        try await Self.client(phone, device: "phone", stations: [202919, 120004], url: url, token: first)
        try await Self.client(laptop, device: "laptop", stations: [1130101], url: url, token: second)
        try await Self.sync(phone, url: url, token: first).expectSuccess()

        try await store.server("revoke-token", "carol", "--token", first).expectSuccess()
        await #expect(try Self.sync(phone, url: url, token: first).status == 77, "the revoked token is refused")
        try await Self.sync(laptop, url: url, token: second).expectSuccess()
        await #expect(server.stop() == 0)

        let carol = try await #require(try Self.usersJSON(store)["carol"])
        #expect(carol["active_tokens"] as? Int == 1)
        #expect(carol["revoked_tokens"] as? Int == 1)
        #expect(carol["devices"] as? Int == 2)
        // The three completions and the devices' knowledge marks: all the laptop holds after its last sync.
        let events = try await Self.events(laptop)
        #expect(events > 3 && carol["events"] as? Int == events)
        #expect(carol["last_push"] is String, "recorded by the push (the files store: when the server closed the ledger)")
        #expect(carol["last_pull"] is String)
        let text = try await store.server("users")
        text.expectSuccess()
        #expect(text.stdout.contains("carol: tokens 1 active, 1 revoked; 2 devices; \(events) events; last push 20"))
    }

    @Test("a flipped byte: verify names it, 503 for that user only, repair from a replica, nothing lost",
          arguments: StoreKind.allCases)
    func damageAndRepair(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("ops-repair")
        defer { dir.remove() }
        let (store, server, carol, alice) = try await Self.twoUsers(kind, dir, carolStations: [202919, 120004, 1130101, 1130102])
        defer { server.terminate() }
        let url = server.url, phone = carol.ledger, carolToken = carol.token, aliceToken = alice.token
        try await store.server("verify").expectSuccess()

        let place = try await StoredState.flipByte(of: "carol", in: store)
        let verify = try await store.server("verify")
        #expect(verify.status == 65, "\(verify.stderr)")
        #expect(verify.stderr.contains("user 'carol'") && verify.stderr.contains(place.location) && verify.stderr.contains(place.word),
                "\(verify.stderr)")
        #expect(verify.stdout.contains("damaged: user carol:") && !verify.stdout.contains("alice"))
        let json = try await store.server("verify", "carol", "--json")
        #expect(json.status == 65)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        let damage = try #require((object["damaged"] as? [[String: Any]])?.first)
        #expect(damage["user"] as? String == "carol" && (damage["location"] as? String)?.hasSuffix(place.location) == true, "\(damage)")
        #expect(damage[place.word] is Int, "\(damage)")
        try await store.server("verify", "alice").expectSuccess()

        let refused = try await Self.sync(phone, url: url, token: carolToken)
        #expect(refused.status == 69, "503 for carol: \(refused.stderr)")
        try await Self.sync(alice.ledger, url: url, token: aliceToken).expectSuccess()

        // A replica that lacks carol's events is refused, naming them, and nothing changes.
        let stranger = dir.sub("stranger")
        try await CLI.run("init", "--ledger", stranger, "--device", "stranger", "--no-catalog").expectSuccess()
        let before = try await StoredState.capture(store)
        let lacking = try await store.server("repair", "carol", "--from", stranger)
        #expect(lacking.status == 65, "\(lacking.stderr)")
        #expect(lacking.stderr.contains(stranger) && lacking.stderr.contains("nothing was changed"), "\(lacking.stderr)")
        #expect(try await StoredState.capture(store) == before)

        let repaired = try await store.server("repair", "carol", "--from", phone)
        repaired.expectSuccess()
        #expect(repaired.stdout.contains("moved \(place.moved)") && repaired.stdout.contains(" aside"), "\(repaired.stdout)")
        #expect(try await StoredState.quarantined(of: "carol", in: store) >= 1, "kept, never deleted")
        try await store.server("verify").expectSuccess()

        // Carol syncs again, and a new device of hers gets every event.
        try await CLI.run("complete", "1130103", "2024-06-01", "--ledger", phone).expectSuccess()
        try await Self.sync(phone, url: url, token: carolToken).expectSuccess()
        let laptop = dir.sub("carol-laptop")
        try await CLI.run("init", "--ledger", laptop, "--device", "laptop", "--no-catalog").expectSuccess()
        try await Self.sync(laptop, url: url, token: carolToken).expectSuccess()
        // The laptop holds everything the phone holds, and its own knowledge mark besides.
        await #expect(try Self.events(laptop) > (try Self.events(phone)))
        let phoneExport = try await CLI.run("export", "--format", "tsv", "--ledger", phone)
        #expect(phoneExport.stdout == (try await CLI.run("export", "--format", "tsv", "--ledger", laptop)).stdout)
    }

    /// The flip that `server verify` once called sound. The last frame of a user's newest segment
    /// is below its watermark (Schemas/segment-format.md §5b), so it is damage: verify names the
    /// user, a restarted server answers that user 503 and every other user as before, and nothing
    /// is cut on open.
    @Test("a flipped byte in the last frame of a user's newest segment: verify 65, 503 after a restart, nothing cut")
    func lastFrameFlipIsDamage() async throws {
        let dir = try TemporaryDirectory("ops-last-frame")
        defer { dir.remove() }
        var (store, server, carol, alice) = try await Self.twoUsers(.files, dir, carolStations: [202919, 120004, 1130101])
        defer { server.terminate() }
        let segments = try #require(store.dataDirectory) + "/ledgers/carol/segments"
        let segment = segments + "/00000001.seg"
        var bytes = try Data(contentsOf: URL(fileURLWithPath: segment))
        bytes[bytes.count - 9] ^= 0x10
        try bytes.write(to: URL(fileURLWithPath: segment))
        let damaged = try directorySnapshot(segments)

        let verify = try await store.server("verify")
        #expect(verify.status == 65, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stderr.contains("user 'carol'") && verify.stderr.contains("00000001.seg"), "\(verify.stderr)")
        #expect(!verify.stdout.contains("damaged: user alice"), "\(verify.stdout)")

        await #expect(server.stop() == 0)
        server = try await store.serve()
        let refused = try await Self.sync(carol.ledger, url: server.url, token: carol.token)
        #expect(refused.status == 69, "503 for carol: \(refused.stderr)")
        try await Self.sync(alice.ledger, url: server.url, token: alice.token).expectSuccess()
        #expect(try directorySnapshot(segments) == damaged, "opening cut nothing and moved nothing aside")
    }

    /// An acknowledged push is durable before its answer: SIGKILL right after the answers, and a
    /// fresh device gets every acknowledged event.
    @Test("serve SIGKILLed right after acknowledging pushes: every acknowledged event is there", arguments: StoreKind.allCases)
    func killedAfterAcknowledgements(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("ops-kill-after-ack")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try await store.addUser("carol")
        var server = try await store.serve()
        defer { server.terminate() }
        let phone = dir.sub("phone")
        try await Self.client(phone, device: "phone", stations: [202919, 120004, 1130101, 1130102, 300290], url: server.url, token: token)
        await server.kill()
        server = try await store.serve()
        let laptop = dir.sub("laptop")
        try await CLI.run("init", "--ledger", laptop, "--device", "laptop", "--no-catalog").expectSuccess()
        try await Self.sync(laptop, url: server.url, token: token).expectSuccess()
        let phoneExport = try await CLI.run("export", "--format", "tsv", "--ledger", phone)
        phoneExport.expectSuccess()
        #expect(phoneExport.stdout.split(separator: "\n").count >= 5)
        #expect(phoneExport.stdout == (try await CLI.run("export", "--format", "tsv", "--ledger", laptop)).stdout)
        try await store.server("verify").expectSuccess()
    }

    /// No replica holds what the damage took: `--accept-loss` names the loss and asks for
    /// `--yes`; with it the user is served again, and a device that does hold the events later
    /// gives them back by a normal sync.
    @Test("repair --accept-loss: names what no replica holds, needs --yes, then serves the user again",
          arguments: StoreKind.allCases)
    func acceptLoss(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("ops-loss")
        defer { dir.remove() }
        let (store, server, carol, _) = try await Self.twoUsers(kind, dir, carolStations: [202919, 120004, 1130101, 1130102])
        defer { server.terminate() }
        _ = try await StoredState.flipByte(of: "carol", in: store)
        // The files store's server closes a ledger once it has found it damaged (its 503); on
        // PostgreSQL this sync reads no damaged row and succeeds.
        _ = try await Self.sync(carol.ledger, url: server.url, token: carol.token)
        let stranger = dir.sub("stranger"), other = dir.sub("other")
        for ledger in [stranger, other] {
            try await CLI.run("init", "--ledger", ledger, "--device", "spare", "--no-catalog").expectSuccess()
        }
        let before = try await StoredState.capture(store)
        let asked = try await store.server("repair", "carol", "--from", stranger, "--from", other, "--accept-loss")
        #expect(asked.status == 64, "\(asked.stderr)")
        #expect(asked.stderr.contains("would lose") && asked.stderr.contains("device ") && asked.stderr.contains("--yes"), "\(asked.stderr)")
        #expect(try await StoredState.capture(store) == before, "nothing changed without --yes")
        let refused = try await store.server("repair", "carol", "--from", stranger)
        #expect(refused.status == 65 && refused.stderr.contains("--accept-loss"), "the refusal names the way out: \(refused.stderr)")

        let repaired = try await store.server("repair", "carol", "--from", stranger, "--from", other, "--accept-loss", "--yes")
        repaired.expectSuccess()
        #expect(repaired.stdout.contains("lost ") && repaired.stdout.contains("events no replica held: device "), "\(repaired.stdout)")
        try await store.server("verify").expectSuccess()
        // The phone held everything after all: its sync puts back what was given up.
        try await Self.sync(carol.ledger, url: server.url, token: carol.token).expectSuccess()
        try await store.server("verify").expectSuccess()
        let laptop = dir.sub("carol-laptop")
        try await CLI.run("init", "--ledger", laptop, "--device", "laptop", "--no-catalog").expectSuccess()
        try await Self.sync(laptop, url: server.url, token: carol.token).expectSuccess()
        let phoneExport = try await CLI.run("export", "--format", "tsv", "--ledger", carol.ledger)
        #expect(phoneExport.stdout == (try await CLI.run("export", "--format", "tsv", "--ledger", laptop)).stdout)
    }

    /// Both stores check pushed stations against the catalogue `serve --catalog` names, so a
    /// client cannot tell them apart by that either.
    @Test("serve --catalog: a station the catalogue lacks is refused on either store; no catalogue there is exit 66",
          arguments: StoreKind.allCases)
    func catalogRestrictsStations(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("ops-catalog")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try await store.addUser("carol")
        let catalogue = dir.sub("catalogue")
        try await CLI.run("init", "--ledger", catalogue, "--device", "catalogue").expectSuccess()  // the bundled v176
        let missing = try await CLI.run(["server", "serve"] + store.arguments + ["--catalog", dir.sub("nothing"), "--port", "0"],
                                  environment: [:])
        #expect(missing.status == 66 && missing.stderr.contains("catalog import"), "\(missing.stderr)")

        let server = try await ServerProcess(storeArguments: store.arguments + ["--catalog", catalogue])
        defer { server.terminate() }
        let phone = dir.sub("phone")
        try await Self.client(phone, device: "phone", stations: [202919], url: server.url, token: token)
        try await CLI.run("complete", "9999999", "2024", "--ledger", phone).expectSuccess()
        let refused = try await Self.sync(phone, url: server.url, token: token)
        #expect(refused.status == 65 && refused.stderr.contains("station 9999999"), "\(refused.stderr)")
    }

    @Test("export: a ledger directory that verify and replay open; a non-empty DIR is refused", arguments: StoreKind.allCases)
    func export(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("ops-export")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try await store.addUser("carol")
        let server = try await store.serve()
        defer { server.terminate() }
        let phone = dir.sub("phone")
        try await Self.client(phone, device: "phone", stations: [202919, 120004], url: "http://127.0.0.1:\(server.port)", token: token)
        try await CLI.run("memo", "202919", "丸の内口", "--ledger", phone).expectSuccess()
        try await Self.sync(phone, url: "http://127.0.0.1:\(server.port)", token: token).expectSuccess()

        let output = dir.sub("export")
        let exported = try await store.server("export", "carol", "--output", output)
        exported.expectSuccess()
        #expect(exported.stdout.contains("3 events"))
        await #expect(try Self.events(output) == 3)
        let replay = try await CLI.run("replay", "--ledger", output)
        replay.expectSuccess()
        #expect(replay.stdout.contains("丸の内口"))
        // The export merges back into the device's ledger as nothing new.
        let merged = try await CLI.run("merge", output, "--ledger", phone)
        merged.expectSuccess()
        #expect(merged.stdout.contains("merged 0 events"), "\(merged.stdout)")

        let again = try await store.server("export", "carol", "--output", output)
        #expect(again.status == 64 && again.stderr.contains("not empty"))
        #expect(try await store.server("export", "nobody", "--output", dir.sub("none")).status == 66)
    }

    @Test("delete-user: refused without --yes (nothing changed); then no file or row, no token, not listed",
          arguments: StoreKind.allCases)
    func deleteUser(_ kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("ops-delete")
        defer { dir.remove() }
        let (store, server, carol, alice) = try await Self.twoUsers(kind, dir, carolStations: [202919, 120004])
        defer { server.terminate() }
        let url = server.url, phone = carol.ledger, carolToken = carol.token, aliceToken = alice.token

        // A pairing code of hers too: the one kind of her data no sync writes.
        try await store.server("pair", "carol", "--url", url).expectSuccess()
        let before = try await StoredState.capture(store)
        #expect(try await !StoredState.leftovers(of: "carol", token: carolToken, in: store).isEmpty, "the probe sees her data")
        let unconfirmed = try await store.server("delete-user", "carol")
        #expect(unconfirmed.status == 64 && unconfirmed.stderr.contains("--yes"))
        #expect(try await StoredState.capture(store) == before, "nothing changed")

        try await store.server("delete-user", "carol", "--yes").expectSuccess()
        await #expect(try Self.sync(phone, url: url, token: carolToken).status == 77, "her token gets 401")
        try await Self.sync(alice.ledger, url: url, token: aliceToken).expectSuccess()
        await #expect(try Self.usersJSON(store)["carol"] == nil)
        await #expect(try Self.usersJSON(store)["alice"] != nil)
        await #expect(server.stop() == 0)
        let left = try await StoredState.leftovers(of: "carol", token: carolToken, in: store)
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(try await store.server("delete-user", "carol", "--yes").status == 64)
    }
}
