import ArgumentParser
import LedgerCore

struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Read every frame, check every checksum and every device's seq continuity.",
        discussion: """
            A damaged ledger fails with exit 65, naming the file and byte offset. With --repair it \
            is repaired from a healthy replica (--from DIR) or a sync server (--server URL): the \
            first damaged segment and every later one are moved aside into quarantine/<UTC time>/ \
            in the ledger directory (never deleted), their events are fetched again, and the \
            projection is rebuilt. Nothing changes unless the source has every event the damaged \
            segments held (else exit 65). An interrupted repair is finished by running it again. \
            Exit codes with --repair: 0 repaired or nothing to repair, 65 not repairable, \
            66 no ledger, 69 server unreachable, 75 locked, 77 token refused.
            """)

    @OptionGroup var options: LedgerOptions
    @Flag(help: "Print the summary as JSON.") var json = false
    @Flag(help: "Repair damaged segments from --from or --server (the same as 'repair').") var repair = false
    @OptionGroup var source: RepairSource

    func validate() throws {
        if repair {
            try source.check(spelling: "--repair")
        } else if source.isGiven {
            throw ValidationError("--from and --server are only for --repair")
        } else if source.token != nil {
            throw ValidationError("--token is only for --repair --server")
        }
    }

    func run() async throws {
        if repair {
            try await RepairRun(options: options, source: source, json: json).run()
            return
        }
        let ledger = try options.openForReading()
        defer { ledger.close() }
        let r = try ledger.verify()
        let ratio = (r.compressionRatio * 100).rounded() / 100
        if json {
            print(try JSONOutput.line(VerifyOutput(r, ratio: ratio)))
        } else {
            print("ok: \(Plural.count(r.segments, "segment")) (\(r.sealedSegments) sealed), \(Plural.count(r.frames, "frame")), \(Plural.count(r.events, "event")) (\(Plural.count(r.records, "record"))) from \(Plural.count(r.devices, "device"))")
            print("    \(r.bytesOnDisk) bytes on disk, \(r.rawBytes) bytes raw, compression ratio \(ratio)")
            if let note = r.ignoredCheckpoint {
                print("    note: opening scanned the newest segment because its checkpoint was unusable (\(note)); the next append rewrites it")
            }
        }
    }
}
