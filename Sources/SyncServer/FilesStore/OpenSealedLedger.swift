import LedgerCore
import LedgerSync

/// An end-to-end encrypted account's open ledger in the files store (Schemas/encryption.md §10,
/// §11): the one segment engine in sealed mode, holding sealed records the server keeps without
/// the key, and what the store keeps in memory for it (every sealed event's position, the
/// fingerprints of the sealed names held), built by one scan at open. Not thread-safe: only its
/// `UserLedger` uses it, one operation at a time, on the store's I/O threads.
final class OpenSealedLedger: @unchecked Sendable {
    let ledger: Ledger
    private var positions = EventPositions()
    private var names = Set<UInt64>()

    /// Opens (or creates, empty) `directory` as a sealed ledger and reads every record once,
    /// checking every frame. A plaintext ledger there is refused (`LedgerRecords.mismatch`).
    init(directory: String, clock: any WallClock, fileSystem: any FileSystem) throws {
        ledger = fileSystem.fileExists(Path.join(directory, LedgerMetadata.fileName))
            ? try Ledger.open(directory: directory, fileSystem: fileSystem, clock: clock, records: .sealed)
            : try Ledger.createSealed(directory: directory, ownerName: FilesStore.serverDeviceName, fileSystem: fileSystem,
                                      clock: clock)
        do {
            try ledger.forEachSealedRecord { view, position in
                if view.kind.holdsEvents {
                    positions.append(device: view.device, first: view.firstSeq, last: view.seq, position: position)
                } else {
                    names.insert(RecordFingerprint.of(view.bytes))
                }
                return .continue
            }
        } catch {
            ledger.close()
            throw error
        }
    }

    func close() { ledger.close() }

    var serverHas: [String: UInt64] { WireVersionVector.encode(ledger.versionVector) }

    /// Every record devices pushed (a sealed ledger has none of its own).
    var clientRecords: UInt64 { ledger.recordCount }

    /// The stored sealed record holding the event `wanted[device]`, for every device that holds
    /// it: its digest (`EventDigest` of its stored bytes), epoch and a run's bounds, for the
    /// device to compare (§11).
    func storedDigests(at wanted: [DeviceID: UInt64]) throws -> [String: SealedPullResponse.StoredDigest] {
        var result: [String: SealedPullResponse.StoredDigest] = [:]
        for (device, seq) in wanted where seq > 0 {
            guard let position = positions.position(device, seq) else { continue }
            try ledger.forEachSealedRecord(from: position) { view, _ in
                if view.device == device && view.holds(seq: seq) { result[device.description] = .init(of: view) }
                return .stop
            }
            guard result[device.description] != nil else {
                throw LedgerError(.corruption, "sealed event \(EventID(device: device, seq: seq)) is not at log position \(position), where opening found it")
            }
        }
        return result
    }

    /// The sealed records `have` lacks, in log order from `request.cursor`, up to the page limits
    /// (`SealedPullPage`); whole stored frames the client lacks go out as they are stored.
    func pull(_ request: PullRequest, have: [DeviceID: UInt64], limits: SyncLimits.Pages) throws -> SealedPullAnswer {
        var page = try SealedPullPage(request, have: have, limits: limits)
        try ledger.forEachFrame(from: page.start(end: ledger.recordCount)) { frame, first in
            page.take(frame, at: first, serverDevice: SealedRecords.noDevice)
        }
        return SealedPullAnswer(records: page.records, page: SealedPullResponse(
            more: page.more, cursor: page.cursor, serverHas: serverHas, haveChecks: try storedDigests(at: have),
            serverDigests: try storedDigests(at: ledger.versionVector)))
    }

    /// Admits a push of sealed records (`SealedAdmission`: epochs, held copies byte for byte,
    /// seq continuity, names once) for an account at key epoch `epoch`, then appends what the
    /// ledger lacks in one fsynced batch: the new events in (device, seq) order, then the names.
    func push(_ records: SealedRecords, epoch: UInt32, user: String, claims: DeviceClaims, sizeLimit: UserSizeLimit) throws -> PushResponse {
        let devices = DeviceClaims.devices { note in records.forEach { note($0.device) } }
        try claims.checkPush(devices, for: user, serverDevice: nil, holds: holds)
        var admission = SealedAdmission(into: .init(epoch: epoch, held: ledger.versionVector, names: names))
        let admitted: SealedAdmission.Admitted
        do {
            try records.forEach { try admission.receive($0) }
            for id in admission.heldIDs {
                guard let position = positions.position(id.device, id.seq) else { continue }
                try ledger.forEachSealedRecord(from: position) { stored, _ in
                    try admission.checkStored(stored)
                    return .stop
                }
            }
            admitted = try admission.admit()
        } catch let error as LedgerError where error.isRefusal {
            throw SyncServerError(refusedMerge: error)
        }
        let batch = admitted.batch(received: records)
        try sizeLimit.check(stored: Int64(ledger.bytesOnDisk), adding: (records: batch.count, bytes: batch.bytes.count))
        var position = ledger.recordCount
        var appended: [(device: DeviceID, first: UInt64, last: UInt64, position: UInt64)] = []
        var newNames: [UInt64] = []
        try batch.bytes.withUnsafeBytes { raw in
            try ledger.appendSealed(raw, received: batch.frames) { view in
                defer { position += 1 }
                if view.kind.holdsEvents {
                    appended.append((view.device, view.firstSeq, view.seq, position))
                } else {
                    newNames.append(RecordFingerprint.of(view.bytes))
                }
            }
        }
        // Only once the batch is durable (appendSealed returned).
        for event in appended { positions.append(device: event.device, first: event.first, last: event.last, position: event.position) }
        names.formUnion(newNames)
        return PushResponse(appended: admitted.appendedCount, duplicates: admitted.duplicates, serverHas: serverHas)
    }

    /// Devices the ledger already holds events of (a sealed name's device is not read: its first
    /// push claims it).
    func holds(_ device: DeviceID) -> Bool { ledger.versionVector[device] != nil }
}
