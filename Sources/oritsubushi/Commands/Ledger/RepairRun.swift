import LedgerCatalog
import LedgerCore
import LedgerSync
import SyncClient

/// `repair` (alias `verify --repair`) `--from DIR | --server URL`: the command side of
/// `LedgerRepair` (which does the work and documents the steps). Prints one line per action,
/// or one JSON object with `--json` (keys in docs/ledger-cli.md, "Repairing a damaged replica").
struct RepairRun {
    var options: LedgerOptions
    var source: RepairSource
    var json: Bool

    private var from: String? { source.from }
    private var server: String? { source.server }
    private var token: String? { source.token }

    func run() async throws {
        let clock = try Environment.clock()
        // Arguments and the source ledger are checked before the damaged ledger is touched.
        let secret = try server.map { _ in try SyncToken.resolve(token, ledgerDirectory: options.directory) }
        let sourceLedger = try from.map {
            try options.openOther($0, refusingSelf: "--from \($0) is this ledger itself; repair from another replica")
        }
        defer { sourceLedger?.close() }
        let repair = try LedgerRepair.begin(directory: options.directory, clock: clock, lock: options.lockRequest(.exclusive))
        defer { repair.close() }
        repair.derivedFiles = [LedgerFiles.projection]
        guard repair.needsRepair else {
            print(json ? try JSONOutput.line(RepairOutput.nothingToRepair) : "ok: nothing to repair")
            return
        }
        let sourceName: String
        let records: [LedgerRecord]
        if let sourceLedger {
            sourceName = sourceLedger.directory
            records = try sourceLedger.allRecords()
        } else {
            sourceName = server!
            records = try await SyncConnection(server: server!, token: secret!).pullAll()
        }
        let report = try repair.repair(from: records, sourceName: sourceName)
        // Still under the repair's lock.
        let ledger = try Ledger.open(directory: options.directory, clock: clock, useLock: false)
        defer { ledger.close() }
        let verified = try ledger.verify()
        let projection = try ProjectionStore.rebuild(ledger)
        if json {
            print(try JSONOutput.line(RepairOutput(report, source: sourceName, verified: verified)))
        } else {
            printLines(report, source: sourceName, verified: verified, stations: projection.stationCount)
        }
    }

    private func printLines(_ report: RepairReport, source: String, verified: VerifyReport, stations: Int) {
        if let segment = report.damagedSegment, let damage = report.damage { print("damaged: \(segment): \(damage)") }
        for name in report.moved { print("moved \(name) aside to \(report.quarantine ?? "")/") }
        print("re-fetched \(Plural.count(report.recoveredEvents, "event")) from \(source)")
        if report.reappendedRecords > 0 {
            print("re-appended \(Plural.count(report.reappendedRecords, "record")) of the intact segments after the damage")
        }
        if report.mergedEvents > 0 { print("merged \(Plural.count(report.mergedEvents, "further event")) from \(source)") }
        for name in report.finished { print("finished the interrupted repair in \(LedgerRepair.quarantineDirectory)/\(name)/") }
        print("rebuilt the projection: \(Plural.count(stations, "station"))")
        print("repaired: \(Plural.count(verified.events, "event")) (\(Plural.count(verified.records, "record"))) in \(Plural.count(verified.segments, "segment")); verify is ok; the originals are in \(report.quarantine ?? "")/")
    }
}
