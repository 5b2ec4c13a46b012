import ArgumentParser
import LedgerCore

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show devices, event counts, segments and size on disk (reads no frames).")

    @OptionGroup var options: LedgerOptions
    @Flag(help: "Print as JSON.") var json = false

    func run() throws {
        let ledger = try options.openForReading()
        defer { ledger.close() }
        let devices = Set(ledger.versionVector.keys).union(ledger.deviceNames.keys).sorted()
        let sealed = ledger.segments.filter(\.sealed).count
        if json {
            print(try JSONOutput.line(StatusOutput(ledger, devices: devices)))
            return
        }
        print("ledger     \(ledger.directory) (id \(ledger.metadata.ledgerID))")
        print("device     \(ledger.metadata.deviceName) (\(ledger.localDevice))")
        print("events     \(ledger.eventCount) (\(ledger.recordCount) records)")
        print("segments   \(ledger.segments.count) (\(sealed) sealed), \(ledger.bytesOnDisk) bytes on disk")
        print("clock      \(ledger.lastHLC)")
        print("devices")
        for d in devices {
            let name = ledger.deviceNames[d]?.name ?? "(unnamed)"
            let mark = d == ledger.localDevice ? " (this device)" : ""
            print("  \(d)  \(name)\(mark): \(Plural.count(ledger.versionVector[d] ?? 0, "event"))")
        }
    }
}
