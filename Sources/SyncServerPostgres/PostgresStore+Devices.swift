import LedgerCore
import Logging
import PostgresNIO
import SyncServer

/// `UserDeviceDirectory` on PostgreSQL: a device is a row of `tokens` (its name `device_name`,
/// its last sync `last_sync`); each change is one statement or one transaction holding the
/// user's row, so that names stay distinct when two devices rename at once.
extension PostgresStore {
    package func devices(user: String) async throws -> [UserDevice] {
        try await PostgresDeadline.serving(client, logger) { connection in
            var devices: [UserDevice] = []
            for try await (hash, name, created, lastSync) in try await connection.query("""
                SELECT t.hash, t.device_name, t.created, t.last_sync FROM tokens t JOIN users u ON u.id = t.user_id
                WHERE u.name = \(user) AND t.revoked IS NULL ORDER BY t.created, t.hash
                """, logger: self.logger).decode((String, String?, Int64, Int64?).self) {
                devices.append(UserDevice(tokenHash: hash, name: name, created: created, lastSync: lastSync))
            }
            return devices
        }
    }

    package func addLinkCode(user: String, code: PairingCode, deviceName: String?, wrappedKey: [UInt8]?, now: Int64, expires: Int64) async throws {
        try await addPairingCode(user: user, code: code, deviceName: deviceName, wrappedKey: wrappedKey, now: now, expires: expires)
    }

    package func renameDevice(user: String, tokenHash: String, name: String) async throws -> UserDevice {
        try await changeDevice(user: user) { connection, userID in
            var others = false
            for try await _ in try await connection.query("""
                SELECT 1 FROM tokens WHERE user_id = \(userID) AND revoked IS NULL AND hash <> \(tokenHash) AND device_name = \(name)
                """, logger: self.logger).decode(Int32.self) { others = true }
            if others { throw DeviceNaming.taken(name) }
            return try await Self.single(connection, self.logger, """
                UPDATE tokens SET device_name = \(name) WHERE user_id = \(userID) AND hash = \(tokenHash) AND revoked IS NULL
                RETURNING hash, device_name, created, last_sync
                """) ?? { throw SyncServerError(.unauthorized, "the token is not valid (unknown or revoked)") }()
        }
    }

    package func revokeDevice(user: String, id: String, now: Int64) async throws -> UserDevice {
        guard UserDevice.isID(id) else { throw DeviceNaming.unknownDevice(id) }
        return try await changeDevice(user: user) { connection, userID in
            try await Self.single(connection, self.logger, """
                UPDATE tokens SET revoked = \(now) WHERE user_id = \(userID) AND revoked IS NULL AND left(hash, \(Int32(UserDevice.idLength))) = \(id)
                RETURNING hash, device_name, created, last_sync
                """) ?? { throw DeviceNaming.unknownDevice(id) }()
        }
    }

    package func noteSync(user: String, tokenHash: String, now: Int64) async {
        // Written once a resolution at most: most syncs find the row recent and change nothing.
        let stale = now - UserDevice.lastSyncResolution
        _ = try? await PostgresDeadline.serving(client, logger) { connection in
            try await connection.query("""
                UPDATE tokens SET last_sync = \(now) WHERE hash = \(tokenHash) AND (last_sync IS NULL OR last_sync <= \(stale))
                """, logger: self.logger)
        }
    }

    package func revocation(ofTokenHash hash: String) async throws -> Int64? {
        try await PostgresDeadline.serving(client, logger) { connection in
            for try await revoked in try await connection.query(
                "SELECT revoked FROM tokens WHERE hash = \(hash) AND revoked IS NOT NULL", logger: self.logger).decode(Int64.self) {
                return revoked
            }
            return nil
        }
    }

    /// One transaction holding the user's row (`FOR UPDATE`).
    private func changeDevice(user: String, _ body: @escaping @Sendable (PostgresConnection, Int64) async throws -> UserDevice) async throws -> UserDevice {
        try await PostgresDeadline.serving(client, logger) { connection in
            try await connection.transaction(logger: self.logger) { connection in
                var userID: Int64?
                for try await id in try await connection.query(
                    "SELECT id FROM users WHERE name = \(user) FOR UPDATE", logger: self.logger).decode(Int64.self) { userID = id }
                guard let userID else { throw SyncServerError(.unauthorized, "the token is not valid (unknown or revoked)") }
                return try await body(connection, userID)
            }
        }
    }

    /// The one token row a statement returned, as a device.
    private static func single(_ connection: PostgresConnection, _ logger: Logger, _ query: PostgresQuery) async throws -> UserDevice? {
        for try await (hash, name, created, lastSync) in try await connection.query(query, logger: logger)
            .decode((String, String?, Int64, Int64?).self) {
            return UserDevice(tokenHash: hash, name: name, created: created, lastSync: lastSync)
        }
        return nil
    }
}
