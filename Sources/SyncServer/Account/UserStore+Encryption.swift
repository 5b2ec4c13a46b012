import LedgerCore
import LedgerSync

/// An end-to-end encrypted account's entry in users.json (Schemas/server-store.md, "Files
/// store"; Schemas/encryption.md §11): every change under the file's flock, in one replacement of
/// the file, so a rotation's new epoch, key chain entry and fingerprint appear together or not at all.
extension UserStore {
    /// The user's encryption; nil for a plaintext account. Refuses an unknown user as its token
    /// would be (the user was deleted since the token was checked).
    package func encryption(of name: String) throws -> AccountEncryption? {
        guard let user = try load().users.first(where: { $0.name == name }) else { throw Self.deletedUser }
        return try user.encryption.map { try Self.accountEncryption($0, user: name) }
    }

    /// `POST /v1/account/key` (`AccountEncryption.registering`).
    package func registerKey(user name: String, fingerprint: String) throws -> AccountEncryption {
        try changeEncryption(of: name) { try $0.registering(fingerprint) }
    }

    /// `POST /v1/account/rotation` (`AccountEncryption.rotating`).
    package func rotateKey(user name: String, to epoch: UInt32, previousWrapped: [UInt8], fingerprint: String) throws -> AccountEncryption {
        try changeEncryption(of: name) { try $0.rotating(to: epoch, previousWrapped: previousWrapped, fingerprint: fingerprint) }
    }

    /// The last step of a conversion (Schemas/encryption.md §9): a plaintext account becomes
    /// encrypted at epoch 1 with the key `fingerprint`, and forgets its devices' names in the
    /// clear (its tokens' and its unused codes'; the devices name themselves sealed, §8); one
    /// marked so already stays as it is.
    package func markEncrypted(user name: String, fingerprint: String) throws -> AccountEncryption {
        try withLock {
            var file = try load()
            guard let index = file.users.firstIndex(where: { $0.name == name }) else { throw Self.deletedUser }
            if let entry = file.users[index].encryption { return try Self.accountEncryption(entry, user: name) }
            let marked = AccountEncryption(epoch: 1, fingerprint: fingerprint)
            file.users[index].encryption = Self.entry(marked)
            for token in file.users[index].tokens.indices {
                if let name = file.users[index].tokens[token].device, !SealedDeviceName.isSealed(name) { file.users[index].tokens[token].device = nil }
            }
            for code in (file.users[index].pairing ?? []).indices { file.users[index].pairing![code].device = nil }
            try save(file)
            return marked
        }
    }

    /// Reads, changes and writes back the user's encryption under the lock; an unchanged one
    /// (a registration sent again) is not written.
    private func changeEncryption(of name: String,
                                  _ change: (AccountEncryption) throws -> AccountEncryption) throws -> AccountEncryption {
        try withLock {
            var file = try load()
            guard let index = file.users.firstIndex(where: { $0.name == name }) else { throw Self.deletedUser }
            guard let entry = file.users[index].encryption else { throw AccountEncryption.plaintextAccount }
            let current = try Self.accountEncryption(entry, user: name)
            let changed = try change(current)
            guard changed != current else { return current }
            file.users[index].encryption = Self.entry(changed)
            try save(file)
            return changed
        }
    }

    /// A stored entry as the value the stores share; a malformed one is damage of users.json.
    static func accountEncryption(_ entry: EncryptionEntry, user: String) throws -> AccountEncryption {
        var chain: [UInt32: [UInt8]] = [:]
        for (epoch, hex) in entry.keyChain {
            guard let epoch = UInt32(epoch), let wrapped = AccountEncryption.wrappedKey(hex: hex) else {
                throw LedgerError(.corruption, "user '\(user)''s key_chain in the user file holds an entry that is not an epoch and 128 hex digits")
            }
            chain[epoch] = wrapped
        }
        return AccountEncryption(epoch: entry.epoch, fingerprint: entry.fingerprint, keyChain: chain)
    }

    /// The value as stored: epochs as decimal keys, wrapped keys as lowercase hex.
    static func entry(_ encryption: AccountEncryption) -> EncryptionEntry {
        EncryptionEntry(epoch: encryption.epoch, fingerprint: encryption.fingerprint,
                        keyChain: Dictionary(uniqueKeysWithValues: encryption.keyChain.map { (String($0.key), AccountEncryption.hex($0.value)) }))
    }

    /// A user deleted since its token was checked: refused as the token would now be.
    static var deletedUser: SyncServerError {
        SyncServerError(.unauthorized, "the token is not valid (unknown or revoked)")
    }
}
