import LedgerCore

/// The files store's `UserDeviceDirectory` on users.json: every change under its flock, in one
/// replacement of the file.
extension UserStore {
    /// The user's active tokens as devices, oldest first (`lastSync` from `lastSyncs`, by id).
    package func devices(user name: String, lastSyncs: [String: Int64]) throws -> [UserDevice] {
        guard let user = try load().users.first(where: { $0.name == name }) else { return [] }
        return user.tokens.filter { $0.revoked == nil }.map { Self.device($0, lastSyncs: lastSyncs) }
    }

    package func renameDevice(user name: String, tokenHash: String, to newName: String, lastSyncs: [String: Int64]) throws -> UserDevice {
        try withLock {
            var file = try load()
            guard let index = file.users.firstIndex(where: { $0.name == name }),
                  let token = file.users[index].tokens.firstIndex(where: { $0.sha256 == tokenHash && $0.revoked == nil }) else {
                throw SyncServerError(.unauthorized, "the token is not valid (unknown or revoked)")
            }
            if file.users[index].tokens.contains(where: { $0.revoked == nil && $0.sha256 != tokenHash && $0.device == newName }) {
                throw DeviceNaming.taken(newName)
            }
            file.users[index].tokens[token].device = newName
            try save(file)
            return Self.device(file.users[index].tokens[token], lastSyncs: lastSyncs)
        }
    }

    package func revokeDevice(user name: String, id: String, now: Int64, lastSyncs: [String: Int64]) throws -> UserDevice {
        try withLock {
            var file = try load()
            guard UserDevice.isID(id), let index = file.users.firstIndex(where: { $0.name == name }),
                  let token = file.users[index].tokens.firstIndex(where: {
                      $0.revoked == nil && UserDevice.id(ofTokenHash: $0.sha256) == id
                  }) else {
                throw DeviceNaming.unknownDevice(id)
            }
            file.users[index].tokens[token].revoked = ISO8601.format(milliseconds: now)
            try save(file)
            return Self.device(file.users[index].tokens[token], lastSyncs: lastSyncs)
        }
    }

    private static func device(_ token: TokenEntry, lastSyncs: [String: Int64]) -> UserDevice {
        let id = UserDevice.id(ofTokenHash: token.sha256)
        return UserDevice(id: id, name: token.device, created: ISO8601.parseMilliseconds(token.created) ?? 0, lastSync: lastSyncs[id])
    }
}
