import LedgerCore
import LedgerSync

/// `repair --json` (and `verify --repair --json`): one object
/// (docs/ledger-cli.md, "Repairing a damaged replica"; `JSONOutput` writes it). With nothing to repair only ok and repaired.
struct RepairOutput: Encodable {
    struct Done: Encodable {
        @NullWhenAbsent var damagedSegment: String?
        @NullWhenAbsent var damage: String?
        @NullWhenAbsent var quarantine: String?
        var moved: [String]
        var source: String
        var recoveredEvents: Int
        var reappendedRecords: Int
        var mergedEvents: Int
        var finished: [String]
        var segments: Int
        var events: UInt64
        var records: UInt64

        enum CodingKeys: String, CodingKey {
            case damagedSegment = "damaged_segment", damage, quarantine, moved, source
            case recoveredEvents = "recovered_events", reappendedRecords = "reappended_records"
            case mergedEvents = "merged_events", finished, segments, events, records
        }
    }

    var ok = true
    var repaired: Done?

    static var nothingToRepair: RepairOutput { RepairOutput(repaired: nil) }

    init(repaired: Done?) { self.repaired = repaired }

    init(_ report: RepairReport, source: String, verified: VerifyReport) {
        repaired = Done(damagedSegment: report.damagedSegment, damage: report.damage, quarantine: report.quarantine,
                        moved: report.moved, source: source, recoveredEvents: report.recoveredEvents,
                        reappendedRecords: report.reappendedRecords, mergedEvents: report.mergedEvents,
                        finished: report.finished, segments: verified.segments, events: verified.events,
                        records: verified.records)
    }

    /// `"repaired": true` followed by the summary's keys in the same object, or `"repaired": false`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ok, forKey: .ok)
        try container.encode(repaired != nil, forKey: .repaired)
        try repaired?.encode(to: encoder)
    }

    private enum CodingKeys: String, CodingKey { case ok, repaired }
}
