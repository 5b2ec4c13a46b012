import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

@Suite(.serialized) struct ImportExportTests {
    static let today = CalendarDay(year: 2026, month: 11, day: 22)

    static func importRows(_ ledger: Ledger, _ rows: [CompletionRow], file: String = "in.tsv") throws -> Int {
        let catalog = try CatalogStore.open(ledgerDirectory: ledger.directory)
        var projection = try ProjectionStore.load(ledger)
        let drafts = try CompletionImporter.drafts(for: rows, file: file, catalog: catalog, projection: projection,
                                                   device: ledger.localDevice,
                                                   nextSeq: (ledger.versionVector[ledger.localDevice] ?? 0) + 1, today: today)
        if !drafts.isEmpty { try ledger.appendLocal(drafts) }
        try projection.catchUp(ledger)
        try ProjectionStore.save(&projection, ledger: ledger)
        return drafts.count
    }

    @Test func tsvEscapesOnlyBackslashAndNewline() throws {
        let row = CompletionRow(station: 202919, compDate: 20130901, updateDate: 1378040000, memo: "a\\b\nc\td\re")
        let line = OritsubushiTSV.line(row)
        #expect(line == "202919\t20130901\t1378040000\ta\\\\b\\nc\td\re\n")
        let parsed = try OritsubushiTSV.parse(Array(line.utf8), file: "x")
        #expect(parsed == [CompletionRow(station: 202919, compDate: 20130901, updateDate: 1378040000, memo: "a\\b\nc\td\re", line: 1)])
        // A CR just before the LF is the line end of a CRLF file, never part of the memo.
        let crlf = try OritsubushiTSV.parse(Array("202919\t20130901\t1378040000\tmemo\r\n".utf8), file: "x")
        #expect(crlf.map(\.memo) == ["memo"])
    }

    @Test(arguments: [UInt64(5), 6])
    func tsvRoundTripsThroughImportAndExport(seed: UInt64) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var rng = SeededGenerator(seed: seed)
        var rows: [CompletionRow] = []
        for station in UInt32(100)..<UInt32(160) where rng.next() % 3 != 0 {
            let dates: [UInt32] = [0, 1, 20130000, 20130900, 20130901, 19870401, 20000229]
            let memos = ["", "東京駅", "multi\nline", "back\\slash", "tab\there"]
            rows.append(CompletionRow(station: station, compDate: dates[Int(rng.next() % 7)],
                                      updateDate: 1_300_000_000 + Int64(rng.next() % 100_000_000), memo: memos[Int(rng.next() % 5)]))
        }
        let text = CompletionsFile.tsv(rows)
        let a = try Harness.createLedger(dir, name: "a")
        let parsed = try OritsubushiTSV.parse(Array(text.utf8), file: "in.tsv")
        #expect(try Self.importRows(a, parsed) > 0)
        let exported = CompletionsFile.tsv(CompletionsFile.rows(try ProjectionStore.load(a)))
        #expect(exported == text)
        // Re-importing the same file appends nothing.
        let records = try a.allRecords().count
        #expect(try Self.importRows(a, parsed) == 0)
        #expect(try a.allRecords().count == records)
        // A second ledger fed with the export exports the same bytes again.
        let b = try Harness.createLedger(dir, name: "b")
        _ = try Self.importRows(b, try OritsubushiTSV.parse(Array(exported.utf8), file: "e.tsv"))
        #expect(CompletionsFile.tsv(CompletionsFile.rows(try ProjectionStore.load(b))) == exported)
        #expect(try b.allRecords().allSatisfy { if case .stationEdit(let e) = $0 { e.origin == .import } else { true } })
    }

    @Test func importKeepsTheOriginalLastUpdateWinsOrder() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        // A local edit made in 2020 beats an imported row last updated in 2013, and loses to one from 2024.
        try ledger.appendLocal([StationEditDraft(station: 5, compDate: .year(2019), hlc: HybridTimestamp(milliseconds: 1_600_000_000_000))])
        // (Its date loses, and its "" memo is the unset memo's value: nothing to append,
        // Schemas/import-export.md "How rows become events".)
        #expect(try Self.importRows(ledger, [CompletionRow(station: 5, compDate: 20130901, updateDate: 1_378_040_000, memo: "")]) == 0)
        #expect(try ProjectionStore.load(ledger).row(5)?.compDate == 20190000)
        #expect(try Self.importRows(ledger, [CompletionRow(station: 5, compDate: 20240101, updateDate: 1_704_067_200, memo: "")]) == 1)
        #expect(try ProjectionStore.load(ledger).row(5)?.compDate == 20240101)
    }

    @Test(arguments: [
        ("1\t20130230\t0\t\n", 1, "comp_date"),
        ("1\t1\t5\tok\n2\t20131301\t5\t\n", 2, "comp_date"),  // 2…18999999 are imported as 1 (Schemas/import-export.md)
        ("1\t1\t5\tok\n\n", 2, "empty"),
        ("1\t1\t5\n", 1, "4 TAB-separated"),
        ("x\t1\t5\t\n", 1, "s_id"),
        ("1\t1\t-5\t\n", 1, "update_date"),
        ("1\t1\t5\tbad \\t escape\n", 1, "escape"),
        ("1\t1\t5\tok\n2\t1\t5\t\u{FFFD}\n3\t20990101\t5\t\n", 3, "future"),
        ("0\t1\t5\t\n", 1, "station"),
    ])
    func badRowsAreRejectedWithTheirLineAndNothingIsAppended(text: String, line: Int, mention: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        let before = try directorySnapshot(ledger.directory)
        #expect {
            _ = try Self.importRows(ledger, try OritsubushiTSV.parse(Array(text.utf8), file: "in.tsv"))
        } throws: { error in
            guard let e = error as? LedgerError else { return false }
            return e.line == line && e.category == .badInput && e.description.contains(mention)
        }
        #expect(try directorySnapshot(ledger.directory) == before)
    }

    @Test func invalidUTF8IsRejectedWithItsLine() throws {
        var bytes = Array("1\t1\t5\tok\n".utf8)
        bytes += Array("2\t1\t5\t".utf8) + [0xE3, 0x81] + [0x0A]
        #expect {
            try OritsubushiTSV.parse(bytes, file: "in.tsv")
        } throws: { error in (error as? LedgerError)?.line == 2 }
    }

    @Test func unknownStationsAreRejectedOnceACatalogueExists() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let ledger = try Harness.createLedger(dir)
        try Harness.importCatalog(ledger, file: SharedData.sample, version: 176)
        let before = try directorySnapshot(ledger.directory)
        #expect {
            _ = try Self.importRows(ledger, [CompletionRow(station: 300260, compDate: 1, updateDate: 5, memo: "", line: 1),
                                             CompletionRow(station: 999_999, compDate: 1, updateDate: 5, memo: "", line: 2)])
        } throws: { error in (error as? LedgerError)?.line == 2 }
        #expect(try directorySnapshot(ledger.directory) == before)
    }

    @Test func anOriginalAppDatabaseImportsAndTheSQLiteExportReadsBack() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let app = dir.sub("app.sqlite")
        let rows = [CompletionRow(station: 10, compDate: 20130901, updateDate: 1_378_040_000, memo: "x"),
                    CompletionRow(station: 11, compDate: 0, updateDate: 0, memo: ""),
                    CompletionRow(station: 12, compDate: 1, updateDate: 1_400_000_000, memo: "")]
        try CompletionsFile.writeSQLite(rows, to: app)
        let ledger = try Harness.createLedger(dir)
        #expect(try Self.importRows(ledger, try CompletionsFile.readAppDatabase(app), file: app) == 2)
        let out = dir.sub("out.sqlite")
        try CompletionsFile.writeSQLite(CompletionsFile.rows(try ProjectionStore.load(ledger)), to: out)
        let back = try CompletionsFile.readAppDatabase(out)
        #expect(back.map(\.station) == [10, 12])
        #expect(back.map(\.updateDate) == [1_378_040_000, 1_400_000_000])
        #expect(try CompletionsFile.jsonl(back).hasPrefix("{\"station\":10,\"comp_date\":20130901,\"update_date\":1378040000,\"memo\":\"x\"}\n"))
        // A memo with quotes, a line break, a backslash and kanji reads back as it was written.
        let tricky = CompletionRow(station: 1, compDate: 0, updateDate: 0, memo: "a\"b\n東京\\")
        let parsed = try JSONSerialization.jsonObject(with: Data(try CompletionsFile.jsonl([tricky]).utf8)) as? [String: Any]
        #expect(parsed?["memo"] as? String == tricky.memo)
    }
}
