import Foundation
import LedgerTestSupport
import SyncServer
import SyncServerPostgres
import Testing

/// `oritsubushi device link | join | list | rename | revoke | sign-out` through the built binary
/// against a real `serve` on both stores (Schemas/sync-api.yaml `/v1/devices…`).
@Suite struct DeviceLinkTests {
    @Test("a device links another: join syncs, list shows both, revoke signs it out with a sentence", arguments: StoreKind.allCases)
    func linkJoinListRevoke(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("device-link")
        defer { dir.remove() }
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try await store.addUser("hana")
        let server = try await store.serve()
        defer { server.terminate() }
        let laptop = dir.path + "/laptop", desk = dir.path + "/desk"
        try await CLI.run("init", "--ledger", laptop, "--device", "laptop", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "1130101", "2024-05-03", "--ledger", laptop).expectSuccess()
        try await CLI.run("sync", "--server", server.url, "--token", token, "--ledger", laptop).expectSuccess()

        let linked = try await CLI.run("device", "link", "--ledger", laptop, "--name", "desk", "--ttl", "5m")
        linked.expectSuccess()
        let link = try #require(linked.stdout.split(separator: "\n").last.map(String.init))
        #expect(link.hasPrefix(server.url + "/app/#pair="), "\(linked.stdout)")

        let joined = try await CLI.run("device", "join", link, "--ledger", desk)
        joined.expectSuccess()
        #expect(joined.stdout.contains("joined user hana at \(server.url) as device 'desk'"), "\(joined.stdout)")
        #expect(joined.stdout.contains("pulled 1 event"), "the join synced: \(joined.stdout)")
        let again = try await CLI.run("device", "join", link, "--ledger", dir.path + "/third")
        #expect(again.status == 77 && again.stderr.contains("used already or has expired"), "single use: \(again.stderr)")

        let listed = try await CLI.run("device", "list", "--json", "--ledger", desk)
        listed.expectSuccess()
        let devices = try listed.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(devices.count == 2, "\(listed.stdout)")
        let mine = try #require(devices.first { $0["this_device"] as? Bool == true }, "\(listed.stdout)")
        #expect(mine["name"] as? String == "desk" && mine["last_sync"] is String, "\(mine)")
        #expect(devices.contains { $0["this_device"] as? Bool == false && $0["name"] is NSNull }, "the laptop's token has no name")

        // Names are distinct: a rename to the name another device carries is refused.
        let renamedLaptop = try await CLI.run("device", "rename", "laptop", "--ledger", laptop)
        renamedLaptop.expectSuccess()
        let clash = try await CLI.run("device", "rename", "laptop", "--ledger", desk)
        #expect(clash.status == 65 && clash.stderr.contains("already named 'laptop'"), "\(clash.stderr)")

        let unknown = try await CLI.run("device", "revoke", "phone", "--ledger", laptop)
        #expect(unknown.status == 64 && unknown.stderr.contains("no device named 'phone'"), "\(unknown.stderr)")
        let revoked = try await CLI.run("device", "revoke", "desk", "--ledger", laptop)
        revoked.expectSuccess()
        let refused = try await CLI.run("sync", "--ledger", desk)
        #expect(refused.status == 77 && refused.stderr.contains("this device was signed out"), "\(refused.stderr)")
        #expect(try await CLI.run("sync", "--ledger", laptop).status == 0, "the other device keeps syncing")

        let out = try await CLI.run("device", "sign-out", "--ledger", laptop)
        out.expectSuccess()
        #expect(!FileManager.default.fileExists(atPath: laptop + "/sync-token"), "the token is forgotten")
        let after = try await CLI.run(["sync", "--ledger", laptop], environment: ["ORITSUBUSHI_TOKEN": token])
        #expect(after.status == 77 && after.stderr.contains("signed out"), "\(after.stderr)")
    }

    @Test("device link and join refuse bad input and change nothing", arguments: [StoreKind.files])
    func refusals(kind: StoreKind) async throws {
        let dir = try TemporaryDirectory("device-refusals")
        defer { dir.remove() }
        let ledger = dir.path + "/l"
        for bad in [["device", "link", "--ttl", "3s"], ["device", "link", "--name", "  "], ["device", "join", "not a link"],
                    ["device", "join", "http://127.0.0.1:1/app/#pair=AB"]] {
            let result = try await CLI.run(bad + ["--ledger", ledger], environment: [:])
            #expect(result.status == 64, "\(bad): \(result.status) \(result.stderr)")
            #expect(!result.stderr.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: ledger), "nothing was created")
        let unreachable = try await CLI.run("device", "join", "http://127.0.0.1:1/app/#pair=ABCDEFGH", "--ledger", ledger)
        #expect(unreachable.status == 69, "\(unreachable.stderr)")
    }

    @Test("revoke-token --device refuses a name several active tokens carry, naming their ids; an id picks one", arguments: StoreKind.allCases)
    func ambiguousDeviceName(kind: StoreKind) async throws {
        // Two tokens of one name, as a version before distinct names could leave them.
        let (one, two) = (TokenHash.hex("ots_one"), TokenHash.hex("ots_two"))
        switch kind {
        case .files:
            let dir = try TemporaryDirectory("device-ambiguous")
            defer { dir.remove() }
            let users = UserStore(dataDirectory: dir.path)
            try users.addUser("alice", tokenHash: TokenHash.hex("ots_first"), now: StoreFixture.now)
            for hash in [one, two] { try users.addToken(user: "alice", tokenHash: hash, now: StoreFixture.now) }
            var text = try String(contentsOfFile: users.path, encoding: .utf8)
            for hash in [one, two] {
                text = text.replacingOccurrences(of: "\"sha256\" : \"\(hash)\"", with: "\"device\" : \"Android Chrome\", \"sha256\" : \"\(hash)\"")
            }
            try text.write(toFile: users.path, atomically: true, encoding: .utf8)
            try await Self.expectAmbiguity(FilesStoreAdministration(dataDirectory: dir.path), one, two, kind)
        case .postgres:
            try TestPostgres.require()
            let database = try await TestPostgres.database()
            let store = database.store()
            try await store.whileRunning {
                try await store.addUser("alice", tokenHash: TokenHash.hex("ots_first"), now: StoreFixture.now)
                for hash in [one, two] { try await store.addToken(user: "alice", tokenHash: hash, now: StoreFixture.now) }
                _ = try await database.sql("UPDATE tokens SET device_name = 'Android Chrome' WHERE hash IN ('\(one)', '\(two)')")
                try await Self.expectAmbiguity(store, one, two, kind)
            }
            await database.drop()
        }
    }

    private static func expectAmbiguity(_ admin: any SyncStoreAdministration, _ one: String, _ two: String, _ kind: StoreKind) async throws {
        do {
            _ = try await admin.revokeTokens(user: "alice", tokenHash: nil, device: "Android Chrome", now: StoreFixture.now)
            Issue.record("\(kind): an ambiguous name was accepted")
        } catch {
            let ids = [one, two].map(UserDevice.id(ofTokenHash:))
            #expect(ids.allSatisfy { "\(error)".contains($0) }, "\(kind): \(error)")
        }
        #expect(try await admin.users().first?.activeTokens == 3, "\(kind): nothing was revoked")
        let picked = try await admin.revokeTokens(user: "alice", tokenHash: nil, device: UserDevice.id(ofTokenHash: one), now: StoreFixture.now)
        #expect(picked.count == 1, "\(kind): the id picks one token")
        #expect(try await admin.users().first?.activeTokens == 2)
    }
}
