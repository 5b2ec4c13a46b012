import LedgerCatalog
import LedgerCore

/// What the `FuzzCatalogDump` and `FuzzTSV` libFuzzer harnesses check for one input, kept here
/// so that crashing inputs replay as regression tests. Each check fails (`FuzzCheck`: a trap
/// under libFuzzer, a test issue in FuzzRegressionTests) when a parser throws anything but a
/// `LedgerError` naming the line, or breaks one of the properties below.
package enum ImportFuzzing {
    /// The catalogue dump splitter (Schemas/domain-rules.md §15): statements come out in file order, each
    /// starting on a real line, none blank, never more statements than lines.
    package static func catalogDump(_ bytes: [UInt8]) {
        let statements: [DumpStatement]
        do {
            statements = try SQLDumpSplitter.split(bytes, file: "fuzz.sql")
        } catch let error as LedgerError {
            FuzzCheck.require(error.category == .badInput && error.line != nil, "a dump error without a line: \(error)")
            return
        } catch {
            FuzzCheck.fail("an error that is not a LedgerError escaped: \(error)")
            return
        }
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
        var previous = 0
        for statement in statements {
            FuzzCheck.require(statement.line > previous && statement.line <= lines,
                              "statement lines out of order: \(statement.line) after \(previous) of \(lines)")
            // Blank means the splitter's (and SQLite's tokenizer's) space, TAB, CR and LF only: a
            // vertical tab or U+3000 makes a statement that SQLite runs as a no-op (found by the
            // fuzzer; Tests/Fuzz/regressions/catalog-dump/vertical-tab-statement.sql).
            FuzzCheck.require(statement.sql.utf8.contains { ![0x20, 0x09, 0x0D, 0x0A].contains($0) },
                              "a blank statement at line \(statement.line)")
            previous = statement.line
        }
    }

    /// The oritsubushi-tsv importer (Schemas/domain-rules.md §14): whatever it accepts, writing the rows back
    /// out and parsing them again gives the same rows; a row that passes the ledger's validation
    /// survives the record codec unchanged.
    package static func tsv(_ bytes: [UInt8]) {
        let rows: [CompletionRow]
        do {
            rows = try OritsubushiTSV.parse(bytes, file: "fuzz.tsv")
        } catch let error as LedgerError {
            FuzzCheck.require(error.category == .badInput && error.line != nil, "a TSV error without a line: \(error)")
            return
        } catch {
            FuzzCheck.fail("an error that is not a LedgerError escaped: \(error)")
            return
        }
        let written = rows.map(OritsubushiTSV.line).joined()
        let again: [CompletionRow]
        do {
            again = try OritsubushiTSV.parse(Array(written.utf8), file: "again.tsv")
        } catch {
            FuzzCheck.fail("rows written back do not parse: \(error)")
            return
        }
        FuzzCheck.require(again.count == rows.count, "\(rows.count) rows came back as \(again.count)")
        for (row, back) in zip(rows, again) {
            FuzzCheck.require(row.station == back.station && row.compDate == back.compDate
                              && row.updateDate == back.updateDate && row.memo == back.memo,
                              "row \(row) came back as \(back)")
            guard let date = try? CompletionDate(code: row.compDate) else { continue }
            let edit = StationEdit(id: EventID(device: DeviceID(rawValue: 1), seq: 1),
                                   hlc: HybridTimestamp(milliseconds: row.updateDate * 1000),
                                   station: row.station, compDate: date, memo: row.memo, origin: .import)
            guard (try? Ledger.validate(edit)) != nil else { continue }
            var encoder = RecordEncoder()
            encoder.append(edit)
            var decoded: [LedgerRecord] = []
            do {
                try encoder.bytes.withUnsafeBytes { content in
                    try RecordStream.forEach(in: content) { decoded.append($0.record) }
                }
            } catch {
                FuzzCheck.fail("a valid imported edit does not decode: \(error)")
                return
            }
            FuzzCheck.require(decoded == [.stationEdit(edit)], "edit \(edit) decoded as \(decoded)")
        }
    }
}
