import LedgerCore
import LedgerSync

/// `reissue --json`.
struct ReissueOutput: Encodable {
    var reissued = false
    var dryRun: Bool
    var oldDevice: String?
    var newDevice: String?
    var firstSeq: UInt64?
    var lastSeq: UInt64?
    var events: UInt64 = 0
    var stationEdits = 0
    var latest: String?
    var quarantine: String?

    enum CodingKeys: String, CodingKey {
        case reissued, events, latest, quarantine
        case dryRun = "dry_run"
        case oldDevice = "old_device"
        case newDevice = "new_device"
        case firstSeq = "first_seq"
        case lastSeq = "last_seq"
        case stationEdits = "station_edits"
    }

    init(dryRun: Bool) { self.dryRun = dryRun }

    init(_ plan: ReissuePlan, dryRun: Bool) {
        self.reissued = !dryRun
        self.dryRun = dryRun
        oldDevice = plan.device.description
        firstSeq = plan.firstSeq
        lastSeq = plan.lastSeq
        events = plan.events
        stationEdits = plan.stationEdits
        latest = plan.latest.description
    }
}
