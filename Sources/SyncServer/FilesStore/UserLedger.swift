import LedgerCore
import LedgerSync

/// One user's ledger in the files store: an actor per user, so that different users never wait
/// for each other, and a FIFO gate inside it, so that one user's operations run one at a time
/// even across the awaits of their file I/O (which runs on the store's I/O threads, never on
/// Swift's cooperative pool). The ledger opens on first use and closes when the store's
/// `LedgerPool` evicts it, when it turns out damaged, or when the store closes.
actor UserLedger {
    let user: String
    /// The user's generation (`UserStore.User.generation`) this actor serves.
    nonisolated let generation: String
    /// Strong: a user's operation or delayed activity write may outlive the requests that made
    /// it, and must never read a released store (the store's pool holding its ledgers is a cycle
    /// only for the store's lifetime, which is the server process's).
    let store: FilesStore
    private var open: OpenedLedger?
    /// Set when the user was deleted (or made again): every later operation is refused and
    /// nothing more is written for this generation.
    private var retired = false
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var activity: UserActivity
    private var activityWritten: Int64 = 0
    private var activityDirty = false

    init(user: String, generation: String, store: FilesStore) {
        self.user = user
        self.generation = generation
        self.store = store
        activity = UserActivity.read(dataDirectory: store.dataDirectory, user: user, fileSystem: store.fileSystem)
    }

    func pull(_ request: PullRequest, have: [DeviceID: UInt64], pages limits: SyncLimits.Pages) async throws -> PullAnswer {
        let response = try await serialised { opened in
            let open = try opened.plain()
            let stored = try await self.io(open) { try $0.digests(at: have) }
            try ForkCheck.check(have, request, stored: stored)
            return try await self.io(open) { try $0.pull(request, have: have, limits: limits) }
        }
        await noteActivity { $0.lastPull = $1 }
        return response
    }

    func push(_ records: EncodedRecords) async throws -> PushResponse {
        let (user, stations, claims, clock, sizeLimit) = (self.user, store.stations, store.claims, store.clock, store.limits.userSize)
        let response = try await serialised { opened in
            try await self.io(try opened.plain()) {
                try $0.push(records, user: user, stations: stations, claims: claims, sizeLimit: sizeLimit, now: clock.nowMilliseconds())
            }
        }
        await noteActivity { $0.lastPush = $1 }
        return response
    }

    /// An encrypted account's pull: sealed records and the stored digests with their epochs.
    func pullSealed(_ request: PullRequest, have: [DeviceID: UInt64], pages limits: SyncLimits.Pages) async throws -> SealedPullAnswer {
        let response = try await serialised { opened in
            try await self.io(try opened.sealed()) { try $0.pull(request, have: have, limits: limits) }
        }
        await noteActivity { $0.lastPull = $1 }
        return response
    }

    /// An encrypted account's push of sealed records, admitted under key epoch `epoch`.
    func pushSealed(_ records: SealedRecords, epoch: UInt32) async throws -> PushResponse {
        let (user, claims, sizeLimit) = (self.user, store.claims, store.limits.userSize)
        let response = try await serialised { opened in
            try await self.io(try opened.sealed()) {
                try $0.push(records, epoch: epoch, user: user, claims: claims, sizeLimit: sizeLimit)
            }
        }
        await noteActivity { $0.lastPush = $1 }
        return response
    }

    /// Records the device's sync (`UserDevice.lastSyncResolution`), written with the activity.
    func noteDeviceSync(id: String, now: Int64) async {
        guard now - (activity.devices?[id] ?? .min / 2) >= UserDevice.lastSyncResolution else { return }
        await noteActivity { activity, _ in activity.devices = (activity.devices ?? [:]).merging([id: now]) { $1 } }
    }

    /// Each device's last sync, as recorded so far (written or not).
    var deviceSyncs: [String: Int64] { activity.devices ?? [:] }

    func status() async throws -> StoreStatus {
        try await serialised { opened in
            switch opened {
            case .plain(let open):
                StoreStatus(serverHas: open.serverHas, records: open.clientRecords, catalogVersion: open.latestCatalogVersion)
            case .sealed(let open):
                StoreStatus(serverHas: open.serverHas, records: open.clientRecords, catalogVersion: nil)
            }
        }
    }

    /// The refusal of a request for a user deleted since its token was checked.
    static let deleted = SyncServerError(.unauthorized, "the token is not valid (unknown or revoked)")

    /// The user was deleted (or made again under the same name): closes the ledger after the
    /// operations queued before this one, writes no activity, and refuses every later request.
    func retire() async {
        retired = true
        activityDirty = false
        await closeLedger()
    }

    /// Closes the ledger (its lock released) after the operations queued before this one.
    func closeLedger() async {
        await acquire()
        defer { release() }
        await closeNow()
    }

    // MARK: - One operation at a time

    private func acquire() async {
        if !busy { busy = true; return }
        await withCheckedContinuation { waiters.append($0) }  // `busy` passes to us in `release`
    }

    private func release() {
        if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
    }

    func serialised<T: Sendable>(_ body: (OpenedLedger) async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        // The user may have been deleted since the request's token was checked: then nothing
        // of the old generation may be served, and nothing may be written for it.
        if !retired, try store.tokens.generation(of: user) != generation { retired = true }
        if retired {
            await closeNow()
            throw Self.deleted
        }
        let open = try await opened()
        store.pool.touch(user)
        return try await body(open)
    }

    /// Runs `body` on an I/O thread. A failure other than a refusal closes the ledger, so the
    /// next request reopens it from what is on disk (recovering a torn tail, or finding damage).
    func io<Open: Sendable, T: Sendable>(_ open: Open, _ body: @escaping @Sendable (Open) throws -> T) async throws -> T {
        do {
            return try await store.io { try body(open) }
        } catch let error as SyncServerError {
            throw error
        } catch {
            await closeNow()
            throw damaged(error)
        }
    }

    private func opened() async throws -> OpenedLedger {
        if let open { return open }
        try UserStore.validate(name: user)
        // A conversion a crash interrupted is finished before the user's log is opened.
        let conversion = AccountConversion(store: store, user: user)
        if conversion.isUnderway { try await store.io { try conversion.resume() } }
        let directory = Path.join(store.ledgersPath, user)
        let (clock, fileSystem) = (store.clock, store.fileSystem)
        let sealedIfNew = try store.isEncrypted(user)
        let open: OpenedLedger
        do {
            open = try await store.io { try OpenedLedger(directory: directory, sealedIfNew: sealedIfNew, clock: clock, fileSystem: fileSystem) }
        } catch {
            throw damaged(error)
        }
        self.open = open
        for victim in store.pool.opened(user) {
            Task { await victim.closeLedger() }
        }
        return open
    }

    func closeNow() async {
        guard let open else { return }
        self.open = nil
        let (activity, directory, user, dirty, fileSystem) = (self.activity, store.dataDirectory, self.user, activityDirty, store.fileSystem)
        activityDirty = false
        try? await store.io {
            open.close()
            if dirty { try activity.write(dataDirectory: directory, user: user, fileSystem: fileSystem) }
        }
        store.pool.closed(self)
    }

    /// A damaged or locked ledger answers this user 503 (every other user is served); other
    /// failures pass on unchanged (a 500 that says nothing was applied).
    private func damaged(_ error: any Error) -> any Error {
        guard let error = error as? LedgerError else { return error }
        switch error.category {
        case .corruption:
            // The details (file, offset) are the operator's: `server verify` prints them; a
            // client is never told the server's paths.
            return SyncServerError.damaged("the stored ledger of user '\(user)' is damaged; an operator can run 'oritsubushi server verify' and 'server repair'; other users are served",
                                           cause: error)
        case .locked:
            return SyncServerError(.unavailable, "the stored ledger of user '\(user)' is held by another process (a 'server repair'?); try again later")
        default:
            return error
        }
    }

    /// Records the time of a pull or push; writes the activity file at most every
    /// `Tuning.activityInterval`, and a time it did not write then at the end of that interval
    /// (so `server users` lags by at most the interval, and a SIGKILL loses at most that much).
    private func noteActivity(_ update: (inout UserActivity, Int64) -> Void) async {
        guard !retired else { return }
        let now = store.clock.nowMilliseconds()
        update(&activity, now)
        activityDirty = true
        let wait = store.tuning.activityInterval - (now - activityWritten)
        guard wait <= 0 else {
            scheduleActivityWrite(afterMilliseconds: wait)
            return
        }
        await writeActivity(now: now)
    }

    private var activityWriteScheduled = false

    private func scheduleActivityWrite(afterMilliseconds wait: Int64) {
        guard !activityWriteScheduled else { return }
        activityWriteScheduled = true
        Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(wait))
            await self?.writeScheduledActivity()
        }
    }

    private func writeScheduledActivity() async {
        activityWriteScheduled = false
        guard activityDirty, !retired else { return }
        await writeActivity(now: store.clock.nowMilliseconds())
    }

    private func writeActivity(now: Int64) async {
        activityWritten = now
        activityDirty = false
        let (activity, directory, user, fileSystem) = (self.activity, store.dataDirectory, self.user, store.fileSystem)
        try? await store.io { try activity.write(dataDirectory: directory, user: user, fileSystem: fileSystem) }
    }
}
