import LedgerCore
import LedgerSync

/// `server repair NAME --from LEDGER_DIR…` on the files store: `LedgerRepair` (the client's
/// repair, run on the user's server ledger) fed with client replicas' records. Every check runs
/// before the first change: events no replica holds are named by device and seq range (exit 65;
/// with `--accept-loss` they are given up, `LostEvents`), a replica holding another user's device
/// is refused, and a ledger still open in a running server (which closes a ledger it finds
/// damaged) is refused with exit 75. Damaged segments go to `ledgers/NAME/quarantine/<UTC time>/`,
/// never deleted. An end-to-end encrypted account's sealed ledger is repaired the same way from
/// sealed replicas (a `server export` of it, or `oritsubushi encryption replica`), without the key
/// (Schemas/encryption.md §11); a device's plaintext ledger is refused for it, and the other way round.
struct FilesStoreRepair {
    let administration: FilesStoreAdministration
    let request: StoreRepairRequest
    var user: String { request.user }
    var replicaNames: String { request.replicas.joined(separator: ", ") }

    /// Repairs the user's ledger of `Record`s; `epoch`, a sealed account's current key epoch, bounds
    /// the epochs its replicas' records may carry.
    func run<Record: RepairableRecord>(_ form: Record.Type, epoch: UInt32?) throws -> StoreRepairReport {
        guard try administration.knows(user) else {
            throw LedgerError(.missingLedger, "no user '\(user)' in \(administration.dataDirectory)")
        }
        let directory = administration.ledgerPath(user)
        guard administration.fileSystem.fileExists(Path.join(directory, LedgerMetadata.fileName)) else {
            throw LedgerError(.missingLedger, "user '\(user)' has no stored ledger; there is nothing to repair", file: directory)
        }
        let clock = administration.clock
        var sources: [(records: [Record], name: String)] = []
        for replica in request.replicas {
            let records = try ReplicaRecords.read(Record.self, from: replica, of: user, epoch: epoch, clock: clock)
            let devices = Set(records.map(\.device))
            for (device, owner) in try administration.deviceClaims() where owner != user && devices.contains(where: { $0.description == device }) {
                throw LedgerError(.conflict, "\(replica) holds events of device \(device), which belongs to user '\(owner)'; repair from a replica of '\(user)'; nothing was changed")
            }
            sources.append((records, replica))
        }
        let devices = Set(sources.flatMap { $0.records.map(\.device) })
        let repair: SegmentRepair<Record>
        // The store's own files go through its file system, as the server's do (no lock in memory).
        let fileSystem = administration.fileSystem
        do {
            repair = try SegmentRepair<Record>.begin(directory: directory, fileSystem: fileSystem, clock: clock, useLock: true)
        } catch let error as LedgerError where error.category == .locked {
            throw LedgerError(.locked, "a running server holds user '\(user)''s ledger open (it has not found it damaged); stop the server or let it answer this user once (503), then repair again; nothing was changed", file: directory)
        }
        defer { repair.close() }
        guard repair.needsRepair else { return StoreRepairReport(quarantine: nil, moved: [], restoredEvents: 0) }
        repair.acceptingLoss = request.loss != .refuse
        var checkpointed = LostEvents()
        try requireCheckpointedEvents(repair, in: Set(sources.flatMap { $0.records.compactMap(\.eventID) }), lost: &checkpointed)
        var report: RepairReport
        do { report = try repair.repair(from: sources, dryRun: request.loss == .plan) } catch var error as LedgerError where error.cause == .missingEvents {
            error.message += "; 'server repair \(user) --accept-loss' repairs without them"
            throw error
        }
        for (device, seqs) in checkpointed.ranges { report.lost.add(device: device, seqs: seqs) }
        guard report.applied else {
            return StoreRepairReport(quarantine: nil, moved: [], restoredEvents: report.recoveredEvents + report.mergedEvents,
                                     lost: report.lost, applied: false)
        }
        // Still under the repair's lock: the result must open and verify before the server may.
        let ledger = try Ledger.open(directory: directory, fileSystem: fileSystem, clock: clock, useLock: false, records: Record.form)
        defer { ledger.close() }
        _ = try ledger.verify()
        let claims = DeviceClaims(dataDirectory: administration.dataDirectory, fileSystem: administration.fileSystem)
        for device in devices where device != ledger.localDevice { _ = try claims.claim(device, for: user) }
        return StoreRepairReport(quarantine: report.quarantine.map { Path.join(directory, $0) }, moved: report.moved,
                                 restoredEvents: report.recoveredEvents + report.mergedEvents, lost: report.lost)
    }

    /// `LedgerRepair` learns what a damaged segment held from its footer; the newest segment has
    /// none, and its readable frames stop at the damage. On a client the source then brings
    /// everything anyway; here the replica is the only source, so the segment's checkpoint
    /// (`NNNNNNNN.seg.summary`, written after every append; Schemas/segment-format.md §5a) names
    /// the seq ranges the replica must hold, else nothing is changed.
    /// With `--accept-loss` the events are given up instead (into `lost`).
    private func requireCheckpointedEvents<Record>(_ repair: SegmentRepair<Record>, in held: Set<EventID>, lost: inout LostEvents) throws {
        let fileSystem = administration.fileSystem
        for segment in repair.segments where !segment.isIntact && segment.footer == nil {
            guard let checkpointed = try segment.checkpointedSummary(fileSystem: fileSystem) else { continue }
            for range in checkpointed.deviceRanges {
                guard let first = (range.firstSeq...range.lastSeq).first(where: { !held.contains(EventID(device: range.device, seq: $0)) }) else { continue }
                var last = first
                while last < range.lastSeq, !held.contains(EventID(device: range.device, seq: last + 1)) { last += 1 }
                guard repair.acceptingLoss else {
                    throw LedgerError(.conflict, "cannot repair: \(segment.fileName) held device \(range.device)'s events \(first == last ? "seq \(first)" : "seqs \(first)–\(last)"), which \(replicaNames) does not have; nothing was changed; 'server repair \(user) --accept-loss' repairs without them")
                }
                lost.add(device: range.device, seqs: first...range.lastSeq)
            }
        }
    }
}
