import LedgerCore
import LedgerSync

/// What a device settles with the server before it syncs (Schemas/encryption.md §11 "The
/// account", "The client"): whether the account is end-to-end encrypted, and then the keys to
/// seal and open its records with. The first device of an account made with `server add-user
/// --encrypted` makes the account's key (random, never from a password), keeps it in its key
/// file, registers its fingerprint, and writes the recovery kit; any other device must already
/// hold the key (a link, the kit): it never pushes plaintext.
package enum AccountKeys {
    package struct Prepared: Sendable {
        /// Nil for a plaintext account.
        package var keys: KeyRing?
        /// Where the recovery kit was written, when this device made the account's key now.
        package var kitWritten: String?
        /// The account is encrypted and this device's token carries no sealed name yet
        /// (`DeviceNameSealing.nameIfOwed`).
        package var owesSealedName = false
    }

    /// Asks the server about the account and returns the keys to sync with.
    /// - Throws: `LedgerError` `.permission` when the account is encrypted and this device lacks
    ///   its key or holds another (the sentence says how to get it), and what the requests and
    ///   the key file throw.
    package static func prepare(connection: SyncConnection, ledgerDirectory: String,
                                fileSystem: any FileSystem = PosixFileSystem(ownerOnly: true)) async throws -> Prepared {
        let account = try await connection.account()
        guard account.encrypted, let epoch = account.epoch else { return Prepared() }
        var prepared = try await keys(for: account, epoch: epoch, connection: connection, ledgerDirectory: ledgerDirectory, fileSystem: fileSystem)
        prepared.owesSealedName = account.deviceNamed == false
        return prepared
    }

    private static func keys(for account: SyncConnection.Account, epoch: UInt32, connection: SyncConnection, ledgerDirectory: String,
                             fileSystem: any FileSystem) async throws -> Prepared {
        guard var ring = try KeyRing.load(ledgerDirectory: ledgerDirectory, fileSystem: fileSystem) else {
            guard account.fingerprint == nil, epoch == 1 else { throw noKey }
            return try await makeFirstKey(connection: connection, ledgerDirectory: ledgerDirectory, fileSystem: fileSystem)
        }
        guard let own = ring.key(epoch: epoch) else {
            guard ring.current.epoch < epoch else {
                throw LedgerError(.permission, "this device holds no key of the account's epoch \(epoch): it holds another account's key; remove \(KeyRing.path(ledgerDirectory: ledgerDirectory)) only if this ledger never synced with it")
            }
            throw LedgerError(.permission, "the account's key was rotated to epoch \(epoch) on another device, and this device holds only epoch \(ring.current.epoch): get the new key with a link from one of your devices, or enter the new recovery kit, then sync again")
        }
        guard let registered = account.fingerprint else {
            // This device made the key but its registration did not arrive: register it now.
            _ = try await register(own, connection: connection, ledgerDirectory: ledgerDirectory, fileSystem: fileSystem)
            return Prepared(keys: ring)
        }
        guard registered == own.fingerprint else {
            throw LedgerError(.permission, "this device's key (fingerprint \(own.fingerprint)) is not the account's (\(registered)): get the account's key with a link from one of your devices or with the recovery kit; this device pushed nothing")
        }
        let before = ring
        do { try ring.unlockChain(try account.wrappedKeys(server: connection.server)) } catch let error as EncryptionError {
            throw error.ledgerError
        }
        if ring != before { try ring.save(ledgerDirectory: ledgerDirectory, fileSystem: fileSystem) }
        // A key of a later epoch is a rotation whose request did not arrive (`encryption
        // rotate` sends it again): records are sealed under the account's epoch until it does.
        return Prepared(keys: KeyRing(keys: ring.keys.filter { $0.epoch <= epoch }, rehearsedEpochs: ring.rehearsedEpochs) ?? ring)
    }

    /// The first device of the account: a random key of epoch 1, kept (0600) before it is
    /// registered, so that a registration that does not arrive is made again by the next sync.
    private static func makeFirstKey(connection: SyncConnection, ledgerDirectory: String,
                                     fileSystem: any FileSystem) async throws -> Prepared {
        let key = DataKey.random(epoch: 1)
        let ring = KeyRing(key)
        try ring.save(ledgerDirectory: ledgerDirectory, fileSystem: fileSystem)
        _ = try await register(key, connection: connection, ledgerDirectory: ledgerDirectory, fileSystem: fileSystem)
        let kit = try RecoveryKitFile.write(for: key, ledgerDirectory: ledgerDirectory, fileSystem: fileSystem)
        return Prepared(keys: ring, kitWritten: kit)
    }

    /// Registers `key`'s fingerprint; another device's key registered first makes this one's
    /// useless: its key file is removed (nothing was ever sealed with it) and the sync refused.
    private static func register(_ key: DataKey, connection: SyncConnection, ledgerDirectory: String,
                                 fileSystem: any FileSystem) async throws -> SyncConnection.Account {
        do {
            return try await connection.registerKey(fingerprint: key.fingerprint)
        } catch let error as LedgerError where error.category == .conflict {
            try? fileSystem.removeFile(KeyRing.path(ledgerDirectory: ledgerDirectory))
            throw LedgerError(.permission, "another device made this account's key first: get it with a link from that device, or with the recovery kit it wrote, then sync again")
        }
    }

    /// Adds `key` (received with a link, or read from the kit) to the device's key file, so that
    /// the next sync seals and opens with it (the file written atomically, 0600).
    package static func keep(_ key: DataKey, ledgerDirectory: String,
                             fileSystem: any FileSystem = PosixFileSystem(ownerOnly: true)) throws {
        let ring = try KeyRing.load(ledgerDirectory: ledgerDirectory, fileSystem: fileSystem)
        try (ring?.adding(key) ?? KeyRing(key)).save(ledgerDirectory: ledgerDirectory, fileSystem: fileSystem)
    }

    static let noKey = LedgerError(.permission, "this account is end-to-end encrypted and this device does not have its key: open a link from one of your devices (`oritsubushi device link` there, `oritsubushi device join` here), or restore the key from the recovery kit; nothing was pushed")
}
