import LedgerCore

/// `UserDeviceDirectory` on the files store: names and revocations in users.json (`UserStore`),
/// last syncs in the user's activity file (`UserActivity.devices`, kept by the user's actor).
extension FilesStore {
    package func devices(user: String) async throws -> [UserDevice] {
        let (accounts, lastSyncs) = (UserStore(dataDirectory: dataDirectory, fileSystem: fileSystem), try await ledger(user).deviceSyncs)
        return try await io { try accounts.devices(user: user, lastSyncs: lastSyncs) }
    }

    package func addLinkCode(user: String, code: PairingCode, deviceName: String?, wrappedKey: [UInt8]?, now: Int64, expires: Int64) async throws {
        let accounts = UserStore(dataDirectory: dataDirectory, fileSystem: fileSystem)
        try await io {
            try accounts.addPairingCode(user: user, code: code, deviceName: deviceName, wrappedKey: wrappedKey, now: now, expires: expires)
        }
    }

    package func renameDevice(user: String, tokenHash: String, name: String) async throws -> UserDevice {
        let (accounts, lastSyncs) = (UserStore(dataDirectory: dataDirectory, fileSystem: fileSystem), try await ledger(user).deviceSyncs)
        return try await io { try accounts.renameDevice(user: user, tokenHash: tokenHash, to: name, lastSyncs: lastSyncs) }
    }

    package func revokeDevice(user: String, id: String, now: Int64) async throws -> UserDevice {
        let (accounts, lastSyncs) = (UserStore(dataDirectory: dataDirectory, fileSystem: fileSystem), try await ledger(user).deviceSyncs)
        return try await io { try accounts.revokeDevice(user: user, id: id, now: now, lastSyncs: lastSyncs) }
    }

    package func noteSync(user: String, tokenHash: String, now: Int64) async {
        guard let ledger = try? ledger(user) else { return }
        await ledger.noteDeviceSync(id: UserDevice.id(ofTokenHash: tokenHash), now: now)
    }

    package func revocation(ofTokenHash hash: String) async throws -> Int64? {
        try tokens.revocation(ofTokenHash: hash)
    }
}
