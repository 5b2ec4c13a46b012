import LedgerCore
import LedgerSync

/// Every user's ledger on the server (`DATA/ledgers/<user>/`, the same segment engine as a
/// device), plus which user each device id belongs to. An actor: requests for the ledgers are
/// serialised, and a push is acknowledged only after `appendReplicated` has fsynced it.
package actor SyncStore {
    package struct Limits: Sendable {
        /// Records per pull page.
        package var maximumPullRecords = 2_000
        /// Approximate encoded bytes per pull page.
        package var maximumPullBytes = 1 << 20
        /// Records per push.
        package var maximumPushRecords = 5_000
        package init() {}
    }

    package let dataDirectory: String
    package let limits: Limits
    private let clock: any WallClock
    private let stations: any StationDirectory
    private var ledgers: [String: Ledger] = [:]
    private var owners: [DeviceID: String] = [:]
    /// Per user: the winning catalogue-version event, once computed (updated by pushes).
    private var catalogVersions: [String: (order: EventOrder, version: UInt32)?] = [:]
    private let fileSystem = PosixFileSystem()

    package static let ledgersDirectory = "ledgers"
    package static let serverDeviceName = "oritsubushi sync server"

    /// Opens every existing user ledger (recovering torn tails) to learn device ownership.
    package init(dataDirectory: String, stations: any StationDirectory = AnyPositiveStation(),
                 clock: any WallClock = SystemClock(), limits: Limits = Limits()) throws {
        self.dataDirectory = dataDirectory
        self.stations = stations
        self.clock = clock
        self.limits = limits
        let root = Path.join(dataDirectory, Self.ledgersDirectory)
        if !fileSystem.directoryExists(dataDirectory) { try fileSystem.createDirectory(dataDirectory) }
        if !fileSystem.directoryExists(root) { try fileSystem.createDirectory(root) }
        var opened: [String: Ledger] = [:]
        var owners: [DeviceID: String] = [:]
        for name in try fileSystem.listDirectory(root).sorted() where !name.hasPrefix(".") {
            let ledger = try Ledger.open(directory: Path.join(root, name), clock: clock)
            opened[name] = ledger
            for device in Set(ledger.versionVector.keys).union(ledger.deviceNames.keys) where device != ledger.localDevice {
                owners[device] = name
            }
        }
        self.ledgers = opened
        self.owners = owners
    }

    /// Closes every ledger (their locks are released).
    package func close() {
        for ledger in ledgers.values { ledger.close() }
        ledgers = [:]
    }

    private func ledger(for user: String) throws -> Ledger {
        if let ledger = ledgers[user] { return ledger }
        try UserStore.validate(name: user)
        let directory = Path.join(Path.join(dataDirectory, Self.ledgersDirectory), user)
        let ledger = fileSystem.fileExists(Path.join(directory, LedgerMetadata.fileName))
            ? try Ledger.open(directory: directory, clock: clock)
            : try Ledger.create(directory: directory, deviceName: Self.serverDeviceName, clock: clock)
        ledgers[user] = ledger
        return ledger
    }

    /// The records `have` lacks, in log order from `cursor`, up to the page limits.
    package func pull(user: String, request: PullRequest) throws -> PullResponse {
        let ledger = try ledger(for: user)
        let have = try WireVersionVector.decode(request.have)
        let limit = min(max(1, request.limit ?? limits.maximumPullRecords), limits.maximumPullRecords)
        // The cursor only skips records already examined for this client; one past the end
        // (another server's, or a stale one) falls back to a full scan.
        var start = request.cursor ?? 0
        if start > ledger.recordCount { start = 0 }
        var records: [WireRecord] = []
        var bytes = 0
        var cursor = start
        var more = false
        try ledger.forEachRecord(from: start) { (view, position) -> RecordIteration in
            if records.count >= limit || bytes >= limits.maximumPullBytes {
                // The page is full; `cursor` points at the first record not examined.
                more = true
                return .stop
            }
            cursor = position + 1
            if view.kind == .deviceName {
                guard view.device != ledger.localDevice else { return .continue }
            } else if view.seq <= have[view.device] ?? 0 {
                return .continue
            }
            bytes += view.length
            records.append(WireRecord(view.record))
            return .continue
        }
        return PullResponse(records: records, more: more, cursor: cursor,
                            serverHas: WireVersionVector.encode(ledger.versionVector),
                            catalogVersion: try latestCatalogVersion(user, ledger), serverDigests: [:])
    }

    /// Appends the pushed records the server lacks, all or nothing, in one fsynced batch.
    package func push(user: String, records wire: [WireRecord]) throws -> PushResponse {
        guard wire.count <= limits.maximumPushRecords else {
            throw SyncServerError(.payloadTooLarge, "a push may carry at most \(limits.maximumPushRecords) records; send smaller pages")
        }
        let ledger = try ledger(for: user)
        var records: [LedgerRecord] = []
        records.reserveCapacity(wire.count)
        for (index, item) in wire.enumerated() {
            do { records.append(try item.record()) } catch let error as LedgerError {
                throw SyncServerError(.unprocessable, "record \(index): \(error.message)")
            }
        }
        for record in records {
            let device: DeviceID
            switch record {
            case .deviceName(let r): device = r.device
            default: device = record.eventID!.device
            }
            if device == ledger.localDevice {
                throw SyncServerError(.conflict, "device \(device) is the server's own id and cannot be pushed")
            }
            if let owner = owners[device], owner != user {
                throw SyncServerError(.forbidden, "device \(device) belongs to another user; a token never writes another user's log")
            }
        }
        let options = MergeOptions.acceptingPush(stations: stations)
        let prepared: PreparedMerge
        do { prepared = try LedgerMerger.prepare(records, for: ledger, options: options) } catch let error as LedgerError {
            throw SyncServerError(error.category == .badInput ? .unprocessable : .conflict, error.message)
        }
        let report = try LedgerMerger.apply(prepared, to: ledger, options: options)
        noteCatalogVersions(user, prepared.events)
        for record in records {
            switch record {
            case .deviceName(let r): owners[r.device] = user
            default: owners[record.eventID!.device] = user
            }
        }
        return PushResponse(appended: report.eventsIn + report.namesIn, duplicates: prepared.duplicates,
                            serverHas: WireVersionVector.encode(ledger.versionVector))
    }

    /// What the server holds for `user`.
    package func status(user: String) throws -> (serverHas: [String: UInt64], records: UInt64, catalogVersion: UInt32?) {
        let ledger = try ledger(for: user)
        return (WireVersionVector.encode(ledger.versionVector), ledger.recordCount, try latestCatalogVersion(user, ledger))
    }

    /// The catalogue version of the latest (LWW order) catalogue-version event, if any. One
    /// scan per user per server run; pushes keep it current.
    private func latestCatalogVersion(_ user: String, _ ledger: Ledger) throws -> UInt32? {
        if let cached = catalogVersions[user] { return cached?.version }
        var best: (order: EventOrder, version: UInt32)?
        try ledger.forEachRecord { view, _ in
            guard view.kind == .catalogVersion else { return }
            let order = EventOrder(view)
            if best.map({ order > $0.order }) ?? true { best = (order, view.catalogVersion) }
        }
        catalogVersions[user] = .some(best)
        return best?.version
    }

    private func noteCatalogVersions(_ user: String, _ records: [LedgerRecord]) {
        guard let cached = catalogVersions[user] else { return }  // not computed yet: a scan will see them
        var best = cached
        for case .catalogVersion(let e) in records {
            let order = EventOrder(hlc: e.hlc, device: e.id.device, seq: e.id.seq)
            if best.map({ order > $0.order }) ?? true { best = (order, e.version) }
        }
        catalogVersions[user] = .some(best)
    }
}
