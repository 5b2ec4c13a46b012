import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// Re-importing your own export changes nothing (issue 12 §4.4): an absent memo (or date) and
/// the default the export writes (`""`, 0) are one value.
@Suite(.serialized) struct ReimportTests {
    @Test(arguments: [UInt64(1), 7]) func aGeneratedHistoryReimportsItsOwnExportAsANoOp(seed: UInt64) throws {
        let dir = try TemporaryDirectory("reimport")
        defer { dir.remove() }
        let cli = CLIRunner(ledger: dir.sub("g"))
        let generated = try cli.run("generate", "--events", "4000", "--seed", String(seed))
        #expect(generated.status == 0, "\(generated.stderr)")
        for format in ["tsv", "sqlite"] {
            let file = dir.sub("export.\(format)")
            #expect(try cli.run("export", "--format", format, "--output", file).status == 0)
            let before = try directorySnapshot(dir.sub("g"))
            let result = try cli.run("import", format == "tsv" ? "oritsubushi-tsv" : "sqlite", file)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains(": 0 events appended"), "\(format): \(result.stdout)")
            #expect(try directorySnapshot(dir.sub("g")).filter { !$0.key.hasPrefix("projection") }
                == before.filter { !$0.key.hasPrefix("projection") }, "\(format)")
        }
    }

    /// The rule itself: a default value on an unset register is no change; on a set one it is.
    @Test func defaultsOnUnsetRegistersAreNoChange() {
        var row = ProjectedStation()
        let order = EventOrder(hlc: HybridTimestamp(milliseconds: 1_000), device: DeviceID(rawValue: 1), seq: 1)
        let unset = row.effectiveFields(compDate: 0, memo: "", at: order)
        #expect(unset.compDate == nil && unset.memo == nil)
        row.apply(StationEdit(id: EventID(device: DeviceID(rawValue: 2), seq: 1), hlc: HybridTimestamp(milliseconds: 500),
                              station: 1, compDate: .unknown, memo: "x", origin: .user))
        let set = row.effectiveFields(compDate: 0, memo: "", at: order)
        #expect(set.compDate == 0 && set.memo == "")
    }
}
