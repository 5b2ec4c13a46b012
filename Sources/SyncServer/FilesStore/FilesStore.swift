import LedgerCore
import LedgerSync
import NIOPosix
import Synchronization

/// The embedded store of `serve --data DIR` (Schemas/server-store.md, "Files store"): users and
/// token hashes in `DATA/users.json`, one ledger per user in `DATA/ledgers/<user>/`, device
/// ownership in `DATA/devices/`, activity times in `DATA/activity/`. Nothing is opened at
/// start-up; a user's ledger opens on first use (one scan builds its digest index) and at most
/// `Tuning.openLedgers` stay open. Each user has its own `UserLedger`: users never wait for each
/// other, and blocking file I/O runs on `Tuning.ioThreads` threads of its own. Every file
/// operation goes through `fileSystem` (the crash tests give it a crashable one).
package final class FilesStore: SyncStorage {
    package static let ledgersDirectory = "ledgers"
    package static let serverDeviceName = "oritsubushi sync server"

    package let kind = "files"
    package let dataDirectory: String
    package let limits: SyncLimits
    package let tuning: Tuning
    let fileSystem: any FileSystem
    let clock: any WallClock
    let stations: any StationDirectory
    let claims: DeviceClaims
    let pool: LedgerPool
    let tokens: TokenIndex
    /// One `serve` holds the data directory: counting in memory is the server's whole limit.
    package let pairingAttempts: any PairingAttempts = PairingRateLimiter()
    private let threads: NIOThreadPool
    /// `DATA/LOCK`: one `serve` per data directory (the per-user actors are its only writers). A
    /// `Mutex`, as the lock is not `Sendable`; only `close()` takes it, so no thread contends.
    private let lock: Mutex<LedgerLock?>

    var ledgersPath: String { Path.join(dataDirectory, Self.ledgersDirectory) }

    /// Creates the data directory if needed and, once, records the device owners of a data
    /// directory made by an older version (`DeviceClaims.migrate`). Opens no ledger. `DATA/LOCK`
    /// is an flock on the disk: a file system in memory has no other process to exclude.
    package init(dataDirectory: String, stations: any StationDirectory = AnyPositiveStation(),
                 clock: any WallClock = SystemClock(), limits: SyncLimits = SyncLimits(), tuning: Tuning = Tuning(),
                 fileSystem: any FileSystem = PosixFileSystem()) throws {
        self.dataDirectory = dataDirectory
        self.stations = stations
        self.clock = clock
        self.limits = limits
        self.tuning = tuning
        self.fileSystem = fileSystem
        let ledgers = Path.join(dataDirectory, Self.ledgersDirectory)
        try fileSystem.createDirectoryDurably(dataDirectory)
        try Self.checkWritable(dataDirectory, fileSystem)
        do {
            lock = Mutex(try fileSystem.lockDirectory(dataDirectory, request: .exclusive))
        } catch let error as LedgerError where error.category == .locked {
            let holder = error.message.firstMatch(of: /pid \d+/).map { " (\($0.output))" } ?? ""
            throw LedgerError(.locked, "another process\(holder) already serves the data directory \(dataDirectory); run one serve per data directory")
        }
        try fileSystem.createDirectoryDurably(ledgers)
        try DeviceClaims.migrate(dataDirectory: dataDirectory, ledgers: ledgers, clock: clock, fileSystem: fileSystem)
        claims = DeviceClaims(dataDirectory: dataDirectory, fileSystem: fileSystem)
        let pool = LedgerPool(capacity: tuning.openLedgers)
        self.pool = pool
        tokens = TokenIndex(users: UserStore(dataDirectory: dataDirectory, fileSystem: fileSystem)) { generations in
            for ledger in pool.retire(keeping: generations) { Task { await ledger.retire() } }
        }
        threads = NIOThreadPool(numberOfThreads: max(1, tuning.ioThreads))
        threads.start()
    }

    /// Ledgers open now.
    package var openLedgerCount: Int { pool.openCount }

    package func user(forTokenHash hash: String) async throws -> String? {
        try tokens.user(forTokenHash: hash)
    }

    package func pullAnswer(user: String, request: PullRequest, as representation: WireRepresentation) async throws -> PullAnswer {
        let have = try ForkCheck.decodeHave(request)
        return try await ledger(user).pull(request, have: have, pages: limits.pages(representation))
    }

    package func push(user: String, records: EncodedRecords) async throws -> PushResponse {
        try PushRecords.check(records, maximum: limits.frames.pushRecords)
        return try await ledger(user).push(records)
    }

    package func push(user: String, request: PushRequest) async throws -> PushResponse {
        try await push(user: user, records: try PushRecords.decode(request, maximum: limits.json.pushRecords))
    }

    package func status(user: String) async throws -> StoreStatus {
        try await ledger(user).status()
    }

    package func redeemPairingCode(_ code: PairingCode, tokenHash: String, deviceName: String, now: Int64) async throws -> Pairing {
        let accounts = UserStore(dataDirectory: dataDirectory, fileSystem: fileSystem)
        return try await io { try accounts.redeemPairingCode(code, tokenHash: tokenHash, deviceName: deviceName, now: now) }
    }

    /// Closes every open ledger (their locks released), then stops the I/O threads and releases
    /// the data directory.
    package func close() async {
        for ledger in pool.all { await ledger.closeLedger() }
        try? await threads.shutdownGracefully()
        lock.withLock { $0?.release() }
    }

    /// Refuses to serve a data directory it cannot write (every push would fail with 500): a
    /// file is made, fsynced and removed first.
    private static func checkWritable(_ directory: String, _ fileSystem: any FileSystem) throws {
        let probe = Path.join(directory, ".write-check")
        do {
            try fileSystem.writeAtomically(probe, Array("serve".utf8))
            try fileSystem.removeFile(probe)
        } catch {
            throw LedgerError(.io, "cannot write the data directory \(directory); serve needs to write there (check its permissions and free space)")
        }
    }

    /// The user's ledger of the current generation; a user deleted since the token was checked
    /// is refused (401), as a revoked token is.
    func ledger(_ user: String) throws -> UserLedger {
        guard let generation = try tokens.generation(of: user) else { throw UserLedger.deleted }
        let (ledger, retired) = pool.ledger(for: user, generation: generation) {
            UserLedger(user: user, generation: generation, store: self)
        }
        if let retired { Task { await retired.retire() } }
        return ledger
    }

    /// Runs blocking file work on the store's I/O threads.
    func io<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await threads.runIfActive(body)
    }
}
