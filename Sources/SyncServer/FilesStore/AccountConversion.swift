import LedgerCore
import LedgerSync

/// Turning a plaintext account of the files store end-to-end encrypted (Schemas/encryption.md
/// §9): a device uploads a sealed copy of every event the account holds, which is staged in
/// `DATA/converting/<user>/staged/` (a sealed ledger, admitted as any sealed push is) beside the
/// plaintext log, which keeps serving meanwhile. Only when the staged copy holds every event of
/// the plaintext log does it replace it, in steps each of which a crash may interrupt and the
/// next request of the user finishes (`resume`): the plaintext log is set aside by a rename (to
/// `converting/<user>/plaintext/`), the staged one renamed into its place, the account marked
/// encrypted in users.json, and the plaintext log removed. The fingerprint of the key in
/// `DATA/converting/<user>/key` holds the conversion to one key from its first upload to its end.
package struct AccountConversion {
    /// The swap's steps, after each of which a crash test may kill the server (`Tuning.conversionHook`).
    package enum Step: String, Sendable, CaseIterable {
        case staged = "staged", plaintextSetAside = "set-aside", sealedInPlace = "in-place"
        case accountMarked = "marked", plaintextRemoved = "removed"
    }

    static let directoryName = "converting"

    let store: FilesStore
    let user: String

    private var fileSystem: any FileSystem { store.fileSystem }
    private var convertingPath: String { Path.join(Path.join(store.dataDirectory, Self.directoryName), user) }
    var stagingPath: String { Path.join(convertingPath, "staged") }
    private var keyPath: String { Path.join(convertingPath, "key") }
    private var setAsidePath: String { Path.join(convertingPath, "plaintext") }
    private var ledgerPath: String { Path.join(store.ledgersPath, user) }
    private var accounts: UserStore { UserStore(dataDirectory: store.dataDirectory, fileSystem: fileSystem) }

    /// Stages `records` (sealed under epoch 1 of the key `fingerprint`) and returns what the
    /// staged copy holds. Refuses (409) a conversion begun with another key.
    func stage(_ records: SealedRecords, fingerprint: String) throws -> [DeviceID: UInt64] {
        if fileSystem.fileExists(keyPath) {
            guard String(decoding: try fileSystem.readFile(keyPath), as: UTF8.self) == fingerprint else {
                throw SyncServerError(.conflict, "another device is turning encryption on for this account with another key: get that key with a link from it, or wait until it has finished")
            }
        } else {
            let parent = Path.parent(of: convertingPath)
            if !fileSystem.directoryExists(parent) { try fileSystem.createDirectoryDurably(parent) }
            if !fileSystem.directoryExists(convertingPath) { try fileSystem.createDirectoryDurably(convertingPath) }
            try fileSystem.writeAtomically(keyPath, Array(fingerprint.utf8))
        }
        let staged = try OpenSealedLedger(directory: stagingPath, clock: store.clock, fileSystem: fileSystem)
        defer { staged.close() }
        _ = try staged.push(records, epoch: 1, user: user, claims: store.claims, sizeLimit: store.limits.userSize)
        return staged.ledger.versionVector
    }

    /// Whether a conversion of this user was begun.
    var isUnderway: Bool { fileSystem.fileExists(keyPath) }

    /// Replaces the plaintext log (closed by the caller) by the staged one, then marks the
    /// account encrypted; every step durable before the next.
    func swap() throws {
        let fingerprint = String(decoding: try fileSystem.readFile(keyPath), as: UTF8.self)
        store.tuning.conversionHook?(.staged)
        try fileSystem.rename(ledgerPath, to: setAsidePath)
        try fileSystem.syncDirectory(store.ledgersPath)
        try fileSystem.syncDirectory(convertingPath)
        store.tuning.conversionHook?(.plaintextSetAside)
        try finish(fingerprint: fingerprint)
    }

    /// Finishes a swap a crash interrupted; nothing when no conversion is underway, or when it
    /// is still staging (the plaintext log in place).
    func resume() throws {
        guard isUnderway else { return }
        let fingerprint = String(decoding: try fileSystem.readFile(keyPath), as: UTF8.self)
        let marked = try store.tokens.encryption(of: user) != nil
        guard fileSystem.fileExists(Path.join(setAsidePath, LedgerMetadata.fileName)) || marked || ledgerIsSealed else { return }
        try finish(fingerprint: fingerprint)
    }

    private var ledgerIsSealed: Bool {
        (try? LedgerMetadata.recordForm(ofLedgerAt: ledgerPath, fileSystem: fileSystem)) == .sealed
    }

    /// The steps after the plaintext log was set aside, each skipped when done.
    private func finish(fingerprint: String) throws {
        if fileSystem.directoryExists(stagingPath) {
            try fileSystem.rename(stagingPath, to: ledgerPath)
            try fileSystem.syncDirectory(convertingPath)
            try fileSystem.syncDirectory(store.ledgersPath)
        }
        store.tuning.conversionHook?(.sealedInPlace)
        _ = try accounts.markEncrypted(user: user, fingerprint: fingerprint)
        store.tuning.conversionHook?(.accountMarked)
        if fileSystem.directoryExists(setAsidePath) {
            try fileSystem.removeTree(setAsidePath)
            try fileSystem.syncDirectory(convertingPath)
        }
        store.tuning.conversionHook?(.plaintextRemoved)
        try fileSystem.removeFile(keyPath)
        try fileSystem.syncDirectory(convertingPath)
        try fileSystem.removeTree(convertingPath)
        try fileSystem.syncDirectory(Path.parent(of: convertingPath))
    }
}
