import LedgerCore
import LedgerSync

/// The operator's commands on the files store (`oritsubushi server …`; layout in
/// Schemas/server-store.md, "Files store"). Safe while `serve` runs on the same directory:
/// accounts change users.json by atomic rename under its flock (`UserStore`), reads take no ledger
/// lock (`StoredLedgerScan`), and `repair` takes the damaged ledger's lock, which the server has
/// released (it closes a ledger it finds damaged) — else it refuses with exit 75.
package struct FilesStoreAdministration: SyncStoreAdministration {
    package let dataDirectory: String
    let clock: any WallClock
    let accounts: UserStore
    /// Every write (users.json, removals) goes through it; the crash tests give a crashable one.
    let fileSystem: any FileSystem

    package init(dataDirectory: String, clock: any WallClock = SystemClock(), fileSystem: any FileSystem = PosixFileSystem()) {
        self.dataDirectory = dataDirectory
        self.clock = clock
        self.fileSystem = fileSystem
        self.accounts = UserStore(dataDirectory: dataDirectory, fileSystem: fileSystem)
    }

    package func close() async {}

    var ledgersPath: String { Path.join(dataDirectory, FilesStore.ledgersDirectory) }
    func ledgerPath(_ user: String) -> String { Path.join(ledgersPath, user) }

    // MARK: Accounts

    package func addUser(_ name: String, tokenHash: String, encrypted: Bool, now: Int64) async throws {
        try accounts.addUser(name, tokenHash: tokenHash, encrypted: encrypted, now: now)
    }

    package func addToken(user: String, tokenHash: String, now: Int64) async throws {
        try accounts.addToken(user: user, tokenHash: tokenHash, now: now)
    }

    package func revokeTokens(user: String, tokenHash: String?, device: String?, now: Int64) async throws -> (user: String, count: Int) {
        try accounts.revoke(user: user, tokenHash: tokenHash, device: device, now: now)
    }

    package func users() async throws -> [StoredUser] {
        let claims = try deviceClaims()
        return try accounts.users().sorted { $0.name < $1.name }.map { user in
            let scan = try StoredLedgerScan.read(directory: ledgerPath(user.name), clock: clock, fileSystem: fileSystem)
            let activity = UserActivity.read(dataDirectory: dataDirectory, user: user.name, fileSystem: fileSystem)
            let claimed = claims.filter { $0.value == user.name }.count
            return StoredUser(name: user.name, activeTokens: user.tokens.filter { $0.revoked == nil }.count,
                              revokedTokens: user.tokens.filter { $0.revoked != nil }.count,
                              devices: max(claimed, scan?.devices.count ?? 0), events: scan?.events ?? 0,
                              lastPush: activity.lastPush, lastPull: activity.lastPull,
                              tokens: user.tokens.map {
                                  StoredToken(created: ISO8601.parseMilliseconds($0.created) ?? 0, device: $0.device, revoked: $0.revoked != nil)
                              },
                              encryptionEpoch: user.encryption?.epoch)
        }
    }

    package func addPairingCode(user: String, code: PairingCode, now: Int64, expires: Int64) async throws {
        try accounts.addPairingCode(user: user, code: code, now: now, expires: expires)
    }

    /// Every device claim (`DATA/devices/<16 hex>` → owner).
    func deviceClaims() throws -> [String: String] {
        let directory = Path.join(dataDirectory, DeviceClaims.directoryName)
        guard fileSystem.directoryExists(directory) else { return [:] }
        var claims: [String: String] = [:]
        for name in try fileSystem.listDirectory(directory) where DeviceID(hex: name) != nil {
            claims[name] = String(decoding: try fileSystem.readFile(Path.join(directory, name)), as: UTF8.self)
        }
        return claims
    }

    // MARK: Integrity

    package func verify(user: String?) async throws -> [StoreDamage] {
        let names: [String]
        if let user {
            guard try knows(user) else { throw LedgerError(.missingLedger, "no user '\(user)' in \(dataDirectory)") }
            names = [user]
        } else {
            names = Set(try accounts.users().map(\.name)).union(try storedLedgerNames()).sorted()
        }
        return try names.compactMap { name in
            guard let damage = try StoredLedgerScan.read(directory: ledgerPath(name), clock: clock, fileSystem: fileSystem)?.damage else { return nil }
            return StoreDamage(user: name, location: damage.file ?? ledgerPath(name), offset: damage.offset.map(UInt64.init),
                               message: damage.message)
        }
    }

    package func export(user: String, to directory: String, now: Int64) async throws -> Int {
        guard try knows(user) else { throw LedgerError(.missingLedger, "no user '\(user)' in \(dataDirectory)") }
        let scan = try StoredLedgerScan.read(directory: ledgerPath(user), clock: clock, fileSystem: fileSystem)
        if let damage = scan?.damage {
            throw LedgerError(.corruption, "user '\(user)''s ledger is damaged (\(damage.message)); run 'server repair \(user) --from DIR' first",
                              file: damage.file, offset: damage.offset)
        }
        if let sealed = scan?.sealed {
            return try LedgerExport.writeSealed(sealed, to: directory, ownerName: "export of \(user)", clock: clock)
        }
        return try LedgerExport.write(scan?.clientRecords ?? [], to: directory, deviceName: "export of \(user)", clock: clock)
    }

    package func repair(_ request: StoreRepairRequest, now: Int64) async throws -> StoreRepairReport {
        let repair = FilesStoreRepair(administration: self, request: request)
        if try LedgerMetadata.recordForm(ofLedgerAt: ledgerPath(request.user), fileSystem: fileSystem) == .sealed {
            // An end-to-end encrypted account: repaired from sealed replicas, without the key.
            return try repair.run(SealedRecord.self, epoch: try accounts.encryption(of: request.user)?.epoch)
        }
        return try repair.run(LedgerRecord.self, epoch: nil)
    }

    func knows(_ user: String) throws -> Bool {
        try UserStore.validate(name: user)
        return try accounts.users().contains { $0.name == user } || fileSystem.directoryExists(ledgerPath(user))
    }

    func storedLedgerNames() throws -> [String] {
        guard fileSystem.directoryExists(ledgersPath) else { return [] }
        return try fileSystem.listDirectory(ledgersPath).filter { !$0.hasPrefix(".") }
    }
}
