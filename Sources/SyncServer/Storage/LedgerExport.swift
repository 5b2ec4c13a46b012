import LedgerCore
import LedgerSync

/// `server export`'s writer, shared by both stores: a user's records as a new ledger directory
/// that `oritsubushi` opens like any replica (`merge`, `replay`, `verify`). The directory gets its
/// own new device id (named `deviceName`), so syncing or merging from it never poses as a device
/// of the user's or as the server.
package enum LedgerExport {
    /// Creates `directory` (it must be missing or empty; the CLI checks first) and appends
    /// `records` (a user's events and device names, in the store's log order) through the normal
    /// merge path. Returns the number of events written.
    package static func write(_ records: [LedgerRecord], to directory: String, deviceName: String,
                              clock: any WallClock) throws -> Int {
        let ledger = try Ledger.create(directory: directory, deviceName: deviceName, clock: clock)
        defer { ledger.close() }
        // These events were accepted once already: no clock bound, no knowledge mark of the export's own.
        let options = MergeOptions.reappendingDuringRepair
        let prepared = try LedgerMerger.prepare(records, for: ledger, options: options)
        return try LedgerMerger.apply(prepared, to: ledger, options: options).eventsIn
    }

    /// An end-to-end encrypted account's sealed records, as they are stored, as a new sealed
    /// ledger directory (`Ledger.createSealed`): the server cannot open them, so an export keeps
    /// them sealed, for a device holding the key. Returns the number of sealed events.
    package static func writeSealed(_ records: SealedRecords, to directory: String, ownerName: String,
                                    clock: any WallClock) throws -> Int {
        let ledger = try Ledger.createSealed(directory: directory, ownerName: ownerName, clock: clock)
        defer { ledger.close() }
        var events = 0
        try records.bytes.withUnsafeBytes { raw in
            try ledger.appendSealed(raw) { events += Int($0.eventCount) }
        }
        return events
    }
}
