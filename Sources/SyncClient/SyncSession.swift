import LedgerCore
import LedgerSync

/// What one `sync` did.
package struct SyncReport: Sendable, Equatable {
    package var pulled = 0
    /// Records the server took from this sync: appended, or, for a push sent again after its
    /// connection closed, the page it then answered for (the first sending may have been applied).
    package var pushed = 0
    /// Requests sent a second time after the server closed their connection (`RetryLog`).
    package var retries = 0
    package var rounds = 0
    /// Built as each is read: a first sync of a long log may bring thousands.
    package var newConflicts = ConflictList()
    /// The newest catalogue version the server knows of, if any.
    package var catalogVersion: UInt32?
    /// What the server held at the end (also kept in `sync-state.json`).
    package var serverHas: [DeviceID: UInt64] = [:]
    /// Whether `SyncSession.observe` saw every record of the log (but the sync's knowledge marks).
    package var observedWholeLog = false
    /// Set when this ledger turned out to be a copy and its local device was re-identified.
    package var reidentified: DeviceReidentification?
    package init() {}
}

/// Progress of a sync, for a terminal progress bar.
package enum SyncProgress: Sendable {
    case pulled(Int)
    case pushed(done: Int, total: Int)
}

/// Pull then push until both sides hold the same set. Every step is idempotent and keyed by
/// version vectors, so an interrupted sync simply resumes where the data says it stopped.
///
/// Every pull carries the digest of this ledger's last event of each device (`have_digests`),
/// and every round compares the server's `server_digests` with this ledger's events at those
/// seqs before pushing: a copied ledger never syncs silently (Schemas/merge.md §10). `run`
/// throws `SyncFork`; `run(opening:)` re-identifies a copy and carries on.
package struct SyncSession {
    package var connection: SyncConnection
    package var options = MergeOptions()
    /// Records per pull page asked for and per push request, in JSON.
    package var pageSize = 2_000
    /// The same once the server speaks frames (Schemas/sync-frames.md: a server takes at least
    /// 100,000 records a frames push, and caps a pull's `limit` at what it serves).
    package var framesPageSize = 100_000
    package var maximumRounds = 8
    /// A log of at most this many records is read whole at the start to find conflicts as pages
    /// append; a longer one is read once at the end, for the stations the sync touched.
    package var shortLog: UInt64 = 10_000
    /// Sees, in log order, every record of a short log (read whole at the start) and then every
    /// record the pulled pages append: a caller folds its projection from them instead of
    /// reading the log back. `SyncReport.observedWholeLog` says whether the log was short.
    package var observe: ((RecordView) -> Void)?
    /// Called after every page; throwing from it interrupts the sync (tests use this).
    package var progress: (SyncProgress) throws -> Void = { _ in }
    /// An end-to-end encrypted account's keys (Schemas/encryption.md §11 "The client"): pushes
    /// are sealed under the current one, pulls opened with each record's epoch's, every request
    /// is frames, and the fork check is the device's own (`SealedForkCheck`). Nil: plaintext.
    package var keys: KeyRing?

    package init(connection: SyncConnection) { self.connection = connection }

    static let pushBytes = 2 << 20
    /// Record bytes per frames push: compressed, well under the server's 8 MiB body limit.
    static let framesPushBytes = 6 << 20
    /// The longest log whose records a sync keeps in memory (`OutgoingRecords.readAhead`).
    static let readAheadRecords: UInt64 = 2_000_000

    /// What a ledger holding `held` holds once it has appended `records`: each device's highest
    /// seq, and the digest of each event that becomes its device's newest (a held event received
    /// again is at most `held`, and changes neither).
    static func holding(_ held: [DeviceID: UInt64], after records: EncodedRecords) -> (held: [DeviceID: UInt64], newest: [DeviceID: String]) {
        // Each device's highest seq in the page and where its record is.
        var highest: [DeviceID: (seq: UInt64, offset: Int, length: Int)] = [:]
        var current: (device: DeviceID, seq: UInt64, offset: Int, length: Int)?
        var offset = 0
        func keep(_ c: (device: DeviceID, seq: UInt64, offset: Int, length: Int)) {
            if c.seq > highest[c.device]?.seq ?? 0 { highest[c.device] = (c.seq, c.offset, c.length) }
        }
        records.forEach { view in
            defer { offset += view.length }
            guard view.hasEventID else { return }
            if let last = current, last.device != view.device { keep(last) }
            if current?.device != view.device || view.seq > current!.seq { current = (view.device, view.seq, offset, view.length) }
        }
        if let current { keep(current) }
        var holding = held
        var newest: [DeviceID: String] = [:]
        records.bytes.withUnsafeBytes { bytes in
            for (device, event) in highest where event.seq > held[device] ?? 0 {
                holding[device] = event.seq
                newest[device] = EventDigest.hex(RecordView(validated: bytes.baseAddress! + event.offset, length: event.length))
            }
        }
        return (holding, newest)
    }

    package func run(_ ledger: Ledger) async throws -> SyncReport {
        var report = SyncReport()
        // Conflicts are computed once at the end (one scan), not per page.
        var pageOptions = options
        pageOptions.countsConflicts = false
        // One knowledge mark after each round's pull, not one per page (the ledger is locked
        // for the whole sync, so no local edit can fall between pages).
        pageOptions.writesKnowledgeMarks = false
        // A page (at most 8 MiB of frames, SyncLimits) is appended as one durable batch: its
        // frames as they came, not cut into batches and written anew (Schemas/sync-frames.md).
        pageOptions.batchSize = Int.max
        // Whether the server answers pulls with frames: then pushes go as frames too.
        var framed = keys != nil
        let keys = self.keys
        // The stations the pulled edits touch, for finding new conflicts when no detector follows
        // the appends (a long log).
        var affected: Set<UInt32> = []
        // Every station edit this sync appends is one the ledger did not hold at its start.
        let heldAtStart = ledger.versionVector
        let local = ledger.localDevice
        // A short log (a device joining) is read into a detector now, and its conflicts are found
        // as the pages append (as `merge` finds them), not by reading the whole log again at the end.
        var detector: ConflictDetector?
        let observe = ledger.recordCount <= shortLog ? self.observe : nil
        report.observedWholeLog = observe != nil
        if ledger.recordCount <= shortLog && (options.countsConflicts || observe != nil) {
            var fed = ConflictDetector(deduplicates: false)
            try ledger.forEachRecord { view, _ in
                fed.add(view)
                observe?(view)
            }
            if options.countsConflicts { detector = fed }
        }
        let collectsAffected = options.countsConflicts && detector == nil
        var outgoing = OutgoingRecords(ledger)
        // The cursor is kept across rounds: the log before it was examined for this ledger, and
        // the server only appends (a cursor it cannot use makes it scan from the start).
        var cursor: UInt64?
        // The digest of this ledger's last event of each device, kept as pages and marks append.
        // With events waiting to be pushed the whole log is read in any case: once, now, and kept
        // (about 40 bytes a record, so only up to `readAheadRecords`; a longer log is read again).
        let state = (try? SyncState.read(directory: ledger.directory, fileSystem: ledger.fileSystem)) ?? SyncState()
        let waiting = ledger.recordCount <= Self.readAheadRecords && state.pending(heldAtStart) > 0
        var digests = waiting ? try outgoing.readAhead() : try ledger.eventDigests(at: ledger.versionVector)
        // An encrypted account's: the digest of the sealed record this sync last received and
        // admitted for each device (what `SealedForkCheck` need not compare again).
        var sealedReceived: [DeviceID: String] = [:]
        while report.rounds < maximumRounds {
            report.rounds += 1
            var serverHas: [DeviceID: UInt64] = [:]
            var serverDigests: [String: String] = [:]
            var pulledThisRound = 0
            var pulledEdits = false
            // The next page is asked for while this one is appended (what this ledger will hold
            // once it is, is known from the admitted page), so the server works while we write.
            func request(_ have: [DeviceID: UInt64]) -> PullRequest {
                // An encrypted account's server is never sent a digest of a plaintext event.
                PullRequest(have: WireVersionVector.encode(have), cursor: cursor, limit: framed ? framesPageSize : pageSize,
                            haveDigests: keys != nil ? [:] : Dictionary(uniqueKeysWithValues: digests.map { ($0.key.description, $0.value) }))
            }
            let connection = self.connection
            @Sendable func pull(_ request: PullRequest) async throws -> PulledPage {
                if let keys { return try await connection.pullSealedPage(request, keys: keys) }
                return try await connection.pullPage(request)
            }
            var nextPage = Task { [first = request(ledger.versionVector)] in try await pull(first) }
            while true {
                let page = try await nextPage.value
                let held = ledger.versionVector
                serverHas = try WireVersionVector.decode(page.response.serverHas)
                serverDigests = page.response.serverDigests
                if let sealed = page.sealed, let keys {
                    try SealedForkCheck.check(sealed.haveChecks, at: held, in: ledger, keys: keys, received: sealedReceived)
                    try SealedForkCheck.check(sealed.serverDigests, at: serverHas, in: ledger, keys: keys, received: sealedReceived)
                }
                // Where the server stopped at the seq this ledger holds last, its digest is known.
                for (device, seq) in serverHas where seq > 0 && seq == held[device] {
                    if let theirs = serverDigests[device.description], let ours = digests[device], theirs != ours {
                        throw SyncFork(device: device, seq: seq)
                    }
                }
                framed = page.framed
                cursor = page.response.cursor
                // What this ledger will hold once the page is appended, and its newest events'
                // digests (a page that is refused throws, and cancels the next request): the
                // next page is fetched (and opened) while this one is admitted and appended.
                let willHold = Self.holding(held, after: page.records)
                digests.merge(willHold.newest) { $1 }
                if page.response.more {
                    nextPage = Task { [next = request(willHold.held)] in try await pull(next) }
                }
                let merged: MergeReport
                do {
                    let prepared = try LedgerMerger.prepare(page.records, for: ledger, options: pageOptions)
                    merged = try LedgerMerger.apply(prepared, to: ledger, options: pageOptions, observe: { view in
                        detector?.add(view)
                        observe?(view)
                        guard view.kind == .stationEdit else { return }
                        if collectsAffected { affected.insert(view.station) }
                        if view.device != local { pulledEdits = true }
                    })
                } catch {
                    nextPage.cancel()
                    throw error
                }
                pulledThisRound += merged.eventsIn
                sealedReceived.merge(page.received) { $1 }
                report.catalogVersion = page.response.catalogVersion
                do { try progress(.pulled(report.pulled + pulledThisRound)) } catch {
                    nextPage.cancel()
                    throw error
                }
                if !page.response.more { break }
            }
            report.pulled += pulledThisRound
            if options.writesKnowledgeMarks && pulledEdits {
                // Other devices' edits were appended just now: a mark is owed without a scan.
                outgoing.noteLocalAppend()
                let mark = try LedgerMerger.appendKnowledgeMark(ledger)
                detector?.add(.knowledgeMark(mark))
                digests[local] = EventDigest.hex(.knowledgeMark(mark))
            }

            let (records, events) = try outgoing.collect(serverHas: serverHas, serverDigests: serverDigests,
                                                         owesMarkCheck: options.writesKnowledgeMarks && report.rounds == 1 && !pulledEdits)
            if let mark = records.catchUpMark {
                detector?.add(.knowledgeMark(mark))
                digests[local] = EventDigest.hex(.knowledgeMark(mark))
            }
            if keys != nil && events > 0 {
                try SealedPushChecks.check(records.records, serverNow: connection.serverClock.milliseconds ?? ledger.clock.nowMilliseconds(),
                                           names: ledger.deviceNames)
            }
            var sent = 0
            var done = 0
            // At most pageSize records and about 2 MiB of JSON a request (the server's body limit
            // is 8 MiB by default; a memo can be 4 KiB); as frames, larger pages of record bytes.
            // Sealed records are about three times larger and do not compress: their pages are cut
            // by their sealed size.
            // Sealed pages are bounded by their bytes alone: the server counts sealed records.
            let outgoing = records.records
            let pages = framed
                ? outgoing.pageBounds(records: keys != nil ? Int.max : framesPageSize, bytes: Self.framesPushBytes,
                                      size: keys != nil ? SyncSealing.sealedLength() : { $0.length })
                : outgoing.pageBounds(records: pageSize, bytes: Self.pushBytes, size: { $0.length * 2 + 160 })
            @Sendable func framesBody(_ page: EncodedRecords.PageBounds) throws -> [UInt8] {
                if let keys { return try SyncConnection.sealedFramesBody(outgoing.page(page), key: keys.current) }
                return try SyncConnection.framesBody(outgoing.page(page))
            }
            // As frames, the next page's body is made while this one is sent and appended.
            var nextBody = framed && events > 0 && !pages.isEmpty ? Task { [first = pages[0]] in try framesBody(first) } : nil
            for (index, page) in pages.enumerated() where events > 0 {
                let reply: PushResponse
                let retriesBefore = connection.retries.count
                if let body = nextBody {
                    let bytes = try await body.value
                    nextBody = index + 1 < pages.count ? Task { [next = pages[index + 1]] in try framesBody(next) } : nil
                    reply = try await connection.push(framesBody: bytes)
                } else {
                    reply = try await connection.push(outgoing.page(page), asFrames: framed)
                }
                // A push sent again may find its first sending applied: the server then holds
                // the whole page (it answered), which this sync sent, as if the first answer had
                // arrived. (The page holds only what the server lacked when the round began.)
                sent += connection.retries.count > retriesBefore ? page.count : reply.appended
                serverHas = try WireVersionVector.decode(reply.serverHas)
                done += page.count
                try progress(.pushed(done: done, total: records.records.count))
            }
            report.pushed += sent
            report.serverHas = serverHas
            if pulledThisRound == 0 && events == 0 { break }
            // The server holds exactly this ledger's events: another pull could bring none.
            if events > 0 && serverHas.filter({ $0.value > 0 }) == ledger.versionVector.filter({ $0.value > 0 }) { break }
        }
        report.retries = connection.retries.count
        try SyncState.record(report.serverHas, server: connection.server, directory: ledger.directory, fileSystem: ledger.fileSystem,
                             now: ledger.clock.nowMilliseconds())
        if var detector {
            report.newConflicts = detector.conflictList(newSince: heldAtStart)
        } else if options.countsConflicts {
            report.newConflicts = try LedgerMerger.newConflicts(in: ledger, stations: affected, newSince: heldAtStart)
        }
        return report
    }
}
