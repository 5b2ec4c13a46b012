import Foundation
import LedgerCore

#if canImport(Glibc)
import Glibc
#endif

/// The server's users and their bearer tokens, in `DATA/users.json`. Only SHA-256 hashes of
/// tokens are stored; a token is shown once, when it is made. Every change replaces the file by
/// rename, so a running server (`TokenIndex`) sees it on its next request. Every write goes through
/// `fileSystem` (the crash tests give it a crashable one).
package struct UserStore: Sendable {
    package struct TokenEntry: Codable, Sendable, Equatable {
        package var sha256: String
        package var created: String
        package var revoked: String?
        /// The device a pairing code gave this token to (`POST /v1/pair`'s `device_name`).
        package var device: String?
    }

    /// A one-time pairing code of `server pair` (its scrypt key, `PairingCode.storedKey`), until
    /// it is used or expires. An entry of an older version holds a plain SHA-256 instead of `key`:
    /// it is never matched and is dropped at the next change.
    package struct PairingEntry: Codable, Sendable, Equatable {
        package var key: String?
        package var created: String
        package var expires: String
        /// The name the device that redeems it gets (a code of `POST /v1/devices/link --name`).
        package var device: String?
        /// An encrypted account's key wrapped for the link (Schemas/encryption.md §4 purpose 1),
        /// 128 hex digits, handed to the device that redeems the code and gone with the code.
        package var wrappedKey: String?

        enum CodingKeys: String, CodingKey {
            case key, created, expires, device
            case wrappedKey = "wrapped_key"
        }
    }

    /// An end-to-end encrypted account's entry (`AccountEncryption`; Schemas/server-store.md):
    /// absent for a plaintext account, and in files written before encryption existed.
    package struct EncryptionEntry: Codable, Sendable, Equatable {
        package var epoch: UInt32
        package var fingerprint: String?
        /// Epoch (decimal) → the wrapped key, 128 hex digits.
        package var keyChain: [String: String]

        enum CodingKeys: String, CodingKey {
            case epoch, fingerprint
            case keyChain = "key_chain"
        }
    }

    package struct User: Codable, Sendable, Equatable {
        package var name: String
        package var tokens: [TokenEntry]
        /// A random id given when the user is made (absent in files written before it existed):
        /// a user deleted and made again under the same name never shares it, so a running
        /// `serve` drops whatever it held for the old one (Schemas/server-store.md, "Files store").
        package var generation: String?
        /// Pairing codes not yet used (a used or expired one is kept until the next change, so
        /// that it is refused as used (410) rather than unknown (401)).
        package var pairing: [PairingEntry]?
        package var usedPairing: [String]?
        /// Set for an end-to-end encrypted account (`server add-user --encrypted`).
        package var encryption: EncryptionEntry?
    }

    struct File: Codable {
        var version = 1
        var users: [User] = []
        /// The salt of every pairing code's key (`PairingSalt`), made with the first code.
        var pairingSalt: String?

        enum CodingKeys: String, CodingKey {
            case version, users
            case pairingSalt = "pairing_salt"
        }
    }

    package static let fileName = "users.json"
    package let dataDirectory: String
    private let fileSystem: any FileSystem

    package init(dataDirectory: String, fileSystem: any FileSystem = PosixFileSystem()) {
        (self.dataDirectory, self.fileSystem) = (dataDirectory, fileSystem)
    }

    package var path: String { Path.join(dataDirectory, Self.fileName) }
    /// users.json's stamp, for `TokenIndex`'s cache; nil on a file system in memory.
    var stamp: FileStamp? { fileSystem.stamp(path) }

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
    package func tokenIndex() throws -> [String: String] { try accountIndex().tokens }

    /// Every active token's hash → its user, every user → its generation ("" for a user made
    /// before generations existed), and every revoked token's hash → when it was revoked.
    package func accountIndex() throws -> AccountIndex {
        var index = AccountIndex()
        for user in try load().users {
            index.generations[user.name] = user.generation ?? ""
            if let entry = user.encryption { index.encryptions[user.name] = try Self.accountEncryption(entry, user: user.name) }
            for entry in user.tokens {
                if let revoked = entry.revoked {
                    index.revocations[entry.sha256] = ISO8601.parseMilliseconds(revoked) ?? 0
                } else {
                    index.tokens[entry.sha256] = user.name
                }
            }
        }
        return index
    }

    /// `accountIndex`'s answer.
    package struct AccountIndex: Sendable {
        package var tokens: [String: String] = [:]
        package var generations: [String: String] = [:]
        package var revocations: [String: Int64] = [:]
        /// Every end-to-end encrypted account's encryption (a plaintext account has none).
        package var encryptions: [String: AccountEncryption] = [:]
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

    /// Creates a user with one token, given as its hash. Refuses a name that exists. With
    /// `encrypted`, the account is end-to-end encrypted at key epoch 1, no key registered yet.
    package func addUser(_ name: String, tokenHash: String, encrypted: Bool = false, now: Int64) throws {
        try Self.validate(name: name)
        try withLock {
            var file = try load()
            guard !file.users.contains(where: { $0.name == name }) else {
                throw LedgerError(.usage, "user '\(name)' already exists in \(dataDirectory)")
            }
            file.users.append(User(name: name, tokens: [TokenEntry(sha256: tokenHash, created: ISO8601.format(milliseconds: now))],
                                   generation: Self.newGeneration(),
                                   encryption: encrypted ? Self.entry(AccountEncryption.new) : nil))
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

    /// Stores a pairing code's key for an existing user, valid until `expires` (Unix ms); the
    /// file's salt is made with its first code.
    package func addPairingCode(user name: String, code: PairingCode, deviceName: String? = nil, wrappedKey: [UInt8]? = nil,
                                now: Int64, expires: Int64) throws {
        try withLock {
            var file = try load()
            guard let index = file.users.firstIndex(where: { $0.name == name }) else {
                throw LedgerError(.usage, "no user '\(name)' in \(dataDirectory); add one with `server add-user`")
            }
            let salt = try Self.salt(of: file) ?? PairingSalt.random()
            file.pairingSalt = salt.hex
            Self.prune(&file, now: now)
            file.users[index].pairing = (file.users[index].pairing ?? []) + [PairingEntry(
                key: try code.storedKey(salt: salt), created: ISO8601.format(milliseconds: now), expires: ISO8601.format(milliseconds: expires),
                device: deviceName, wrappedKey: wrappedKey.map { AccountEncryption.hex($0) })]
            try save(file)
        }
    }

    /// Exchanges a pairing code once for a new token (its hash) named after the device (the
    /// code's own name first; made distinct among the user's active devices), in one replacement
    /// of users.json (a crash leaves the code unused and no token, or the code used and the token
    /// made).
    package func redeemPairingCode(_ code: PairingCode, tokenHash: String, deviceName: String, now: Int64) throws -> Pairing {
        try withLock {
            var file = try load()
            guard let salt = try Self.salt(of: file) else { throw PairingCode.unknown }
            let codeHash = try code.storedKey(salt: salt)
            for index in file.users.indices {
                if file.users[index].usedPairing?.contains(codeHash) == true {
                    throw PairingCode.gone
                }
                guard let code = file.users[index].pairing?.firstIndex(where: { $0.key == codeHash }) else { continue }
                let entry = file.users[index].pairing![code]
                if let expires = ISO8601.parseMilliseconds(entry.expires), expires <= now {
                    throw PairingCode.gone
                }
                let taken = Set(file.users[index].tokens.filter { $0.revoked == nil }.compactMap(\.device))
                // An encrypted account keeps no name in the clear (encryption.md §8, "Device names").
                let name = file.users[index].encryption != nil ? nil : DeviceNaming.distinct(entry.device ?? deviceName, taken: taken)
                file.users[index].pairing!.remove(at: code)
                file.users[index].usedPairing = (file.users[index].usedPairing ?? []) + [codeHash]
                file.users[index].tokens.append(TokenEntry(sha256: tokenHash, created: ISO8601.format(milliseconds: now), device: name))
                Self.prune(&file, now: now)
                try save(file)
                return Pairing(user: file.users[index].name, device: UserDevice(tokenHash: tokenHash, name: name, created: now, lastSync: nil),
                               epoch: file.users[index].encryption?.epoch,
                               wrappedKey: entry.wrappedKey.flatMap { AccountEncryption.wrappedKey(hex: $0) })
            }
            throw PairingCode.unknown
        }
    }

    /// Forgets codes that expired (or were used) more than a day ago: the file stays small, and
    /// a code just used or just expired is still refused as such.
    static func prune(_ file: inout File, now: Int64) {
        for index in file.users.indices {
            file.users[index].pairing?.removeAll { $0.key == nil || (ISO8601.parseMilliseconds($0.expires) ?? 0) < now - 86_400_000 }
            if file.users[index].pairing?.isEmpty == true { file.users[index].pairing = nil }
            if let used = file.users[index].usedPairing, used.count > 32 { file.users[index].usedPairing = Array(used.suffix(32)) }
        }
    }

    /// The file's pairing salt; nil before its first code.
    static func salt(of file: File) throws -> PairingSalt? {
        guard let hex = file.pairingSalt else { return nil }
        guard let salt = PairingSalt(hex: hex) else {
            throw LedgerError(.corruption, "the user file's pairing_salt is not 32 hex digits")
        }
        return salt
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
    package func revoke(user name: String, tokenHash: String?, device: String? = nil, now: Int64) throws -> (user: String, count: Int) {
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
            if let device {
                let named = file.users[index].tokens.filter { $0.revoked == nil && DeviceNaming.names($0.device, $0.sha256, device) }
                try DeviceNaming.requireOne(named.map(\.sha256), device: device, user: file.users[index].name)
            }
            var count = 0
            for t in file.users[index].tokens.indices where file.users[index].tokens[t].revoked == nil {
                if let hash, file.users[index].tokens[t].sha256 != hash { continue }
                if let device, !DeviceNaming.names(file.users[index].tokens[t].device, file.users[index].tokens[t].sha256, device) { continue }
                file.users[index].tokens[t].revoked = ISO8601.format(milliseconds: now)
                count += 1
            }
            guard count > 0 else {
                throw LedgerError(.usage, device.map { "user '\(file.users[index].name)' has no active token of device '\($0)'" }
                                  ?? (hash == nil ? "user '\(file.users[index].name)' has no active token" : "that token is not an active token of user '\(file.users[index].name)'"))
            }
            try save(file)
            return (file.users[index].name, count)
        }
    }

    /// 8 random bytes as hex: a user's generation.
    static func newGeneration() -> String {
        String(UInt64.random(in: 1...UInt64.max), radix: 16)
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

    func load() throws -> File {
        guard fileSystem.fileExists(path) else { return File() }
        do {
            return try JSONDecoder().decode(File.self, from: Data(try fileSystem.readFile(path)))
        } catch let error as LedgerError {
            throw error
        } catch {
            throw LedgerError(.corruption, "the user file is not valid JSON", file: path)
        }
    }

    func save(_ file: File) throws {
        try fileSystem.createDirectoryDurably(dataDirectory)
        try fileSystem.writeAtomically(path, try JSONEncoding.file.encode(file))
    }

    /// Serialises writers (several `server` commands at once) with a lock on DATA/users.lock
    /// (`FileSystem.withExclusiveFileLock`: none in memory, where no other process is).
    func withLock<T>(_ body: () throws -> T) throws -> T {
        try fileSystem.createDirectoryDurably(dataDirectory)
        return try fileSystem.withExclusiveFileLock(Path.join(dataDirectory, "users.lock"), body)
    }
}
