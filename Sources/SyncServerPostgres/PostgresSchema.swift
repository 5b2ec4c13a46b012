import LedgerCore
import Logging
import PostgresNIO
import SyncServer

/// The PostgreSQL store's schema, created and migrated by the server itself at start (and by every
/// `server …` command). Schemas/server-store.md mirrors these statements. Each migration runs once,
/// in one transaction holding a transaction-level advisory lock, so that several instances
/// starting at once apply it exactly once; its version is then recorded in `schema_migrations`.
package enum PostgresSchema {
    /// Any fixed key: the advisory lock every migrating instance takes.
    static let lockKey: Int64 = 0x6f72_6974_7375_6275  // "oritsubu"

    static let migrations: [(version: Int32, statements: [String])] = [
        (1, [
            """
            CREATE TABLE users (
                id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, created bigint NOT NULL,
                next_position bigint NOT NULL DEFAULT 0, last_push bigint, last_pull bigint)
            """,
            """
            CREATE TABLE tokens (
                hash text PRIMARY KEY, user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                created bigint NOT NULL, revoked bigint)
            """,
            "CREATE INDEX tokens_user ON tokens (user_id)",
            """
            CREATE TABLE devices (
                device bigint PRIMARY KEY, user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                last_seq bigint NOT NULL DEFAULT 0)
            """,
            "CREATE INDEX devices_user ON devices (user_id)",
            """
            CREATE TABLE events (
                device bigint NOT NULL, seq bigint NOT NULL,
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE, position bigint NOT NULL,
                kind smallint NOT NULL, hlc bigint NOT NULL, record bytea NOT NULL, digest text NOT NULL,
                PRIMARY KEY (device, seq), UNIQUE (user_id, position))
            """,
            "CREATE INDEX events_catalog ON events (user_id) WHERE kind = 2",
            """
            CREATE TABLE device_names (
                device bigint NOT NULL, hlc bigint NOT NULL,
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE, position bigint NOT NULL,
                record bytea NOT NULL, digest text NOT NULL,
                PRIMARY KEY (device, hlc), UNIQUE (user_id, position))
            """,
            """
            CREATE TABLE quarantine_events (
                id bigserial PRIMARY KEY, user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                quarantined bigint NOT NULL, device bigint NOT NULL, seq bigint NOT NULL, position bigint NOT NULL,
                kind smallint NOT NULL, hlc bigint NOT NULL, record bytea NOT NULL, digest text NOT NULL)
            """,
        ]),
        // What `server verify` or a pull last found damaged in the user's rows (NULL: sound):
        // every request of that user answers 503 until `server repair` clears it.
        (2, ["ALTER TABLE users ADD COLUMN damage text"]),
        // Pairing a phone (`server pair`, `POST /v1/pair`): one-time codes by hash, and the device
        // each paired token was given to.
        (3, [
            "ALTER TABLE tokens ADD COLUMN device_name text",
            """
            CREATE TABLE pairing_codes (
                hash text PRIMARY KEY, user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                created bigint NOT NULL, expires bigint NOT NULL, used bigint)
            """,
            "CREATE INDEX pairing_codes_user ON pairing_codes (user_id)",
        ]),
        // A push inserts up to 100,000 event rows, and a foreign key costs each one a lookup of
        // the user row the push holds locked anyway (about a third of the insert): events keep
        // their user by the push's lock, and `delete-user` deletes them itself.
        (4, ["ALTER TABLE events DROP CONSTRAINT IF EXISTS events_user_id_fkey"]),
        // Records as the frames of a segment, a row per frame, and an index of runs of seqs
        // (Schemas/server-store.md, "Frames and runs"): a million events are a few hundred rows,
        // not a million. `PostgresFrameMigration` then moves the `events` rows and drops the table.
        (5, [
            """
            CREATE TABLE event_frames (
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE, first_position bigint NOT NULL,
                count integer NOT NULL, frame bytea NOT NULL,
                PRIMARY KEY (user_id, first_position))
            """,
            // The frames are LZ4 already: PostgreSQL's own compression would only cost time.
            "ALTER TABLE event_frames ALTER COLUMN frame SET STORAGE EXTERNAL",
            """
            CREATE TABLE event_runs (
                device bigint NOT NULL, first_seq bigint NOT NULL, last_seq bigint NOT NULL,
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE, frame_position bigint NOT NULL,
                PRIMARY KEY (device, first_seq))
            """,
            "CREATE INDEX event_runs_user ON event_runs (user_id, frame_position)",
            """
            CREATE TABLE catalog_versions (
                device bigint NOT NULL, seq bigint NOT NULL,
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE, hlc bigint NOT NULL, version bigint NOT NULL,
                PRIMARY KEY (device, seq))
            """,
            "CREATE INDEX catalog_versions_user ON catalog_versions (user_id)",
            """
            CREATE TABLE quarantine_frames (
                id bigserial PRIMARY KEY, user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                quarantined bigint NOT NULL, first_position bigint NOT NULL, count integer NOT NULL, frame bytea NOT NULL)
            """,
        ]),
        // `POST /v1/pair`'s attempts, counted before a code is looked up, shared by every
        // instance (`PostgresPairingAttempts`): a row per attempt and scope, kept a window long.
        (6, [
            """
            CREATE TABLE pairing_attempts (
                id bigint NOT NULL, scope text NOT NULL, at bigint NOT NULL, PRIMARY KEY (scope, at, id))
            """,
            "CREATE SEQUENCE pairing_attempt_ids",
        ]),
        // Pairing codes kept as scrypt keys under one salt per database (`PairingCode.storedKey`);
        // the codes kept as plain SHA-256 before are deleted, as a backup must not reveal them.
        (7, [
            "CREATE TABLE server_settings (name text PRIMARY KEY, value text NOT NULL)",
            "DELETE FROM pairing_codes",
        ]),
        // Devices linked by their owner: the name a link code gives the device that redeems it,
        // and each token's last sync (`UserDeviceDirectory`).
        (8, [
            "ALTER TABLE pairing_codes ADD COLUMN device_name text",
            "ALTER TABLE tokens ADD COLUMN last_sync bigint",
        ]),
        // End-to-end encrypted accounts (Schemas/encryption.md §11): the account's key epoch
        // (NULL: a plaintext account) and its key's fingerprint, each older epoch's key wrapped
        // under the next one's (the key chain), and a link code's wrapped key, kept until used.
        (9, [
            "ALTER TABLE users ADD COLUMN key_epoch integer",
            "ALTER TABLE users ADD COLUMN key_fingerprint text",
            """
            CREATE TABLE key_chain (
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE, epoch integer NOT NULL, wrapped bytea NOT NULL,
                PRIMARY KEY (user_id, epoch))
            """,
            "ALTER TABLE pairing_codes ADD COLUMN wrapped_key bytea",
        ]),
        // An encrypted account's sealed device names, kept once per sealed form (the server
        // cannot read which is newest: devices open them all), in place of `device_names`; and a
        // plaintext account's conversion: the sealed copy staged a record a row until it holds
        // every event, and the key it is sealed with (Schemas/encryption.md §9–§11).
        (10, [
            """
            CREATE TABLE sealed_names (
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE, fingerprint bigint NOT NULL,
                position bigint NOT NULL, record bytea NOT NULL, PRIMARY KEY (user_id, fingerprint))
            """,
            """
            CREATE TABLE conversion_records (
                user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE, device bigint NOT NULL, seq bigint NOT NULL,
                fingerprint bigint NOT NULL, record bytea NOT NULL, PRIMARY KEY (user_id, device, seq, fingerprint))
            """,
            "ALTER TABLE users ADD COLUMN converting_fingerprint text",
        ]),
    ]

    /// Data a migration moves after its statements ran, in the same transaction.
    static let conversions: [Int32: @Sendable (PostgresConnection, Logger) async throws -> Void] = [
        5: { connection, logger in try await PostgresFrameMigration.run(connection, logger) },
        7: { connection, logger in
            try await connection.query(
                "INSERT INTO server_settings (name, value) VALUES ('pairing_salt', \(PairingSalt.random().hex))", logger: logger)
        },
    ]

    package static var versions: [Int32] { migrations.map(\.version) }

    /// Brings the schema up to date (or, for a test of a later migration, to version `through`).
    package static func migrate(_ client: PostgresClient, logger: Logger, through last: Int32 = .max) async throws {
        try await client.withConnection { connection in
            // Concurrent CREATE TABLE IF NOT EXISTS can still collide on the catalogue: the lock first.
            try await connection.transaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                try await connection.query(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())",
                    logger: logger)
            }
            // A database migrated by a newer oritsubushi may hold what this one cannot serve.
            var newest: Int32 = 0
            for try await version in try await connection.query(
                "SELECT COALESCE(max(version), 0) FROM schema_migrations", logger: logger).decode(Int32.self) { newest = version }
            if newest > versions.max() ?? 0 {
                throw LedgerError(.unavailable, "the database's schema is version \(newest), newer than this oritsubushi knows (\(versions.max() ?? 0)); upgrade oritsubushi before serving it")
            }
            for migration in migrations where migration.version <= last {
                try await connection.transaction(logger: logger) { connection in
                    try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                    var applied = false
                    for try await _ in try await connection.query(
                        "SELECT 1 FROM schema_migrations WHERE version = \(migration.version)", logger: logger).decode(Int32.self) {
                        applied = true
                    }
                    guard !applied else { return }
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await conversions[migration.version]?(connection, logger)
                    try await connection.query("INSERT INTO schema_migrations (version) VALUES (\(migration.version))", logger: logger)
                }
            }
        }
    }
}
