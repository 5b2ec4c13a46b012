import LedgerCore
import LedgerSync

/// One user's open ledger and what the files store keeps in memory for it (event positions, the
/// winning catalogue version), built by one scan at open. Not thread-safe: only its
/// `UserLedger` uses it, one operation at a time, on the store's I/O threads.
final class OpenUserLedger: @unchecked Sendable {
    let ledger: Ledger
    private var positions = EventPositions()
    /// Digests read lately (the heads every pull names), so that a pull rarely reads a frame.
    private var recentDigests = RecentDigests<EventID>()
    private var catalogVersion: (order: EventOrder, version: UInt32)?

    /// Opens (or creates) `directory` and reads every record once, checking every frame. The
    /// ledger's lock is the file system's (`FileSystem.lockDirectory`: none in memory).
    init(directory: String, clock: any WallClock, fileSystem: any FileSystem) throws {
        ledger = fileSystem.fileExists(Path.join(directory, LedgerMetadata.fileName))
            ? try Ledger.open(directory: directory, fileSystem: fileSystem, clock: clock)
            : try Ledger.create(directory: directory, deviceName: FilesStore.serverDeviceName, fileSystem: fileSystem,
                                clock: clock)
        do {
            try ledger.forEachRecord { view, position in
                guard view.hasEventID else { return }
                if view.kind == .catalogVersion { note(EventOrder(view), view.catalogVersion) }
                positions.append(device: view.device, seq: view.seq, position: position)
            }
        } catch {
            ledger.close()
            throw error
        }
    }

    func close() { ledger.close() }

    var serverHas: [String: UInt64] { WireVersionVector.encode(ledger.versionVector) }

    /// The records clients pushed (`/v1/status`'s `records`): the log without the server
    /// ledger's own device name, which no client is ever sent, so that both stores count alike.
    var clientRecords: UInt64 {
        let own: UInt64 = ledger.deviceNames[ledger.localDevice] == nil ? 0 : 1
        return UInt64(ledger.recordCount) - min(own, UInt64(ledger.recordCount))
    }
    var latestCatalogVersion: UInt32? { catalogVersion?.version }

    /// `serverDigests` of a pull: the digest of the event at `serverHas[device]` for every device.
    func headDigests() throws -> [String: String] {
        var result: [String: String] = [:]
        for (device, digest) in try digests(at: ledger.versionVector) { result[device.description] = digest }
        return result
    }

    /// The digest of the event at `wanted[device]` for every device that holds it, each read from
    /// its frame (`EventPositions`) unless read lately.
    func digests(at wanted: [DeviceID: UInt64]) throws -> [DeviceID: String] {
        var result: [DeviceID: String] = [:]
        for (device, seq) in wanted where seq > 0 {
            let id = EventID(device: device, seq: seq)
            if let known = recentDigests[id] {
                result[device] = known
                continue
            }
            guard let position = positions.position(device, seq) else { continue }
            try ledger.forEachRecord(from: position) { (view, _) throws -> RecordIteration in
                if view.hasEventID && view.eventID == id { result[device] = EventDigest.hex(view) }
                return .stop
            }
            guard let digest = result[device] else {
                throw LedgerError(.corruption, "event \(id) is not at log position \(position), where opening found it")
            }
            recentDigests.remember([id: digest])
        }
        return result
    }

    /// The records `have` lacks, in log order from `request.cursor`, up to the page limits
    /// (`PullPage`); the server ledger's own device name is never sent. Whole stored frames the
    /// client lacks go out as they are stored (Schemas/sync-frames.md "Served").
    func pull(_ request: PullRequest, have: [DeviceID: UInt64], limits: SyncLimits.Pages) throws -> PullAnswer {
        var page = try PullPage(request, have: have, limits: limits)
        let local = ledger.localDevice
        try ledger.forEachFrame(from: page.start(end: ledger.recordCount)) { frame, first in
            page.take(frame, at: first, serverDevice: local)
        }
        // The client's next pull names the newest event of each device this page sends.
        recentDigests.remember(page.records.newestEventDigests())
        return page.answer(serverHas: serverHas, catalogVersion: latestCatalogVersion, serverDigests: try headDigests())
    }

    /// Checks every record's device (not the server's own id; this user's, or claimed for them
    /// now) and the merge rules, then appends what the ledger lacks in one fsynced batch.
    func push(_ records: EncodedRecords, user: String, stations: any StationDirectory, claims: DeviceClaims,
              sizeLimit: UserSizeLimit, now: Int64) throws -> PushResponse {
        let devices = DeviceClaims.devices { note in records.forEach { note($0.device) } }
        try claims.checkPush(devices, for: user, serverDevice: ledger.localDevice, holds: holds)
        let options = MergeOptions.acceptingPush(stations: stations, now: now)
        let prepared: AdmittedBatch
        do { prepared = try LedgerMerger.prepare(records, for: ledger, options: options) } catch let error as LedgerError where error.isRefusal {
            // A refusal of the request; anything else (a stored frame that fails its checksum
            // while held events are compared) is the store's own, which `UserLedger` answers.
            throw SyncServerError(refusedMerge: error)
        }
        try sizeLimit.check(stored: Int64(ledger.bytesOnDisk), adding: prepared.appendedSize)
        var position = ledger.recordCount
        var appended: [(device: DeviceID, seq: UInt64, position: UInt64)] = []
        var catalogVersions: [(EventOrder, UInt32)] = []
        appended.reserveCapacity(prepared.eventCount)
        let report = try LedgerMerger.apply(prepared, to: ledger, options: options, observe: { view in
            defer { position += 1 }
            guard view.hasEventID else { return }
            appended.append((view.device, view.seq, position))
            if view.kind == .catalogVersion { catalogVersions.append((EventOrder(view), view.catalogVersion)) }
        })
        // Only once the batch is durable (apply returned).
        for event in appended { positions.append(device: event.device, seq: event.seq, position: event.position) }
        for (order, version) in catalogVersions { note(order, version) }
        return PushResponse(appended: report.eventsIn + report.namesIn, duplicates: prepared.duplicates, serverHas: serverHas)
    }

    /// Devices the ledger already holds events or a name of (so they are this user's).
    func holds(_ device: DeviceID) -> Bool {
        ledger.versionVector[device] != nil || ledger.deviceNames[device] != nil
    }

    private func note(_ order: EventOrder, _ version: UInt32) {
        if catalogVersion.map({ order > $0.order }) ?? true { catalogVersion = (order, version) }
    }
}
