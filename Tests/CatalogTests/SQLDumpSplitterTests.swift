import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

@Suite struct SQLDumpSplitterTests {
    static func split(_ text: String) throws -> [DumpStatement] {
        try SQLDumpSplitter.split(Array(text.utf8), file: "t.sql")
    }

    @Test func splitsByPhysicalLineNotBySemicolon() throws {
        let statements = try Self.split("INSERT INTO t VALUES(1);\n\nUPDATE t SET a = 2\n  \nDELETE FROM t;")
        #expect(statements == [
            DumpStatement(line: 1, sql: "INSERT INTO t VALUES(1);"),
            DumpStatement(line: 3, sql: "UPDATE t SET a = 2"),
            DumpStatement(line: 5, sql: "DELETE FROM t;"),
        ])
    }

    @Test func joinsLinesWhileTheQuoteCountIsOdd() throws {
        let statements = try Self.split("INSERT INTO t VALUES('a\nb;\n''c''');\nSELECT 1;")
        #expect(statements.count == 2)
        #expect(statements[0] == DumpStatement(line: 1, sql: "INSERT INTO t VALUES('a\nb;\n''c''');"))
        #expect(statements[1].line == 4)
    }

    @Test(arguments: [
        ("VALUES (306072,0,0,\"\");", "VALUES (306072,0,0,'');"),
        ("INSERT INTO \"t\" VALUES('say \"\"hi\"\"');", "INSERT INTO \"t\" VALUES('say \"\"hi\"\"');"),
        ("SELECT \"a\"\"b\" FROM x", "SELECT \"a\"\"b\" FROM x"),
        ("SELECT \"\", 'x'", "SELECT '', 'x'"),
    ])
    func readsStandaloneDoubleQuotesAsEmptyString(input: String, expected: String) throws {
        #expect(try Self.split(input).first?.sql == expected)
    }

    @Test func rejectsInvalidUTF8WithTheLineNumber() throws {
        var bytes = Array("SELECT 1;\nSELECT 2;\n".utf8)
        bytes += [0x53, 0xFF, 0x0A]
        #expect {
            try SQLDumpSplitter.split(bytes, file: "bad.sql")
        } throws: { error in
            (error as? LedgerError)?.line == 3 && (error as? LedgerError)?.category == .badInput
        }
    }

    @Test func rejectsAnUnclosedLiteralAtItsFirstLine() throws {
        #expect {
            try Self.split("SELECT 1;\nINSERT INTO t VALUES('open\nstill open")
        } throws: { error in
            (error as? LedgerError)?.line == 2
        }
    }

    @Test func theBundledDumpSplitsIntoTheDocumentedStatementCount() throws {
        #expect(try BundledCatalog.statements().count == 22_538)
        #expect(BundledCatalog.version == 176)
    }

    @Test func the152DumpSplitsIntoTheDocumentedStatementCount() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: SharedData.dump(152))))
        #expect(try SQLDumpSplitter.split(bytes, file: SharedData.dump(152)).count == 22_270)
    }
}
