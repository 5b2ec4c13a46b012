import LedgerCore
import LedgerSync

/// Where the sync server keeps users, token hashes, device ownership and every user's events
/// (Schemas/sync-api.yaml for what clients see; Schemas/server-store.md for the stores): what a
/// running `serve` needs. Two implementations: `FilesStore` (one ledger directory per user, the
/// embedded default) and `PostgresStore` (several `serve` instances on one database). A client
/// cannot tell which one answers: both run the merge rules of Schemas/merge.md §2 and the fork
/// check of §10. The operator's side (`server add-user`, `verify`, …) is `SyncStoreAdministration`.
///
/// Every method is safe to call concurrently from many requests; a store serialises what must be
/// serialised per user (never one lock for all users). Refusals are thrown as `SyncServerError`
/// (or `LedgerError`, mapped by `SyncServerError(serving:)`); a damaged user ledger is thrown as
/// `SyncServerError(.unavailable, …)` for that user only.
package protocol SyncStorage: StoreLifecycle, UserDeviceDirectory, SealedLogStorage {
    /// "files" or "postgres", for logs and `server users`.
    var kind: String { get }
    /// What one request may ask or bring, the same on both stores.
    var limits: SyncLimits { get }

    // MARK: Serving

    /// The user an active token belongs to, looked up by its SHA-256 hash (`TokenHash.hex`) as a
    /// key; nil for an unknown or revoked token.
    func user(forTokenHash hash: String) async throws -> String?
    /// The records `request.have` lacks, in the user's log order from `request.cursor`.
    /// Runs `ForkCheck` on `request.haveDigests` first and fills `serverDigests`.
    /// Pages are bounded by `limits.pages(representation)`.
    func pullAnswer(user: String, request: PullRequest, as representation: WireRepresentation) async throws -> PullAnswer
    /// Appends the records the store lacks, all or nothing, durably before returning.
    func push(user: String, request: PushRequest) async throws -> PushResponse
    /// The same for records that came as frames (Schemas/sync-frames.md), refused as
    /// `PushRecords.check` refuses them (at most `limits.frames.pushRecords`).
    func push(user: String, records: EncodedRecords) async throws -> PushResponse
    /// What the store holds for `user`.
    func status(user: String) async throws -> StoreStatus
    /// `POST /v1/pair`: exchanges a pairing code (kept as `PairingCode.storedKey`) once for a new
    /// token (its hash) of the code's user, named after the device (the code's own name first,
    /// made distinct among the user's active devices: `DeviceNaming.distinct`), and returns the
    /// user and the new device. Throws `.unauthorized` for an unknown code and `.gone` for a used
    /// or expired one.
    func redeemPairingCode(_ code: PairingCode, tokenHash: String, deviceName: String, now: Int64) async throws -> Pairing
    /// Where `POST /v1/pair` counts its attempts, shared by every instance of the store.
    var pairingAttempts: any PairingAttempts { get }

    // MARK: End-to-end encryption (Schemas/encryption.md §11, "The account")

    /// The account's key epoch, registered fingerprint and key chain; nil for a plaintext account.
    func accountEncryption(user: String) async throws -> AccountEncryption?
    /// `POST /v1/account/key`: records, once, the fingerprint of the account's epoch-1 key
    /// (`AccountEncryption.registering`: the same one again changes nothing, another is refused
    /// with `.conflict`), under the user's lock. Throws `.plaintextAccount` on a plaintext account.
    func registerKey(user: String, fingerprint: String) async throws -> AccountEncryption
    /// `POST /v1/account/rotation`: moves the account to `epoch` (E + 1, else `.staleEpoch`),
    /// keeping `previousWrapped` (epoch E's key wrapped under E + 1's `K_chain`, 64 bytes) as
    /// key chain entry E and `fingerprint` as the new key's, atomically (one users.json
    /// replacement; one transaction holding the user's row). Throws `.plaintextAccount` on a
    /// plaintext account.
    func rotateKey(user: String, to epoch: UInt32, previousWrapped: [UInt8], fingerprint: String) async throws -> AccountEncryption
    /// How the log states a failure of this store (PostgreSQL: its SQLSTATE and message; never
    /// sent to a client).
    func logDescription(of error: any Error) -> String
}

extension SyncStorage {
    package func logDescription(of error: any Error) -> String { "\(error)" }

    /// `pullAnswer` as the JSON body.
    package func pull(user: String, request: PullRequest) async throws -> PullResponse {
        try await pullAnswer(user: user, request: request, as: .json).json
    }
}

/// The operator's commands on a store (`oritsubushi server …`), run by the CLI in its own process
/// while `serve` may be running on the same store.
package protocol SyncStoreAdministration: StoreLifecycle {
    // MARK: Accounts (`oritsubushi server add-user | add-token | revoke-token | users | delete-user`)

    /// Creates a user with one token (given as its hash). Refuses a name that exists. With
    /// `encrypted`, the account is end-to-end encrypted at key epoch 1 with no key registered
    /// yet (`AccountEncryption.new`; its first device makes the key): `server add-user --encrypted`.
    func addUser(_ name: String, tokenHash: String, encrypted: Bool, now: Int64) async throws
    /// Adds one more token (hash) to an existing user; the other tokens keep working.
    func addToken(user: String, tokenHash: String, now: Int64) async throws
    /// Revokes one token of `user` (its hash), or the active ones a pairing code gave to the
    /// device named `device`, or every active one when both are nil. `user` may be a token
    /// itself (its hash is looked up): then that token is revoked. Returns the owner and how
    /// many tokens were revoked; refuses when none was.
    func revokeTokens(user: String, tokenHash: String?, device: String?, now: Int64) async throws -> (user: String, count: Int)
    /// Every user, sorted by name.
    func users() async throws -> [StoredUser]
    /// `server pair NAME`: stores a one-time pairing code (its `storedKey`) for an existing user, valid
    /// until `expires` (Unix ms). Refuses an unknown user.
    func addPairingCode(user: String, code: PairingCode, now: Int64, expires: Int64) async throws
    /// Removes the user, their tokens and every stored event, durably (files removed and their
    /// directories fsynced; rows deleted in one transaction). Refuses an unknown user.
    func deleteUser(_ name: String) async throws

    // MARK: Integrity (`oritsubushi server verify | repair | export`)

    /// Reads every stored event of one user (or all when nil) and checks it; empty when sound.
    func verify(user: String?) async throws -> [StoreDamage]
    /// Writes the user's events as a new ledger directory that `oritsubushi` opens.
    /// Returns the number of events written.
    func export(user: String, to directory: String, now: Int64) async throws -> Int
    /// Restores a damaged user from clients' replicas (the inverse of `verify --repair --server`).
    func repair(_ request: StoreRepairRequest, now: Int64) async throws -> StoreRepairReport
}

extension SyncStoreAdministration {
    /// A repair from one replica that refuses any loss.
    package func repair(user: String, from replica: String, now: Int64) async throws -> StoreRepairReport {
        try await repair(StoreRepairRequest(user: user, replicas: [replica]), now: now)
    }
}

/// What `server repair NAME --from DIR… [--accept-loss [--yes]]` asks.
package struct StoreRepairRequest: Sendable {
    package enum Loss: Sendable {
        /// Events no replica holds refuse the repair, naming them (exit 65).
        case refuse
        /// Plan only: the report names what would be lost; nothing changes.
        case plan
        /// Give them up (and their device's later events), naming them.
        case accept
    }
    package var user: String
    /// Ledger directories of the user's devices, not in use.
    package var replicas: [String]
    package var loss: Loss

    package init(user: String, replicas: [String], loss: Loss = .refuse) {
        (self.user, self.replicas, self.loss) = (user, replicas, loss)
    }
}

extension SyncStoreAdministration {
    /// A plaintext account (`server add-user` without `--encrypted`).
    package func addUser(_ name: String, tokenHash: String, now: Int64) async throws {
        try await addUser(name, tokenHash: tokenHash, encrypted: false, now: now)
    }

    /// `revokeTokens` without a device.
    package func revokeTokens(user: String, tokenHash: String?, now: Int64) async throws -> (user: String, count: Int) {
        try await revokeTokens(user: user, tokenHash: tokenHash, device: nil, now: now)
    }
}

/// `GET /v1/status`.
package struct StoreStatus: Sendable, Equatable {
    package var serverHas: [String: UInt64]
    package var records: UInt64
    package var catalogVersion: UInt32?
    package init(serverHas: [String: UInt64], records: UInt64, catalogVersion: UInt32?) {
        (self.serverHas, self.records, self.catalogVersion) = (serverHas, records, catalogVersion)
    }
}

/// One line of `server users`.
package struct StoredUser: Sendable, Equatable, Codable {
    package var name: String
    package var activeTokens: Int
    package var revokedTokens: Int
    package var devices: Int
    package var events: UInt64
    /// Unix milliseconds of the last accepted push / answered pull, if any.
    package var lastPush: Int64?
    package var lastPull: Int64?
    /// Every token: when it was made, the device a pairing code gave it to, whether revoked.
    package var tokens: [StoredToken]
    /// The key epoch of an end-to-end encrypted account; nil for a plaintext one.
    package var encryptionEpoch: UInt32?
    package init(name: String, activeTokens: Int, revokedTokens: Int, devices: Int, events: UInt64,
                 lastPush: Int64?, lastPull: Int64?, tokens: [StoredToken] = [], encryptionEpoch: UInt32? = nil) {
        (self.tokens, self.name, self.activeTokens, self.revokedTokens) = (tokens, name, activeTokens, revokedTokens)
        self.encryptionEpoch = encryptionEpoch
        (self.devices, self.events, self.lastPush, self.lastPull) = (devices, events, lastPush, lastPull)
    }
}

/// One token of a user, as `server users` lists it (never the token or its hash).
package struct StoredToken: Sendable, Equatable, Codable {
    /// Unix milliseconds.
    package var created: Int64
    /// The device name given at `POST /v1/pair`; nil for a token of `add-user` / `add-token`.
    package var device: String?
    package var revoked: Bool
    package init(created: Int64, device: String?, revoked: Bool) {
        (self.created, self.device, self.revoked) = (created, device, revoked)
    }
}

/// One problem `server verify` found.
package struct StoreDamage: Sendable, Equatable, Codable {
    package var user: String
    /// A file path (files store) or a table name (PostgreSQL).
    package var location: String
    /// A byte offset in `location` (files store), when known; PostgreSQL names `device` and `seq`.
    package var offset: UInt64?
    package var device: String?
    package var seq: UInt64?
    package var message: String
    package init(user: String, location: String, offset: UInt64? = nil, device: String? = nil,
                 seq: UInt64? = nil, message: String) {
        (self.user, self.location, self.offset, self.device) = (user, location, offset, device)
        (self.seq, self.message) = (seq, message)
    }
}

/// What `server repair` did.
package struct StoreRepairReport: Sendable, Equatable, Codable {
    /// Where damaged data was moved (a directory, or a quarantine table), never deleted.
    package var quarantine: String?
    package var moved: [String]
    package var restoredEvents: Int
    /// With `--accept-loss`: "device D seqs a–b; …", what no replica held (nil: nothing lost).
    package var lost: String?
    package var lostEvents: UInt64 = 0
    /// False when the repair was only planned.
    package var applied = true
    package init(quarantine: String?, moved: [String], restoredEvents: Int, lost: LostEvents = LostEvents(), applied: Bool = true) {
        self.quarantine = quarantine
        self.moved = moved
        self.restoredEvents = restoredEvents
        self.lost = lost.isEmpty ? nil : lost.description
        self.lostEvents = lost.count
        self.applied = applied
    }
}
