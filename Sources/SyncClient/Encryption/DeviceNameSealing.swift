import LedgerCore
import LedgerSync

/// A device's name on an end-to-end encrypted account, as its token carries it on the server
/// (Schemas/encryption.md §8, "Device names"; `SealedDeviceName`): the device's own name record
/// sealed as a push seals it. The device names itself so once it holds the key, and `device list`
/// opens the names of the devices whose keys it holds.
package enum DeviceNameSealing {
    /// `name` (the device's own name record) sealed under `key`, as the server keeps it.
    package static func seal(_ name: DeviceNameRecord, with key: DataKey) throws -> String {
        var records = EncodedRecords()
        records.append(.deviceName(name))
        do { return SealedDeviceName.text(of: try SyncSealing.seal(records, with: key)) } catch { throw error.ledgerError }
    }

    /// The name a sealed name holds, opened with `keys`; nil when it does not read or opens to no
    /// device name (another account's, or an epoch this device lacks).
    package static func open(_ text: String, keys: KeyRing) -> String? {
        guard let sealed = SealedDeviceName.record(in: text),
              let opened = try? SyncSealing.open(sealed, keys: keys) else { return nil }
        var name: String?
        opened.forEach { view in if case .deviceName(let record) = view.record { name = record.name } }
        return name
    }

    /// Names this device sealed on the server when the account says it has no sealed name yet
    /// (`GET /v1/account`'s `device_named`): after the first key, a link, the kit or a
    /// conversion. Quietly nothing when the ledger holds no name of its own device.
    package static func nameIfOwed(_ prepared: AccountKeys.Prepared, ledger: Ledger, connection: SyncConnection) async throws {
        guard prepared.owesSealedName, let keys = prepared.keys, let own = ledger.deviceNames[ledger.localDevice] else { return }
        _ = try await connection.rename(to: try seal(own, with: keys.current))
    }
}
