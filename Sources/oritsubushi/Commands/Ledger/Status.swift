import ArgumentParser
import LedgerCore
import LedgerSync

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show devices, event counts, segments, size on disk and the last sync (reads no frames).")

    @OptionGroup var options: LedgerOptions
    @Flag(help: "Print as JSON.") var json = false

    func run() throws {
        let ledger = try options.openForReading()
        defer { ledger.close() }
        let devices = Set(ledger.versionVector.keys).union(ledger.deviceNames.keys).sorted()
        let sealed = ledger.segments.filter(\.sealed).count
        // A state written by a sync (an unreadable one is shown as no sync: status only reports).
        let state = try? SyncState.read(directory: ledger.directory, fileSystem: ledger.fileSystem)
        let sync = state?.syncedAt == nil ? nil : state
        if json {
            print(try JSONOutput.line(StatusOutput(ledger, devices: devices, sync: sync)))
            return
        }
        print("ledger     \(ledger.directory) (id \(ledger.metadata.ledgerID))")
        print("device     \(ledger.metadata.deviceName) (\(ledger.localDevice))")
        print("events     \(ledger.eventCount) (\(Plural.count(ledger.recordCount, "record")))")
        print("segments   \(ledger.segments.count) (\(sealed) sealed), \(ledger.bytesOnDisk) bytes on disk")
        // Human-readable times are Japan time, as everywhere (JSON keeps UTC).
        print("clock      \(ledger.lastHLC.milliseconds == 0 ? "-" : JapanTime.text(ledger.lastHLC, .en))")
        // Before any sync every event waits to be pushed.
        let pending = (sync ?? SyncState()).pending(ledger.versionVector)
        if let sync, let at = sync.syncedAt {
            let time = ISO8601.parseMilliseconds(at).map { JapanTime.text(milliseconds: $0, .en) } ?? at
            print("last sync  \(time) with \(sync.server ?? "an unrecorded server"); \(Plural.count(pending, "event")) to push")
        } else {
            print("last sync  never; \(Plural.count(pending, "event")) to push")
        }
        print("devices")
        for d in devices {
            let name = ledger.deviceNames[d]?.name ?? "(unnamed)"
            let mark = d == ledger.localDevice ? " (this device)" : ""
            print("  \(d)  \(name)\(mark): \(Plural.count(ledger.versionVector[d] ?? 0, "event"))")
        }
    }
}
