import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// Re-importing your own export changes nothing (Schemas/import-export.md, "How rows become
/// events"): an absent memo (or date) and the default the export writes (`""`, 0) are one value.
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

    /// The rule itself: `""` on an unset memo register is no change; 0 on an unset date
    /// register is no change once the station has a memo, and an event on a station without any.
    @Test func defaultsOnUnsetRegisters() {
        var row = ProjectedStation()
        let order = EventOrder(hlc: HybridTimestamp(milliseconds: 1_000), device: DeviceID(rawValue: 1), seq: 1)
        let fresh = row.effectiveFields(compDate: 0, memo: "", at: order)
        #expect(fresh.compDate == 0 && fresh.memo == nil)
        row.apply(StationEdit(id: EventID(device: DeviceID(rawValue: 2), seq: 1), hlc: HybridTimestamp(milliseconds: 500),
                              station: 1, compDate: nil, memo: "x", origin: .user))
        let memoOnly = row.effectiveFields(compDate: 0, memo: "x", at: order)
        #expect(memoOnly.compDate == nil && memoOnly.memo == nil)
        let cleared = row.effectiveFields(compDate: nil, memo: "", at: order)
        #expect(cleared.memo == "")
    }

    /// A memo-only station (date register unset) exports as comp_date 0 and re-imports as nothing.
    @Test func aMemoOnlyStationReimportsAsANoOp() throws {
        let dir = try TemporaryDirectory("reimport")
        defer { dir.remove() }
        let cli = CLIRunner(ledger: dir.sub("l"))
        #expect(try cli.run("init", "--no-catalog", "--device", "phone").status == 0)
        #expect(try cli.run("memo", "5", "北口").status == 0)
        #expect(try cli.run("complete", "6", "2013-09-01").status == 0)
        let exported = try cli.run("export", "--format", "tsv").stdout
        try exported.write(toFile: dir.sub("e.tsv"), atomically: true, encoding: .utf8)
        #expect(try cli.run("import", "oritsubushi-tsv", dir.sub("e.tsv")).stdout.contains(": 0 events appended"))
    }
}
