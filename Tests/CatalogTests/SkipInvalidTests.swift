import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// Imports that a migration can survive (Schemas/import-export.md, "How rows become events"):
/// strict by default, `--skip-invalid` imports the valid rows and names every skipped line; codes
/// the apps show as 日付不明 (2…18999999) are imported as 1 with a warning.
@Suite(.serialized) struct SkipInvalidTests {
    static let text = "5\t20130901\t1378040000\tok\n6\t20130230\t1378040000\t\nnot a row\n7\t15\t1378040000\t\n8\t20990101\t5\t\n9\t1\t5\tfine\n"

    static func setUp() throws -> (TemporaryDirectory, CLIRunner, String) {
        let dir = try TemporaryDirectory("skip")
        let cli = CLIRunner(ledger: dir.sub("l"))
        #expect(try cli.run("init", "--no-catalog", "--device", "phone").status == 0)
        try text.write(toFile: dir.sub("in.tsv"), atomically: true, encoding: .utf8)
        return (dir, cli, dir.sub("in.tsv"))
    }

    @Test func strictImportRefusesTheFirstBadLineAndWritesNothing() throws {
        let (dir, cli, file) = try Self.setUp()
        defer { dir.remove() }
        let before = try directorySnapshot(dir.sub("l"))
        let result = try cli.run("import", "oritsubushi-tsv", file)
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 3"), "\(result.stderr)")  // the parser's error comes first
        #expect(try directorySnapshot(dir.sub("l")) == before)
    }

    @Test func skipInvalidImportsTheRestAndNamesEachSkippedLine() throws {
        let (dir, cli, file) = try Self.setUp()
        defer { dir.remove() }
        let result = try cli.run("import", "oritsubushi-tsv", file, "--skip-invalid")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("imported 3, skipped 3"), "\(result.stdout)")
        for line in [2, 3, 5] { #expect(result.stderr.contains("skipped: ") && result.stderr.contains("line \(line))"), "line \(line)") }
        #expect(result.stderr.contains("comp_date 15 of station 7"))
        let rows = try OritsubushiTSV.parse(Array(try cli.run("export", "--format", "tsv").stdout.utf8), file: "e.tsv")
        #expect(rows.map { "\($0.station) \($0.compDate)" } == ["5 20130901", "7 1", "9 1"])
    }

    @Test(arguments: [UInt32(2), 15, 18_999_999]) func appsUnknownDateCodesImportAsOne(code: UInt32) throws {
        let (dir, cli, _) = try Self.setUp()
        defer { dir.remove() }
        try "7\t\(code)\t1378040000\t\n".write(toFile: dir.sub("one.tsv"), atomically: true, encoding: .utf8)
        let result = try cli.run("import", "oritsubushi-tsv", dir.sub("one.tsv"))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: comp_date \(code) of station 7"))
        #expect(try cli.run("export", "--format", "tsv").stdout == "7\t1\t1378040000\t\n")
    }

    @Test func skipInvalidReadsAnAppDatabaseToo() throws {
        let (dir, cli, _) = try Self.setUp()
        defer { dir.remove() }
        let db = try TestDatabase(path: dir.sub("app.sqlite"), readonly: false)
        try db.execute("""
            CREATE TABLE completions (s_id INTEGER PRIMARY KEY, comp_date INTEGER, update_date INTEGER, memo TEXT);
            INSERT INTO completions VALUES (5, 20130901, 1378040000, ''), (6, 'x', 1, ''), (7, 20130230, 1, '');
            """)
        let strict = try cli.run("import", "sqlite", dir.sub("app.sqlite"))
        #expect(strict.status == 65)
        let result = try cli.run("import", "sqlite", dir.sub("app.sqlite"), "--skip-invalid")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("imported 1, skipped 2"), "\(result.stdout)")
        #expect(result.stderr.contains("row 2") && result.stderr.contains("row 3"))
    }
}
