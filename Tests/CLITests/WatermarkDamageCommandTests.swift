import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// Two faults never pass for a tear, through the built executable: a device's ledger whose newest
/// segment lost bytes off its tail (into acknowledged frames, or just the last few) and whose
/// watermark is lost, short, flipped or stale is damage (Schemas/segment-format.md §5b): `verify`
/// exits 65 with one sentence naming the watermark file, and neither it nor a command that writes
/// changes a byte of the ledger.
@Suite struct WatermarkDamageCommandTests {
    enum Fault: String, CaseIterable {
        case lost, short, flipped, stale
    }

    /// A ledger of three completions after the device name; the watermark file as it was before
    /// the last one (for the stale fault).
    private func ledger(in scratch: TemporaryDirectory) throws -> (CLIRunner, String, String, Data) {
        let ledger = scratch.path + "/l"
        let cli = CLIRunner(ledger: ledger)
        try cli.run("init", "--no-catalog")
        try cli.run("complete", "5", "2013")
        try cli.run("complete", "6", "2014")
        let segment = ledger + "/segments/00000001.seg"
        let stale = try Data(contentsOf: URL(fileURLWithPath: segment + ".durable"))
        try cli.run("complete", "7", "2015")
        return (cli, ledger, segment, stale)
    }

    private func apply(_ fault: Fault, to watermark: String, stale: Data) throws {
        let url = URL(fileURLWithPath: watermark)
        switch fault {
        case .lost: try FileManager.default.removeItem(at: url)
        case .short: try Data(try Data(contentsOf: url).prefix(1000)).write(to: url)
        case .flipped:
            var bytes = try Data(contentsOf: url)
            bytes[3] ^= 0x08
            try bytes.write(to: url)
        case .stale: try stale.write(to: url)
        }
    }

    @Test("a cut tail with a lost, short, flipped or stale watermark: verify exits 65 naming it and nothing changes",
          arguments: Fault.allCases, [7, 30])
    func cutTailWithWatermarkFault(_ fault: Fault, cut: Int) throws {
        let scratch = try TemporaryDirectory("cli-two-faults")
        defer { scratch.remove() }
        let (cli, ledger, segment, stale) = try self.ledger(in: scratch)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: segment))
        try bytes.dropLast(cut).write(to: URL(fileURLWithPath: segment))
        let watermark = segment + ".durable"
        try apply(fault, to: watermark, stale: stale)
        let before = try directorySnapshot(ledger)
        let verify = try CLIRunner(ledger: nil).run("verify", "--ledger", ledger)
        #expect(verify.status == 65, "\(fault), \(cut): exit \(verify.status): \(verify.stderr)")
        #expect(verify.stderr.contains(watermark), "\(fault), \(cut): \(verify.stderr)")
        #expect(verify.stderr.trimmingCharacters(in: .newlines).split(separator: "\n").count == 1, "one sentence: \(verify.stderr)")
        for command in [["replay"], ["complete", "8", "2016"]] {
            let result = try cli.run(command)
            #expect(result.status == 65, "\(fault), \(cut), \(command): \(result.stderr)")
        }
        let after = try directorySnapshot(ledger)
        #expect(after == before, "\(snapshotDifferences(before, after))")
    }
}
