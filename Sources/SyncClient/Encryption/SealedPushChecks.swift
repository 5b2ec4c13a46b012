import LedgerCore
import LedgerSync

/// The checks a server makes of a plaintext push and cannot make of a sealed one, whose hlc and
/// content it cannot read: the pushing device makes them itself, before it seals, against the
/// server's clock (`ServerClock`; Schemas/encryption.md §1, "The clock stays sealed"). They are
/// the server's own (`RecordChecks` with `MergeOptions.acceptingPush`): no event more than the
/// clock lead ahead of the server's clock or before 2000, no invalid station edit and no
/// completion date after the server's day. The catalogue check stays with the receiving
/// devices, which hold the catalogue.
package enum SealedPushChecks {
    /// Refuses `records` (a push about to be sealed) at the first record the server would have
    /// refused, in its words, saying that nothing was sent. `serverNow`: the server's clock in
    /// Unix milliseconds; `names`: the devices' names the ledger holds, for the refusal.
    package static func check(_ records: EncodedRecords, serverNow: Int64, names: [DeviceID: DeviceNameRecord]) throws {
        let options = MergeOptions.acceptingPush(stations: AnyPositiveStation(), now: serverNow)
        let nameOf = { (device: DeviceID) -> String in names[device].map { "'\($0.name)' (\(device))" } ?? "\(device)" }
        do {
            try records.forEach { view in
                try RecordChecks.checkClock(view.hlc, device: nameOf(view.device), now: serverNow, options: options)
                try RecordChecks.checkContent(view, options: options)
            }
        } catch var error as LedgerError {
            error.message = "this encrypted account's server cannot read the records it is sent, so this device checked them against the server's clock and sent nothing: " + error.message
            throw error
        }
    }
}
