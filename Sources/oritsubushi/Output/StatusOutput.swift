import LedgerCore
import LedgerSync

/// `status --json`: one object (docs/ledger-cli.md, "status"); `JSONOutput` writes it.
struct StatusOutput: Encodable {
    struct Device: Encodable {
        var device: String
        var name: String
        var events: UInt64
        var local: Bool
    }

    var ledger, ledgerID, device, deviceName: String
    var events, records: UInt64
    var segments, sealedSegments, bytesOnDisk: Int
    var clock: String
    var devices: [Device]
    /// The last successful sync (`sync-state.json`); both null when it never synced.
    @NullWhenAbsent var lastSync: String?
    @NullWhenAbsent var server: String?
    /// The events beyond what the server held at the last sync; before any sync, every event.
    var pendingPush: UInt64

    enum CodingKeys: String, CodingKey {
        case ledger, ledgerID = "ledger_id", device, deviceName = "device_name", events, records, segments
        case sealedSegments = "sealed_segments", bytesOnDisk = "bytes_on_disk", clock, devices
        case lastSync = "last_sync", server, pendingPush = "pending_push"
    }

    /// `devices`: every device the ledger knows, sorted by id; `sync`: the ledger's sync state,
    /// nil when it never synced.
    init(_ ledger: Ledger, devices: [DeviceID], sync: SyncState?) {
        self.ledger = ledger.directory
        ledgerID = ledger.metadata.ledgerID
        device = ledger.localDevice.description
        deviceName = ledger.metadata.deviceName
        events = ledger.eventCount
        records = ledger.recordCount
        segments = ledger.segments.count
        sealedSegments = ledger.segments.filter(\.sealed).count
        bytesOnDisk = ledger.bytesOnDisk
        clock = ledger.lastHLC.description
        self.devices = devices.map { d in
            Device(device: d.description, name: ledger.deviceNames[d]?.name ?? "", events: ledger.versionVector[d] ?? 0,
                   local: d == ledger.localDevice)
        }
        lastSync = sync?.syncedAt
        server = sync?.server
        pendingPush = (sync ?? SyncState()).pending(ledger.versionVector)
    }
}
