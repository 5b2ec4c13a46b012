import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The projection's checkpoint under crashes: a command killed between appending and saving
/// the projection, events appended without the projection being updated, and a damaged or
/// foreign `projection.sqlite`. The next command must always produce exactly the full fold of
/// the log; from a usable checkpoint it catches up incrementally (the file is updated in place,
/// same inode), and from an unusable one it rebuilds with a note on stderr.
@Suite(.serialized) struct ProjectionCheckpointTests {
    /// What the stored projection holds, seen the way every command loads it.
    struct StoredState {
        /// The checkpoint position in the file (`nil`: no usable file).
        var checkpoint: UInt64?
        var discardedBecause: String?
        var recordCount: UInt64
        /// Whether the caught-up projection equals the full fold of the log.
        var equalsFullFold: Bool
        var inode: UInt64?
    }

    static func storedState(_ directory: String) throws -> StoredState {
        let ledger = try Ledger.open(directory: directory)
        defer { ledger.close() }
        let loaded = try ProjectionStore.load(ledger)
        let full = try CompletionsProjection.fold(ledger)
        var info = stat()
        let file = ProjectionStore.path(ledger)
        let inode = stat(file, &info) == 0 ? UInt64(info.st_ino) : nil
        return StoredState(
            checkpoint: loaded.storedPosition, discardedBecause: loaded.discardedBecause, recordCount: ledger.recordCount,
            equalsFullFold: loaded.sortedRows().map(\.station) == full.sortedRows().map(\.station)
                && loaded.sortedRows().map(\.row) == full.sortedRows().map(\.row),
            inode: inode)
    }

    /// A TSV import of `rows` random rows: one batch appended, then the projection saved.
    static func writeImport(_ path: String, rows: Int, trial: Int, random: inout SeededGenerator) throws {
        var text = ""
        for row in 0..<rows {
            let station = 100 + random.next() % 400
            let day = 1 + random.next() % 28
            let date = 2000 + Int(random.next() % 20)
            text += "\(station)\t\(date)03\(day < 10 ? "0" : "")\(day)\t\(1_700_000_000 + trial * 1000 + row)\ttrial \(trial) row \(row)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("SIGKILL at random moments of an import: the next command repairs the projection incrementally")
    func killedImportsAreRepairedIncrementally() throws {
        let dir = try TemporaryDirectory("projection-kill")
        defer { dir.remove() }
        let ledger = dir.sub("ledger")
        let cli = CLIRunner(ledger: ledger)
        #expect(try cli.run("init", "--device", "phone", "--no-catalog").status == 0)
        var random = SeededGenerator(seed: 20_261_123)
        // Calibrate the kill window on one import that runs to the end.
        try Self.writeImport(dir.sub("0.tsv"), rows: 400, trial: 0, random: &random)
        let started = Date()
        let first = try cli.run("import", "oritsubushi-tsv", dir.sub("0.tsv"))
        #expect(first.status == 0, "\(first.stderr)")
        let window = max(0.02, Date().timeIntervalSince(started)) * 1.2

        let trials = 60
        var behind = 0, current = 0, failures: [String] = []
        for trial in 1...trials {
            let file = dir.sub("\(trial).tsv")
            try Self.writeImport(file, rows: 400, trial: trial, random: &random)
            let child = Process()
            child.executableURL = URL(fileURLWithPath: CLIRunner.executable)
            child.arguments = ["import", "oritsubushi-tsv", file, "--ledger", ledger]
            child.environment = ["ORITSUBUSHI_NOW": CLIRunner.pinnedNow]
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()
            usleep(useconds_t(Double(random.next() % 1000) / 1000 * window * 1_000_000))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()

            let killed = try Self.storedState(ledger)
            if killed.discardedBecause != nil {
                failures.append("trial \(trial): the checkpoint became unusable: \(killed.discardedBecause!)")
            }
            if let checkpoint = killed.checkpoint, checkpoint < killed.recordCount { behind += 1 } else { current += 1 }
            let next = try cli.run("export", "--format", "jsonl")
            if next.status != 0 || next.stderr.contains("note:") {
                failures.append("trial \(trial): export exit \(next.status): \(next.stderr)")
            }
            let repaired = try Self.storedState(ledger)
            if !repaired.equalsFullFold || repaired.checkpoint != repaired.recordCount {
                failures.append("trial \(trial): after the next command, checkpoint \(repaired.checkpoint.map(String.init) ?? "none") of \(repaired.recordCount), equal to the full fold: \(repaired.equalsFullFold)")
            }
            if killed.checkpoint != nil, repaired.inode != killed.inode {
                failures.append("trial \(trial): the projection was rebuilt (new file), not caught up in place")
            }
        }
        print("projection kill trials: \(trials), checkpoint behind the log after the kill: \(behind), current: \(current), failures: \(failures.count)")
        #expect(failures.isEmpty, "\(failures.prefix(8).joined(separator: "\n"))")
        #expect(try cli.run("verify").status == 0)
    }

    @Test("events appended without the projection: the next command catches up from the checkpoint")
    func appendedWithoutProjectionIsCaughtUp() throws {
        let dir = try TemporaryDirectory("projection-behind")
        defer { dir.remove() }
        let path = dir.sub("ledger")
        let cli = CLIRunner(ledger: path)
        #expect(try cli.run("init", "--no-catalog").status == 0)
        #expect(try cli.run("complete", "5", "2013").status == 0)
        #expect(try cli.run("memo", "6", "six").status == 0)
        let saved = try Self.storedState(path)
        do {
            let ledger = try Ledger.open(directory: path)
            defer { ledger.close() }
            try ledger.appendLocal([StationEditDraft(station: 5, compDate: nil, memo: "appended behind")])
            try ledger.appendLocal((7..<20).map { StationEditDraft(station: UInt32($0), compDate: try CompletionDate(code: 2015_0000), memo: nil) })
        }
        let behind = try Self.storedState(path)
        #expect(behind.checkpoint == saved.checkpoint && behind.recordCount == saved.recordCount + 14)
        #expect(behind.equalsFullFold, "catching up from the checkpoint gives the full fold")
        let export = try cli.run("export", "--format", "jsonl")
        #expect(export.status == 0 && export.stderr.isEmpty, "\(export.stderr)")
        #expect(export.stdout.split(separator: "\n").count == 15)
        #expect(export.stdout.contains("appended behind"))
        let after = try Self.storedState(path)
        #expect(after.checkpoint == after.recordCount && after.equalsFullFold)
        #expect(after.inode == saved.inode, "caught up in place, not rebuilt into a new file")
    }

    /// A ledger with two stations recorded, and the crash image of a command killed inside
    /// SQLite's transaction while saving its projection: `projection.sqlite` with a hot
    /// `-journal` next to it. Returns (the image's path, its export before the crash).
    static func crashInsideProjectionSave(_ dir: TemporaryDirectory) throws -> (ledger: String, export: String) {
        let path = dir.sub("ledger")
        let cli = CLIRunner(ledger: path)
        for arguments in [["init", "--no-catalog"], ["complete", "5", "2013"], ["memo", "6", "six"]] {
            #expect(try cli.run(arguments).status == 0)
        }
        let expected = try cli.run("export", "--format", "jsonl").stdout
        // Copy the ledger while another connection is inside a write transaction that has
        // outgrown its page cache: SQLite has then synced the journal (made it hot) and written
        // changed pages into the file itself, as in a kill during a large save.
        let writer = try TestDatabase(path: path + "/projection.sqlite", readonly: false)
        let crashed = dir.sub("crashed")
        try writer.insideTransaction("""
            PRAGMA cache_size = 10; BEGIN IMMEDIATE; UPDATE projection_meta SET value = '0' WHERE key = 'position';
            WITH RECURSIVE n(i) AS (SELECT 1000 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
            INSERT INTO completions (s_id, comp_date, update_date, memo) SELECT i, 20130000, 0, 'garbage' FROM n
            """) {
            try FileManager.default.copyItem(atPath: path, toPath: crashed)
        }
        try writer.close()
        #expect(FileManager.default.fileExists(atPath: crashed + "/projection.sqlite-journal"), "the image holds a hot journal")
        return (crashed, expected)
    }

    /// SQLite refuses a file with a hot journal on a read-only connection, so without a rollback
    /// the checkpoint would be lost and the projection rebuilt by every command.
    @Test("a save killed inside its SQLite transaction is rolled back, not rebuilt")
    func interruptedSaveIsRolledBack() throws {
        let dir = try TemporaryDirectory("projection-journal")
        defer { dir.remove() }
        let (crashed, expected) = try Self.crashInsideProjectionSave(dir)
        var info = stat()
        #expect(stat(crashed + "/projection.sqlite", &info) == 0)
        let inode = UInt64(info.st_ino)

        let export = try CLIRunner(ledger: crashed).run("export", "--format", "jsonl")
        #expect(export.status == 0 && export.stderr.isEmpty, "\(export.stderr)")
        #expect(export.stdout == expected)
        #expect(!FileManager.default.fileExists(atPath: crashed + "/projection.sqlite-journal"))
        let after = try Self.storedState(crashed)
        #expect(after.discardedBecause == nil && after.checkpoint == after.recordCount && after.equalsFullFold)
        #expect(after.inode == inode, "rolled back in place, not rebuilt")
    }

    /// A rebuild replaces the file without reading it; the old file's hot journal must not
    /// survive next to the new file, where SQLite would play it back into it.
    @Test("a rebuild over an interrupted save leaves no journal behind")
    func rebuildRemovesAStaleJournal() throws {
        let dir = try TemporaryDirectory("projection-journal")
        defer { dir.remove() }
        let (crashed, expected) = try Self.crashInsideProjectionSave(dir)
        let cli = CLIRunner(ledger: crashed)
        let rebuild = try cli.run("rebuild")
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        #expect(!FileManager.default.fileExists(atPath: crashed + "/projection.sqlite-journal"))
        let export = try cli.run("export", "--format", "jsonl")
        #expect(export.status == 0 && export.stderr.isEmpty, "\(export.stderr)")
        #expect(export.stdout == expected)
        let after = try Self.storedState(crashed)
        #expect(after.discardedBecause == nil && after.checkpoint == after.recordCount && after.equalsFullFold)
    }

    /// Damage to the stored projection, each applied to a copy of one ledger.
    enum Damage: String, CaseIterable, Sendable {
        case deleted, garbage, truncated, checkpointPastTheLog, deviceAheadOfTheLog, otherLedgersProjection
    }

    @Test(arguments: Damage.allCases)
    func damagedCheckpointIsRebuiltWithANote(_ damage: Damage) throws {
        let dir = try TemporaryDirectory("projection-damage")
        defer { dir.remove() }
        let path = dir.sub("ledger")
        let cli = CLIRunner(ledger: path)
        #expect(try cli.run("init", "--no-catalog").status == 0)
        for (station, date) in [("5", "2013"), ("6", "2014-02"), ("7", "2015-03-04"), ("5", "2016")] {
            #expect(try cli.run("complete", station, date).status == 0)
        }
        let expected = try cli.run("export", "--format", "jsonl").stdout
        let file = path + "/projection.sqlite"
        switch damage {
        case .deleted:
            try FileManager.default.removeItem(atPath: file)
        case .garbage:
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: file))
        case .truncated:
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: file))
        case .checkpointPastTheLog:
            try TestDatabase(path: file, readonly: false).execute("UPDATE projection_meta SET value = '1000' WHERE key = 'position'")
        case .deviceAheadOfTheLog:
            try TestDatabase(path: file, readonly: false).execute("UPDATE projection_checkpoint SET seq = seq + 100")
        case .otherLedgersProjection:
            let other = CLIRunner(ledger: dir.sub("other"))
            #expect(try other.run("init", "--no-catalog").status == 0)
            #expect(try other.run("complete", "9", "2020").status == 0)
            try FileManager.default.removeItem(atPath: file)
            try FileManager.default.copyItem(atPath: dir.sub("other") + "/projection.sqlite", toPath: file)
        }
        let export = try cli.run("export", "--format", "jsonl")
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout == expected, "never a wrong projection")
        if damage == .deleted {
            #expect(export.stderr.isEmpty, "\(export.stderr)")
        } else {
            #expect(export.stderr.hasPrefix("note: projection.sqlite ") && export.stderr.contains("rebuilding it from the log"),
                    "\(export.stderr)")
            #expect(export.stderr.split(separator: "\n").count == 1)
        }
        let after = try Self.storedState(path)
        #expect(after.discardedBecause == nil && after.checkpoint == after.recordCount && after.equalsFullFold)
        #expect(try cli.run("export", "--format", "jsonl").stderr.isEmpty, "the rebuilt file is used from then on")
    }
}
