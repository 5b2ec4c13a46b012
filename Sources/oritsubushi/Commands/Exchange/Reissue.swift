import ArgumentParser
import LedgerCatalog
import LedgerCore
import LedgerSync

struct Reissue: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reissue",
        abstract: "Re-record this device's events dated more than a day ahead under a new device id, with the current clock.",
        discussion: """
            For a device whose clock ran fast: a sync server refuses events dated more than a day \
            ahead of its clock, and every later event of the ledger inherits the future stamp. \
            Fix the clock first, then run this. The device's events from the first one dated \
            beyond that bound (relative to now) to its last are appended again under a new \
            device id, with the same stations, dates, memos and origin and the current clock, and \
            the old ones leave the ledger: its segments go to quarantine/<UTC time>/ (nothing is \
            deleted), the projection is rebuilt, and 'sync' then succeeds (Schemas/merge.md §11). \
            Only events no one received can be reissued: above what the sync server acknowledged \
            (sync-state.json, written by 'sync') and what other devices' knowledge marks record. \
            Exit codes: 0 reissued or nothing to reissue, 65 the events were already received \
            (nothing changed) or the ledger is damaged, 66 no ledger, 75 ledger locked.
            """)

    @OptionGroup var options: LedgerOptions
    @Flag(help: "Say what would be reissued; change nothing.") var dryRun = false
    @Flag(help: "Print one JSON object (keys: reissued, dry_run, old_device, new_device, first_seq, last_seq, events, station_edits, latest, quarantine).")
    var json = false

    func run() throws {
        var ledger = try options.open()
        defer { ledger.close() }
        let state = try SyncState.read(directory: ledger.directory, fileSystem: ledger.fileSystem)
        guard let plan = try ReissuePlan.make(ledger, state: state) else {
            let now = HybridTimestamp(milliseconds: ledger.clock.nowMilliseconds())
            try emit(ReissueOutput(dryRun: dryRun), text: "nothing to reissue: no event of device \(ledger.localDevice) is dated more than a day ahead of now (\(JapanTime.text(now, .en)))")
            return
        }
        var output = ReissueOutput(plan, dryRun: dryRun)
        let range = "#\(plan.firstSeq)–#\(plan.lastSeq) (\(Plural.count(plan.events, "event")), \(Plural.count(plan.stationEdits, "station edit")), dated up to \(JapanTime.text(plan.latest, .en)))"
        guard !dryRun else {
            try emit(output, text: "would reissue device \(plan.device)'s events \(range) under a new device id with the current clock")
            return
        }
        let change = try DeviceReidentification.rewrite(
            ledger, from: plan.firstSeq, stamping: .restamp(now: ledger.clock.nowMilliseconds()), derivedFiles: [LedgerFiles.projection])
        ledger.close()
        ledger = try options.open()
        try ProjectionStore.rebuild(ledger)
        output.newDevice = change.newDevice.description
        output.quarantine = change.quarantine
        try emit(output, text: "reissued device \(plan.device)'s events \(range) as device \(change.newDevice) with the current clock; the old segments are in \(change.quarantine)/; run 'oritsubushi sync' to send them")
    }

    private func emit(_ output: ReissueOutput, text: String) throws {
        print(json ? try JSONOutput.line(output) : text)
    }
}
