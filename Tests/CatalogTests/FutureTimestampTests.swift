import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// Future timestamps from old data (Schemas/import-export.md, "How rows become events"): a row
/// whose `update_date` is later than the import time is stamped with the import time, counted and
/// reported, so the ledger's clock never runs ahead of the machine's (the sync server refuses
/// events dated a day ahead).
@Suite(.serialized) struct FutureTimestampTests {
    static let now: Int64 = 1_795_316_400  // CLIRunner.pinnedNow

    @Test func futureRowsAreClampedToTheImportTimeAndTheNextEventIsNotAhead() throws {
        let dir = try TemporaryDirectory("future")
        defer { dir.remove() }
        let cli = CLIRunner(ledger: dir.sub("l"))
        #expect(try cli.run("init", "--no-catalog", "--device", "phone").status == 0)
        let rows = "5\t20130901\t1378040000\t\n6\t20140101\t2100000000\tskewed\n7\t1\t\(Self.now + 86_401)\t\n"
        try rows.write(toFile: dir.sub("in.tsv"), atomically: true, encoding: .utf8)
        let result = try cli.run("import", "oritsubushi-tsv", dir.sub("in.tsv"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("2 rows had an update_date later than now"))
        #expect(try cli.run("complete", "8", "2015-05-05").status == 0)
        let exported = try OritsubushiTSV.parse(Array(try cli.run("export", "--format", "tsv").stdout.utf8), file: "e.tsv")
        let dates = Dictionary(uniqueKeysWithValues: exported.map { ($0.station, $0.updateDate) })
        #expect(dates == [5: 1_378_040_000, 6: Self.now, 7: Self.now, 8: Self.now])
        // The clamped events still win over older ones, as a future date would have.
        #expect(exported.first { $0.station == 6 }?.memo == "skewed")
    }

    @Test func thePlanCountsClampedRows() throws {
        let rows = [CompletionRow(station: 1, compDate: 1, updateDate: 10, memo: "", line: 1),
                    CompletionRow(station: 2, compDate: 1, updateDate: 5_000, memo: "", line: 2)]
        let plan = try CompletionImporter.plan(for: rows, file: "x", catalog: nil, projection: CompletionsProjection(),
                                               device: DeviceID(rawValue: 1), nextSeq: 1,
                                               today: CalendarDay(year: 2026, month: 11, day: 22), nowMilliseconds: 1_000_000)
        #expect(plan.clampedToImportTime == 1)
        #expect(plan.drafts.map { $0.hlc?.unixSeconds } == [10, 1_000])
    }
}
