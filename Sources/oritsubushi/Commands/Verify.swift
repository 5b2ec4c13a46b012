import ArgumentParser
import LedgerCore

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read every frame, check every checksum and every device's seq continuity.")

    @OptionGroup var options: LedgerOptions
    @Flag(help: "Print the summary as JSON.") var json = false

    func run() throws {
        try CommandRunner.run {
            let ledger = try options.open()
            defer { ledger.close() }
            let r = try ledger.verify()
            let ratio = (r.compressionRatio * 100).rounded() / 100
            if json {
                print("{\"ok\":true,\"segments\":\(r.segments),\"sealed_segments\":\(r.sealedSegments),\"frames\":\(r.frames),\"events\":\(r.events),\"records\":\(r.records),\"devices\":\(r.devices),\"bytes_on_disk\":\(r.bytesOnDisk),\"raw_bytes\":\(r.rawBytes),\"compression_ratio\":\(ratio)}")
            } else {
                print("ok: \(r.segments) segments (\(r.sealedSegments) sealed), \(r.frames) frames, \(r.events) events (\(r.records) records) from \(r.devices) devices")
                print("    \(r.bytesOnDisk) bytes on disk, \(r.rawBytes) bytes raw, compression ratio \(ratio)")
            }
        }
    }
}
