import LedgerCore

/// An end-to-end encrypted account's key epoch, fingerprint and key chain on the files store: in
/// the user's entry of users.json (`UserStore.encryption`), read through the token index (which
/// every request already keeps fresh) and changed under the file's flock.
extension FilesStore {
    package func accountEncryption(user: String) async throws -> AccountEncryption? {
        try await finishInterruptedConversion(of: user)
        return try tokens.encryption(of: user)
    }

    package func registerKey(user: String, fingerprint: String) async throws -> AccountEncryption {
        let accounts = UserStore(dataDirectory: dataDirectory, fileSystem: fileSystem)
        return try await io { try accounts.registerKey(user: user, fingerprint: fingerprint) }
    }

    package func rotateKey(user: String, to epoch: UInt32, previousWrapped: [UInt8], fingerprint: String) async throws -> AccountEncryption {
        let accounts = UserStore(dataDirectory: dataDirectory, fileSystem: fileSystem)
        return try await io { try accounts.rotateKey(user: user, to: epoch, previousWrapped: previousWrapped, fingerprint: fingerprint) }
    }
}
