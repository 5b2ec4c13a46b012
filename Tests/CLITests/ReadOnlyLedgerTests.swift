import Foundation
import LedgerTestSupport
import Testing

/// A read-only ledger (docs/ledger-cli.md, "A busy ledger and a read-only one"), through the built
/// executable on a real file system, as the unprivileged user `nobody` (root ignores
/// permissions): every command that only reads works on a ledger directory that is entirely
/// read-only (`chmod -R a-w`, a backup or a read-only mount), with no `LOCK` to create; when the
/// projection cannot be saved it is computed in memory from the log, and a note says so once. An
/// edit of such a ledger, or of one whose directory alone is read-only, is refused before
/// anything is appended (exit 74).
@Suite(.serialized, .requires(.setpriv))
struct ReadOnlyLedgerTests {
    static let fixture = BundledLedgerFixture(label: "readonly", setup: [["complete", "201111", "2013-09-01", "--memo", "津"],
                                                                       ["complete", "300260", "2014"]])

    static let inMemory = "note: the ledger directory is read-only; the projection was computed in memory"

    static let readers: [[String]] = [
        ["status"], ["replay"], ["history", "201111"], ["verify"], ["stats", "operators"], ["station", "show", "201111"],
        ["station", "find", "津"], ["map", "--bbox", "34,136,35,137"], ["nearby", "201111"], ["export", "--format", "tsv"],
        ["report", "--output", "REPORT"], ["conflicts"],
    ]

    /// A copy of the fixture, read-only throughout; `withoutLock` and `withoutProjection` remove
    /// those files first (a backup may hold neither).
    private func readOnlyCopy(withoutLock: Bool, withoutProjection: Bool) throws -> (work: String, cli: CLIRunner) {
        var (work, cli) = try Self.fixture.copy()
        if withoutLock { try FileManager.default.removeItem(atPath: work + "/ledger/LOCK") }
        if withoutProjection { try FileManager.default.removeItem(atPath: work + "/ledger/projection.sqlite") }
        // The report goes outside the ledger, where nobody may write.
        try FileManager.default.createDirectory(atPath: work + "/out", withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o777])
        try Self.chmod(["-R", "a-w", work + "/ledger"])
        cli.unprivileged = true
        return (work, cli)
    }

    @Test("every reader works on an entirely read-only ledger", arguments: [(false, false), (true, false), (true, true)])
    func readersWork(_ withoutLock: Bool, _ withoutProjection: Bool) throws {
        let (work, cli) = try readOnlyCopy(withoutLock: withoutLock, withoutProjection: withoutProjection)
        defer { Self.remove(work) }
        let before = try directorySnapshot(work + "/ledger")
        for command in Self.readers {
            let result = try cli.run(command.map { $0 == "REPORT" ? work + "/out/report.html" : $0 })
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let notes = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("wrote ") }.map(String.init)
            // Only a command that needs the completions, and only when the stored projection is
            // missing or behind, computes it in memory.
            #expect(notes.isEmpty || (withoutProjection && notes == [Self.inMemory]), "\(command): \(result.stderr)")
            if withoutProjection && command[0] == "stats" { #expect(notes == [Self.inMemory], "\(result.stderr)") }
        }
        let tsv = try cli.run("export", "--format", "tsv").stdout
        #expect(tsv.hasPrefix("201111\t20130901\t") && tsv.contains("300260\t20140000\t"), "the completions, from the log: \(tsv)")
        #expect(try cli.run("replay").stdout.split(separator: "\n").count == 2)
        #expect(snapshotDifferences(before, try directorySnapshot(work + "/ledger")).isEmpty, "a reader wrote")
    }

    @Test("an edit of a read-only ledger is refused before anything is written (exit 74)", arguments: [
        ["complete", "300645", "2015"], ["memo", "201111", "x"], ["uncomplete", "201111"], ["rebuild"],
    ])
    func editsAreRefused(_ command: [String]) throws {
        let (work, cli) = try readOnlyCopy(withoutLock: false, withoutProjection: false)
        defer { Self.remove(work) }
        let before = try directorySnapshot(work + "/ledger")
        let result = try cli.run(command)
        #expect(result.status == 74, "\(command): \(result.stderr)")
        #expect(result.stderr.hasPrefix("error: the ledger directory is read-only") && result.stderr.split(separator: "\n").count == 1,
                "\(result.stderr)")
        #expect(snapshotDifferences(before, try directorySnapshot(work + "/ledger")).isEmpty)
    }

    /// A dry run writes nothing, so it works where the readers do, and prints its plan.
    @Test("a dry run of complete --batch or of an import works on a read-only ledger and writes nothing")
    func dryRunsRead() throws {
        let (work, cli) = try readOnlyCopy(withoutLock: false, withoutProjection: false)
        defer { Self.remove(work) }
        let before = try directorySnapshot(work + "/ledger")
        try "300645\t2015-05-05\n201111\t2013-09-01\n".write(toFile: work + "/out/trip.tsv", atomically: true, encoding: .utf8)
        let exported = try cli.run("export", "--format", "tsv")
        #expect(exported.status == 0, "\(exported.stderr)")
        try exported.stdout.write(toFile: work + "/out/apps.tsv", atomically: true, encoding: .utf8)
        let batch = try cli.run("complete", "--batch", work + "/out/trip.tsv", "--dry-run")
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(batch.stdout.contains("1 would be recorded, 1 unchanged; nothing was written (--dry-run)"), "\(batch.stdout)")
        let imported = try cli.run("import", "oritsubushi-tsv", work + "/out/apps.tsv", "--dry-run")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("dry run: would import 2 rows") && imported.stdout.contains("nothing was written"), "\(imported.stdout)")
        #expect(snapshotDifferences(before, try directorySnapshot(work + "/ledger")).isEmpty, "a dry run wrote")
        let edit = try cli.run("complete", "--batch", work + "/out/trip.tsv")
        #expect(edit.status == 74, "without --dry-run it is an edit: \(edit.stderr)")
    }

    /// `chmod a-w LEDGER` alone, the files still the user's and writable. The edit used to append
    /// its event and then fail on the projection.
    @Test("an edit of a ledger whose directory alone is read-only appends nothing (exit 74)")
    func readOnlyDirectoryOnly() throws {
        var (work, cli) = try Self.fixture.copy()
        defer { Self.remove(work) }
        try Self.chmod(["-R", "a+rwX", work + "/ledger"])
        let chown = Process()
        chown.executableURL = URL(fileURLWithPath: "/bin/chown")
        chown.arguments = ["-R", "65534:65534", work + "/ledger"]
        if getuid() == 0 {
            try chown.run()
            chown.waitUntilExit()
        }
        try Self.chmod(["a-w", work + "/ledger"])
        cli.unprivileged = true
        let before = try directorySnapshot(work + "/ledger")
        let result = try cli.run("complete", "300645", "2015")
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("error: the ledger directory is read-only"), "\(result.stderr)")
        #expect(snapshotDifferences(before, try directorySnapshot(work + "/ledger")).isEmpty, "the event was appended")
        #expect(try cli.run("stats", "operators").status == 0, "reading still works")
    }

    static func chmod(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/chmod")
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
    }

    static func remove(_ work: String) {
        try? chmod(["-R", "u+w", work])
        try? FileManager.default.removeItem(atPath: work)
    }
}
