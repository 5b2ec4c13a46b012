import Foundation
import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

/// The server's users and their bearer tokens, in `DATA/users.json`. Only SHA-256 hashes of
/// tokens are stored; a token is shown once, when it is made. Every change replaces the file by
/// rename, so a running server (`TokenIndex`) sees it on its next request.
package struct UserStore: Sendable {
    package struct TokenEntry: Codable, Sendable, Equatable {
        package var sha256: String
        package var created: String
        package var revoked: String?
    }

    package struct User: Codable, Sendable, Equatable {
        package var name: String
        package var tokens: [TokenEntry]
    }

    private struct File: Codable {
        var version = 1
        var users: [User] = []
    }

    package static let fileName = "users.json"
    package let dataDirectory: String
    private let fileSystem = PosixFileSystem()

    package init(dataDirectory: String) { self.dataDirectory = dataDirectory }

    package var path: String { Path.join(dataDirectory, Self.fileName) }

    /// A user name is also a directory name: 1–64 of [A-Za-z0-9._-], not starting with '.'.
    package static func validate(name: String) throws {
        let allowed = name.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x2e || c == 0x5f || c == 0x2d
        }
        guard !name.isEmpty, name.utf8.count <= 64, allowed, !name.hasPrefix(".") else {
            throw LedgerError(.usage, "user name '\(name)' must be 1 to 64 letters, digits, '.', '_' or '-' and not start with '.'")
        }
    }

    package func users() throws -> [User] { try load().users }

    /// Every active token's hash → its user (`TokenIndex`).
    package func tokenIndex() throws -> [String: String] {
        var index: [String: String] = [:]
        for user in try load().users {
            for entry in user.tokens where entry.revoked == nil { index[entry.sha256] = user.name }
        }
        return index
    }

    /// The user a token belongs to, if the token is known and not revoked.
    package func authenticate(token: String) -> String? {
        guard !token.isEmpty, let index = try? tokenIndex() else { return nil }
        return index[TokenHash.hex(token)]
    }

    /// Creates a user and returns its first token (the only time the token is available).
    package func addUser(_ name: String, now: Int64) throws -> String {
        let token = Self.newToken()
        try addUser(name, tokenHash: TokenHash.hex(token), now: now)
        return token
    }

    /// Creates a user with one token, given as its hash. Refuses a name that exists.
    package func addUser(_ name: String, tokenHash: String, now: Int64) throws {
        try Self.validate(name: name)
        try withLock {
            var file = try load()
            guard !file.users.contains(where: { $0.name == name }) else {
                throw LedgerError(.usage, "user '\(name)' already exists in \(dataDirectory)")
            }
            file.users.append(User(name: name, tokens: [TokenEntry(sha256: tokenHash, created: ISO8601.format(milliseconds: now))]))
            try save(file)
        }
    }

    /// A new token for an existing user (shown once); the user's other tokens keep working.
    package func addToken(user name: String, now: Int64) throws -> String {
        let token = Self.newToken()
        try addToken(user: name, tokenHash: TokenHash.hex(token), now: now)
        return token
    }

    /// Adds one more token (its hash) to an existing user.
    package func addToken(user name: String, tokenHash: String, now: Int64) throws {
        try withLock {
            var file = try load()
            guard let index = file.users.firstIndex(where: { $0.name == name }) else {
                throw LedgerError(.usage, "no user '\(name)' in \(dataDirectory)")
            }
            file.users[index].tokens.append(TokenEntry(sha256: tokenHash, created: ISO8601.format(milliseconds: now)))
            try save(file)
        }
    }

    /// Removes a user and all their tokens from users.json (their stored events are the
    /// store's to remove).
    package func deleteUser(_ name: String) throws {
        try withLock {
            var file = try load()
            guard let index = file.users.firstIndex(where: { $0.name == name }) else {
                throw LedgerError(.usage, "no user '\(name)' in \(dataDirectory)")
            }
            file.users.remove(at: index)
            try save(file)
        }
    }

    /// Revokes one token of `name` (or all of them when `token` is nil) and returns how many.
    /// `name` may also be a token itself: then that token is revoked, whoever owns it.
    package func revoke(user name: String, token: String?, now: Int64) throws -> (user: String, count: Int) {
        try revoke(user: name, tokenHash: token.map(TokenHash.hex), now: now)
    }

    /// The same with the token given as its hash.
    package func revoke(user name: String, tokenHash: String?, now: Int64) throws -> (user: String, count: Int) {
        try withLock {
            var file = try load()
            var hash = tokenHash
            var index = file.users.firstIndex(where: { $0.name == name })
            if index == nil, hash == nil {
                let named = TokenHash.hex(name)
                index = file.users.firstIndex { $0.tokens.contains { $0.sha256 == named && $0.revoked == nil } }
                if index != nil { hash = named }
            }
            guard let index else {
                throw LedgerError(.usage, "no user or active token '\(name.hasPrefix("ots_") ? "ots_…" : name)' in \(dataDirectory)")
            }
            var count = 0
            for t in file.users[index].tokens.indices where file.users[index].tokens[t].revoked == nil {
                if let hash, file.users[index].tokens[t].sha256 != hash { continue }
                file.users[index].tokens[t].revoked = ISO8601.format(milliseconds: now)
                count += 1
            }
            guard count > 0 else {
                throw LedgerError(.usage, hash == nil ? "user '\(file.users[index].name)' has no active token" : "that token is not an active token of user '\(file.users[index].name)'")
            }
            try save(file)
            return (file.users[index].name, count)
        }
    }

    /// 32 random bytes as hex, prefixed so that a leaked token is recognisable.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        var text = "ots_"
        for _ in 0..<32 {
            let byte = UInt8.random(in: 0...255, using: &generator)
            text += byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }
        return text
    }

    private func load() throws -> File {
        guard fileSystem.fileExists(path) else { return File() }
        do {
            return try JSONDecoder().decode(File.self, from: Data(try fileSystem.readFile(path)))
        } catch let error as LedgerError {
            throw error
        } catch {
            throw LedgerError(.corruption, "the user file is not valid JSON", file: path)
        }
    }

    private func save(_ file: File) throws {
        if !fileSystem.directoryExists(dataDirectory) { try fileSystem.createDirectory(dataDirectory) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try fileSystem.writeAtomically(path, Array(try encoder.encode(file)))
    }

    /// Serialises writers (several `server` commands at once) with an flock on DATA/users.lock.
    private func withLock<T>(_ body: () throws -> T) throws -> T {
        if !fileSystem.directoryExists(dataDirectory) { try fileSystem.createDirectory(dataDirectory) }
        let lockPath = Path.join(dataDirectory, "users.lock")
        let fd = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw LedgerError(.io, "cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard flock(fd, LOCK_EX) == 0 else { throw LedgerError(.io, "cannot lock \(lockPath)") }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
