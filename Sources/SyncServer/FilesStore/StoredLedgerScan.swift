import LedgerCore
import LedgerSync

/// One user's ledger read without taking its lock, so `server users`, `verify` and `export` work
/// while `serve` holds it: every segment is read on its own and checked (frame checksums, footer,
/// log positions, seq continuity; `LedgerRepair`'s inspection), and nothing is written — a torn
/// tail of the newest segment (a push being written) is left for its owner to cut.
struct StoredLedgerScan {
    let directory: String
    /// The intact records before the first damage, in log order.
    let records: [LedgerRecord]
    /// The first damage, or an interrupted `server repair`, if any.
    let damage: LedgerError?
    /// The server's own device id in this ledger (never a client's).
    let serverDevice: DeviceID
    /// An end-to-end encrypted account's sealed records before the first damage (its
    /// `records` are then empty, and it has no record of the server's); nil for plaintext.
    var sealed: SealedRecords?

    /// Reads `directory`; nil when it holds no ledger (a user who never pushed).
    static func read(directory: String, clock: any WallClock, fileSystem: any FileSystem) throws -> StoredLedgerScan? {
        let metadataPath = Path.join(directory, LedgerMetadata.fileName)
        guard fileSystem.fileExists(metadataPath) else { return nil }
        let metadata = try LedgerMetadata.decode(try fileSystem.readFile(metadataPath), path: metadataPath)
        if metadata.recordForm == .sealed {
            let (sealed, damage) = try SealedLedgerScan.read(directory: directory, metadata: metadata, fileSystem: fileSystem)
            return StoredLedgerScan(directory: directory, records: [], damage: damage, serverDevice: metadata.deviceID, sealed: sealed)
        }
        let inspection = try LedgerRepair.begin(directory: directory, fileSystem: fileSystem, clock: clock, useLock: false)
        defer { inspection.close() }
        let first = inspection.firstDamagedNumber
        let intact = inspection.segments.prefix { first == nil || $0.number < first! }
        var damage = inspection.damage
        if damage == nil, let run = inspection.unfinished.first {
            damage = LedgerError(.corruption, "a repair did not finish; run 'server repair' again",
                                 file: Path.join(inspection.quarantinePath, run))
        }
        return StoredLedgerScan(directory: directory, records: intact.flatMap(\.records), damage: damage,
                                serverDevice: inspection.metadata.deviceID)
    }

    var events: UInt64 {
        guard let sealed else { return UInt64(records.lazy.filter { $0.eventID != nil }.count) }
        var count: UInt64 = 0
        sealed.forEach { count += $0.eventCount }
        return count
    }

    /// The client devices this ledger holds events or names of.
    var devices: Set<DeviceID> {
        guard let sealed else { return Set(records.map(\.device)).subtracting([serverDevice]) }
        var devices = Set<DeviceID>()
        sealed.forEach { devices.insert($0.device) }
        return devices
    }

    /// Every record but the server's own (its device name): what a client's ledger may hold.
    var clientRecords: [LedgerRecord] {
        records.filter { $0.device != serverDevice }
    }
}
