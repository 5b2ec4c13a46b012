import LedgerCore
import Logging
import PostgresNIO
import SyncServer

/// An end-to-end encrypted account on PostgreSQL (Schemas/server-store.md; Schemas/encryption.md
/// §11): `users.key_epoch` (NULL for a plaintext account) and `key_fingerprint`, and a row of
/// `key_chain` per older epoch. A change is one transaction holding the user's row, so that two
/// devices registering or rotating at once, on any instances, are taken one after the other.
extension PostgresStore {
    package func accountEncryption(user: String) async throws -> AccountEncryption? {
        try await PostgresDeadline.serving(client, logger) { connection in
            try await self.encryption(user: user, lock: false, connection)?.encryption
        }
    }

    package func registerKey(user: String, fingerprint: String) async throws -> AccountEncryption {
        try await changeEncryption(user: user) { current in try current.registering(fingerprint) }
    }

    package func rotateKey(user: String, to epoch: UInt32, previousWrapped: [UInt8], fingerprint: String) async throws -> AccountEncryption {
        try await changeEncryption(user: user) { current in
            try current.rotating(to: epoch, previousWrapped: previousWrapped, fingerprint: fingerprint)
        }
    }

    /// Reads the account under its row's lock, applies `change` and writes what changed: the
    /// epoch and fingerprint, and the key chain entries that are new.
    private func changeEncryption(user: String,
                                  _ change: @escaping @Sendable (AccountEncryption) throws -> AccountEncryption) async throws -> AccountEncryption {
        try await PostgresDeadline.serving(client, logger) { connection in
            try await connection.transaction(logger: self.logger) { connection in
                guard let (id, current) = try await self.encryption(user: user, lock: true, connection) else {
                    throw SyncServerError(.unauthorized, "the token is not valid (unknown or revoked)")
                }
                guard let current else { throw AccountEncryption.plaintextAccount }
                let changed = try change(current)
                guard changed != current else { return current }
                for (epoch, wrapped) in changed.keyChain where current.keyChain[epoch] == nil {
                    try await connection.query("""
                        INSERT INTO key_chain (user_id, epoch, wrapped) VALUES (\(id), \(Int32(bitPattern: epoch)), \(ByteBuffer(bytes: wrapped)))
                        """, logger: self.logger)
                }
                try await connection.query("""
                    UPDATE users SET key_epoch = \(Int32(bitPattern: changed.epoch)), key_fingerprint = \(changed.fingerprint) WHERE id = \(id)
                    """, logger: self.logger)
                return changed
            }
        }
    }

    /// The user's id and encryption (nil for a plaintext account); nil for an unknown user.
    private func encryption(user: String, lock: Bool,
                            _ connection: PostgresConnection) async throws -> (id: Int64, encryption: AccountEncryption?)? {
        let query: PostgresQuery = lock
            ? "SELECT id, key_epoch, key_fingerprint FROM users WHERE name = \(user) FOR UPDATE"
            : "SELECT id, key_epoch, key_fingerprint FROM users WHERE name = \(user)"
        var found: (id: Int64, epoch: Int32?, fingerprint: String?)?
        for try await row in try await connection.query(query, logger: logger).decode((Int64, Int32?, String?).self) { found = row }
        guard let found else { return nil }
        guard let epoch = found.epoch else { return (found.id, nil) }
        var chain: [UInt32: [UInt8]] = [:]
        for try await (epoch, wrapped) in try await connection.query(
            "SELECT epoch, wrapped FROM key_chain WHERE user_id = \(found.id)", logger: logger).decode((Int32, ByteBuffer).self) {
            chain[UInt32(bitPattern: epoch)] = Array(wrapped.readableBytesView)
        }
        return (found.id, AccountEncryption(epoch: UInt32(bitPattern: epoch), fingerprint: found.fingerprint, keyChain: chain))
    }
}
