import Foundation
import LedgerCore
import SyncServer
import Testing

@Suite("Server users and tokens")
struct UserStoreTests {
    @Test("tokens authenticate their own user only, and revoking by name or by token works")
    func tokens() throws {
        let dir = try ScratchDirectory("users")
        defer { dir.remove() }
        let store = UserStore(dataDirectory: dir.sub("data"))
        let alice = try store.addUser("alice", now: 0)
        let bob = try store.addUser("bob", now: 0)
        #expect(alice.hasPrefix("ots_") && alice.count == 68 && alice != bob)
        #expect(store.authenticate(token: alice) == "alice")
        #expect(store.authenticate(token: bob) == "bob")
        #expect(store.authenticate(token: "") == nil)
        #expect(store.authenticate(token: String(alice.dropLast())) == nil)
        // Revoking by the token itself finds its owner.
        let byToken = try store.revoke(user: bob, token: nil, now: 1)
        #expect(byToken.user == "bob" && byToken.count == 1)
        #expect(store.authenticate(token: bob) == nil)
        #expect(store.authenticate(token: alice) == "alice")
        #expect(throws: LedgerError.self) { try store.revoke(user: "bob", token: nil, now: 2) }
        #expect(try store.revoke(user: "alice", token: nil, now: 2).count == 1)
        #expect(store.authenticate(token: alice) == nil)
    }

    @Test("user names are safe directory names", arguments: ["", ".hidden", "../escape", "a/b", "spaces here", String(repeating: "x", count: 65)])
    func badNames(_ name: String) throws {
        let dir = try ScratchDirectory("names")
        defer { dir.remove() }
        let error = #expect(throws: LedgerError.self) { try UserStore(dataDirectory: dir.path).addUser(name, now: 0) }
        #expect(error?.exitCode == 64)
    }

    @Test("a duplicate user is refused and the file keeps only hashes")
    func duplicate() throws {
        let dir = try ScratchDirectory("dup")
        defer { dir.remove() }
        let store = UserStore(dataDirectory: dir.path)
        let token = try store.addUser("carol", now: 0)
        #expect(throws: LedgerError.self) { try store.addUser("carol", now: 0) }
        let text = try String(contentsOfFile: dir.sub(UserStore.fileName), encoding: .utf8)
        #expect(!text.contains(token))
        #expect(try store.users().map(\.name) == ["carol"])
    }
}
