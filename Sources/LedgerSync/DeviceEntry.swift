import LedgerCore

/// One of a user's devices as `GET /v1/devices` lists it (Schemas/sync-api.yaml `Device`): the
/// server writes it, `SyncClient` reads it, and `device list --json` prints it again with its
/// times as ISO 8601 — one type for all three, so that the keys are written once.
///
/// Every key is present: `name` and `last_sync` are null when unknown (a token of
/// `server add-user` has no name; a device that never synced has no last sync).
package struct DeviceEntry<Time: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    package var id: String
    package var name: String?
    package var created: Time
    package var lastSync: Time?
    /// Whether this is the device whose token asked.
    package var thisDevice: Bool

    package init(id: String, name: String?, created: Time, lastSync: Time?, thisDevice: Bool) {
        (self.id, self.name, self.created, self.lastSync, self.thisDevice) = (id, name, created, lastSync, thisDevice)
    }

    /// The same device with its times written another way (the CLI's ISO 8601).
    package func withTimes<Other>(_ convert: (Time) -> Other) -> DeviceEntry<Other> {
        DeviceEntry<Other>(id: id, name: name, created: convert(created), lastSync: lastSync.map(convert), thisDevice: thisDevice)
    }

    enum CodingKeys: String, CodingKey {
        case id, name, created
        case lastSync = "last_sync"
        case thisDevice = "this_device"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(NullWhenAbsent(wrappedValue: name), forKey: .name)
        try container.encode(created, forKey: .created)
        try container.encode(NullWhenAbsent(wrappedValue: lastSync), forKey: .lastSync)
        try container.encode(thisDevice, forKey: .thisDevice)
    }
}
