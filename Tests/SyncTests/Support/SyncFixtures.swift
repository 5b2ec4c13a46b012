import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport

/// A device clock: a shared base time plus this device's skew, moving forward a little on
/// every reading, so that tests are reproducible and independent of the machine's clock.
final class DeviceClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var now: Int64
    var skew: Int64

    init(base: Int64 = 1_700_000_000_000, skew: Int64 = 0) {
        now = base
        self.skew = skew
    }

    func advance(_ ms: Int64) { lock.withLock { now += ms } }

    func nowMilliseconds() -> Int64 {
        lock.withLock {
            now += 7
            return now + skew
        }
    }
}

extension Ledger {
    /// Every event, keyed by id, as the fingerprint of its encoding.
    func eventSet() throws -> [EventID: UInt64] {
        var set: [EventID: UInt64] = [:]
        try forEachRecord { view, _ in
            if view.hasEventID { set[view.eventID] = RecordFingerprint.of(view) }
        }
        return set
    }

    /// The projection every replica must agree on: the LWW fold of every station edit.
    func projection() throws -> [UInt32: CompletionRegister] {
        var registers: [UInt32: CompletionRegister] = [:]
        try forEachRecord { view, _ in
            guard case .stationEdit(let edit) = view.record else { return }
            registers[edit.station, default: CompletionRegister()].apply(edit)
        }
        return registers
    }

    func edit(_ station: UInt32, date: CompletionDate? = nil, memo: String? = nil) throws -> StationEdit {
        try appendLocal([StationEditDraft(station: station, compDate: date, memo: memo)])[0]
    }
}

/// Options for a test merge: a device's clock lead is checked against that device's clock.
func mergeOptions() -> MergeOptions {
    var options = MergeOptions()
    options.batchSize = 7  // small batches: exercise batching and knowledge marks per batch
    return options
}
