import Foundation
import LedgerCore
import SyncServer
import Testing
import LedgerTestSupport

@Suite("Server users and tokens")
struct UserStoreTests {
    @Test("tokens authenticate their own user only, and revoking by name or by token works")
    func tokens() throws {
        let dir = try TemporaryDirectory("users")
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
        let dir = try TemporaryDirectory("names")
        defer { dir.remove() }
        let error = #expect(throws: LedgerError.self) { try UserStore(dataDirectory: dir.path).addUser(name, now: 0) }
        #expect(error?.category == .usage)
    }

    @Test("a duplicate user is refused and the file keeps only hashes")
    func duplicate() throws {
        let dir = try TemporaryDirectory("dup")
        defer { dir.remove() }
        let store = UserStore(dataDirectory: dir.path)
        let token = try store.addUser("carol", now: 0)
        #expect(throws: LedgerError.self) { try store.addUser("carol", now: 0) }
        let text = try String(contentsOfFile: dir.sub(UserStore.fileName), encoding: .utf8)
        #expect(!text.contains(token))
        #expect(try store.users().map(\.name) == ["carol"])
    }

    /// A users.json written before the digest came from swift-crypto (hashes by the hand-written
    /// FIPS 180-4 code, checked against `sha256sum`): its tokens must still authenticate and revoke.
    @Test("an existing users.json keeps working")
    func existingFile() throws {
        let dir = try TemporaryDirectory("existing")
        defer { dir.remove() }
        let token = "ots_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
        let hash = "ae22b3a72fc84b98334d3ba9f6fdfeadf6827bfab57614290e126ba3954e4b57"
        let file = """
            {"users":[{"name":"dana","tokens":[{"created":"2026-01-01T00:00:00.000Z","sha256":"\(hash)"}]}],"version":1}
            """
        try Data(file.utf8).write(to: URL(fileURLWithPath: dir.sub(UserStore.fileName)))
        let store = UserStore(dataDirectory: dir.path)
        #expect(TokenHash.hex(token) == hash)
        #expect(store.authenticate(token: token) == "dana")
        #expect(store.authenticate(token: String(token.dropLast()) + "0") == nil)
        let revoked = try store.revoke(user: token, token: nil, now: 1)
        #expect(revoked.user == "dana" && revoked.count == 1)
        #expect(store.authenticate(token: token) == nil)
    }

    @Test("token hashes are SHA-256 (FIPS 180-4 vectors) in lowercase hex", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func vectors(_ text: String, _ hex: String) {
        #expect(TokenHash.hex(text) == hex)
    }
}
