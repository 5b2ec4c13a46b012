import LedgerCore
import PostgresNIO
import SyncServer

/// `server add-user | add-token | revoke-token | users | delete-user` on PostgreSQL: each one
/// statement or one transaction, so a running `serve` sees the change on its next request.
extension PostgresStore {
    package func addUser(_ name: String, tokenHash: String, encrypted: Bool, now: Int64) async throws {
        try UserStore.validate(name: name)
        let epoch = encrypted ? Int32(AccountEncryption.new.epoch) : nil
        try await client.transaction(logger: logger) { connection in
            var id: Int64?
            for try await row in try await connection.query(
                "INSERT INTO users (name, created, key_epoch) VALUES (\(name), \(now), \(epoch)) ON CONFLICT (name) DO NOTHING RETURNING id",
                logger: logger).decode(Int64.self) { id = row }
            guard let id else { throw LedgerError(.usage, "user '\(name)' already exists in \(location.redacted)") }
            try await connection.query("INSERT INTO tokens (hash, user_id, created) VALUES (\(tokenHash), \(id), \(now))", logger: logger)
        }
    }

    package func addToken(user: String, tokenHash: String, now: Int64) async throws {
        var added = false
        for try await _ in try await client.query("""
            INSERT INTO tokens (hash, user_id, created) SELECT \(tokenHash), id, \(now) FROM users WHERE name = \(user) RETURNING 1
            """, logger: logger).decode(Int32.self) { added = true }
        guard added else { throw LedgerError(.usage, "no user '\(user)' in \(location.redacted); add one with `server add-user`") }
    }

    package func revokeTokens(user: String, tokenHash: String?, device: String?, now: Int64) async throws -> (user: String, count: Int) {
        try await client.transaction(logger: logger) { connection in
            var owner: (id: Int64, name: String)?
            var hash = tokenHash
            for try await (id, name) in try await connection.query(
                "SELECT id, name FROM users WHERE name = \(user) FOR UPDATE", logger: logger).decode((Int64, String).self) { owner = (id, name) }
            if owner == nil, tokenHash == nil {
                // `user` may be a token itself: then that one token is revoked, whoever owns it.
                let presented = TokenHash.hex(user)
                for try await (id, name) in try await connection.query("""
                    SELECT u.id, u.name FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.hash = \(presented) AND t.revoked IS NULL
                    """, logger: logger).decode((Int64, String).self) { owner = (id, name) }
                if owner != nil { hash = presented }
            }
            guard let owner else {
                throw LedgerError(.usage, "no user or active token '\(user.hasPrefix("ots_") ? "ots_…" : user)' in \(location.redacted)")
            }
            if let device, hash == nil {
                var named: [String] = []
                for try await (candidate, name) in try await connection.query("""
                    SELECT hash, device_name FROM tokens WHERE user_id = \(owner.id) AND revoked IS NULL
                    """, logger: logger).decode((String, String?).self) where DeviceNaming.names(name, candidate, device) {
                    named.append(candidate)
                }
                try DeviceNaming.requireOne(named, device: device, user: owner.name)
                if let only = named.first { hash = only }
            }
            var count = 0
            let rows: PostgresQuery = if let hash {
                "UPDATE tokens SET revoked = \(now) WHERE user_id = \(owner.id) AND revoked IS NULL AND hash = \(hash) RETURNING 1"
            } else if let device {
                "UPDATE tokens SET revoked = \(now) WHERE user_id = \(owner.id) AND revoked IS NULL AND device_name = \(device) RETURNING 1"
            } else {
                "UPDATE tokens SET revoked = \(now) WHERE user_id = \(owner.id) AND revoked IS NULL RETURNING 1"
            }
            for try await _ in try await connection.query(rows, logger: logger).decode(Int32.self) { count += 1 }
            guard count > 0 else {
                throw LedgerError(.usage, device.map { "user '\(owner.name)' has no active token of device '\($0)'" }
                                  ?? (hash == nil ? "user '\(owner.name)' has no active token" : "that token is not an active token of user '\(owner.name)'"))
            }
            return (owner.name, count)
        }
    }

    package func users() async throws -> [StoredUser] {
        var users: [StoredUser] = []
        let rows = try await client.query("""
            SELECT u.name,
                (SELECT count(*) FROM tokens t WHERE t.user_id = u.id AND t.revoked IS NULL),
                (SELECT count(*) FROM tokens t WHERE t.user_id = u.id AND t.revoked IS NOT NULL),
                (SELECT count(*) FROM devices d WHERE d.user_id = u.id),
                (SELECT COALESCE(sum(r.last_seq - r.first_seq + 1), 0)::bigint FROM event_runs r WHERE r.user_id = u.id),
                u.last_push, u.last_pull, u.key_epoch
            FROM users u ORDER BY u.name COLLATE "C"
            """, logger: logger)
        for try await (name, active, revoked, devices, events, push, pull, epoch) in rows.decode(
            (String, Int64, Int64, Int64, Int64, Int64?, Int64?, Int32?).self) {
            users.append(StoredUser(name: name, activeTokens: Int(active), revokedTokens: Int(revoked), devices: Int(devices),
                                    events: UInt64(events), lastPush: push, lastPull: pull, encryptionEpoch: epoch.map { UInt32(bitPattern: $0) }))
        }
        var tokens: [String: [StoredToken]] = [:]
        for try await (name, created, device, revoked) in try await client.query("""
            SELECT u.name, t.created, t.device_name, t.revoked IS NOT NULL FROM tokens t JOIN users u ON u.id = t.user_id
            ORDER BY t.created, t.hash
            """, logger: logger).decode((String, Int64, String?, Bool).self) {
            tokens[name, default: []].append(StoredToken(created: created, device: device, revoked: revoked))
        }
        for index in users.indices { users[index].tokens = tokens[users[index].name] ?? [] }
        return users
    }

    package func addPairingCode(user: String, code: PairingCode, now: Int64, expires: Int64) async throws {
        try await addPairingCode(user: user, code: code, deviceName: nil, wrappedKey: nil, now: now, expires: expires)
    }

    /// `server pair`'s code, or a link code of one of the user's devices (with the name the new
    /// device gets and, on an encrypted account, the key wrapped for the link).
    func addPairingCode(user: String, code: PairingCode, deviceName: String?, wrappedKey: [UInt8]?, now: Int64, expires: Int64) async throws {
        let codeHash = try code.storedKey(salt: try await client.withConnection { try await self.pairingSalt($0) })
        let wrapped = wrappedKey.map { ByteBuffer(bytes: $0) }
        var added = false
        for try await _ in try await client.query("""
            INSERT INTO pairing_codes (hash, user_id, created, expires, device_name, wrapped_key)
            SELECT \(codeHash), id, \(now), \(expires), \(deviceName), \(wrapped) FROM users WHERE name = \(user)
            RETURNING 1
            """, logger: logger).decode(Int32.self) { added = true }
        guard added else { throw LedgerError(.usage, "no user '\(user)' in \(location.redacted); add one with `server add-user`") }
    }

    /// One transaction: the code's row is locked, marked used and the token inserted together, so
    /// two instances redeeming one code at once make one token.
    package func redeemPairingCode(_ code: PairingCode, tokenHash: String, deviceName: String, now: Int64) async throws -> Pairing {
        // The key is derived before the transaction: no row is locked during scrypt's work.
        let codeHash = try code.storedKey(salt: try await PostgresDeadline.serving(client, logger) { try await self.pairingSalt($0) })
        return try await PostgresDeadline.serving(client, logger) { connection in
            try await connection.transaction(logger: self.logger) { connection in
                try await self.redeem(codeHash, tokenHash: tokenHash, deviceName: deviceName, now: now, connection)
            }
        }
    }

    private func redeem(_ codeHash: String, tokenHash: String, deviceName: String, now: Int64,
                        _ connection: PostgresConnection) async throws -> Pairing {
        var found: (user: Int64, name: String, expires: Int64, used: Int64?, device: String?, wrapped: ByteBuffer?)?
        for try await row in try await connection.query("""
            SELECT p.user_id, u.name, p.expires, p.used, p.device_name, p.wrapped_key FROM pairing_codes p JOIN users u ON u.id = p.user_id
            WHERE p.hash = \(codeHash) FOR UPDATE OF p
            """, logger: logger).decode((Int64, String, Int64, Int64?, String?, ByteBuffer?).self) { found = row }
        guard let found else {
            throw PairingCode.unknown
        }
        if found.used != nil || found.expires <= now {
            throw PairingCode.gone
        }
        // The user's row is locked so that two pairings at once cannot pick the same name (and
        // a rotation cannot move the epoch the answer names).
        var epoch: Int32?
        for try await row in try await connection.query(
            "SELECT key_epoch FROM users WHERE id = \(found.user) FOR UPDATE", logger: logger).decode(Int32?.self) { epoch = row }
        var taken = Set<String>()
        for try await name in try await connection.query(
            "SELECT device_name FROM tokens WHERE user_id = \(found.user) AND revoked IS NULL AND device_name IS NOT NULL",
            logger: logger).decode(String.self) { taken.insert(name) }
        // An encrypted account keeps no name in the clear (encryption.md §8, "Device names").
        let name = epoch != nil ? nil : DeviceNaming.distinct(found.device ?? deviceName, taken: taken)
        // A link's wrapped key is handed over this once: the used code keeps none.
        try await connection.query("UPDATE pairing_codes SET used = \(now), wrapped_key = NULL WHERE hash = \(codeHash)", logger: logger)
        try await connection.query("""
            INSERT INTO tokens (hash, user_id, created, device_name) VALUES (\(tokenHash), \(found.user), \(now), \(name))
            """, logger: logger)
        // Codes expired or used a day ago are of no more use, even as a 410.
        try await connection.query("DELETE FROM pairing_codes WHERE expires < \(now - 86_400_000)", logger: logger)
        return Pairing(user: found.name, device: UserDevice(tokenHash: tokenHash, name: name, created: now, lastSync: nil),
                       epoch: epoch.map { UInt32(bitPattern: $0) }, wrappedKey: found.wrapped.map { Array($0.readableBytesView) })
    }

    /// The database's pairing salt, made by migration 7.
    private func pairingSalt(_ connection: PostgresConnection) async throws -> PairingSalt {
        var stored: String?
        for try await value in try await connection.query(
            "SELECT value FROM server_settings WHERE name = 'pairing_salt'", logger: logger).decode(String.self) { stored = value }
        guard let stored, let salt = PairingSalt(hex: stored) else {
            throw LedgerError(.corruption, "the database's pairing_salt (table server_settings) is missing or not 32 hex digits")
        }
        return salt
    }

    /// One transaction: the user row is locked (a push in progress finishes first, a later one
    /// finds no user), then deleted; its foreign keys cascade to tokens, devices, frames, runs,
    /// device names, catalogue versions, pairing codes and quarantined rows.
    package func deleteUser(_ name: String) async throws {
        try await client.transaction(logger: logger) { connection in
            var id: Int64?
            for try await row in try await connection.query(
                "SELECT id FROM users WHERE name = \(name) FOR UPDATE", logger: logger).decode(Int64.self) { id = row }
            guard let id else { throw LedgerError(.usage, "no user '\(name)' in \(location.redacted)") }
            try await connection.query("DELETE FROM users WHERE id = \(id)", logger: logger)
        }
    }
}
