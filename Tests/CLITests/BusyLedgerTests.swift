import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A busy ledger (docs/ledger-cli.md, "A busy ledger and a read-only one"; Schemas/segment-format.md
/// §7), through the built executable on a real file system: a command that meets a held ledger
/// lock waits (`--wait SECONDS`, 10 by default) and then exits 75 naming the pid; readers share
/// the lock, so they never wait for each other.
@Suite(.serialized) struct BusyLedgerTests {
    static let fixture = BundledLedgerFixture(label: "busy", setup: [])
    static let stations = ["201111", "300260", "301230", "200126", "300645", "202758", "120004", "202945", "300291", "300292"]

    @Test("ten complete runs at once all succeed, each recorded exactly once")
    func tenConcurrentEdits() async throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        // Ten processes started together, each writing its output to a file of its own.
        var runs: [(Process, String)] = []
        for (index, station) in Self.stations.enumerated() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CLIRunner.executable)
            process.arguments = ["complete", station, "2013-09-\(index + 1)", "--ledger", work + "/ledger"]
            process.environment = ["ORITSUBUSHI_NOW": CLIRunner.pinnedNow, "PATH": "/usr/bin:/bin"]
            let output = "\(work)/out.\(index)"
            try #require(FileManager.default.createFile(atPath: output, contents: nil), "\(output)")
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
            process.standardOutput = handle
            process.standardError = handle
            process.standardInput = FileHandle.nullDevice
            runs.append((process, output))
        }
        for (process, _) in runs { try process.run() }
        for (index, (process, output)) in runs.enumerated() {
            #expect(await ChildProcess.exit(of: process, within: .seconds(120)), "run \(index) still running")
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "run \(index): \(text)")
        }
        let replayed = try await cli.run("replay", "--format", "jsonl").stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["station"] as? Int
        }
        #expect(replayed.count == 10 && Set(replayed.map(String.init)) == Set(Self.stations), "\(replayed)")
        #expect(try await cli.run("verify").status == 0)
    }

    @Test("--wait 0 refuses a held lock at once, naming the holder's pid (exit 75)", arguments: [
        ["complete", "201111", "2013"], ["status"], ["replay"], ["stats", "operators"],
    ])
    func heldLockIsRefusedAtOnce(_ command: [String]) async throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        // A snapshot reads LOCK, and closing any descriptor of it drops this process's record
        // lock (the one that names the pid): both snapshots are taken while it is not held.
        let before = try directorySnapshot(work)
        let lock = try LedgerLock.acquire(directory: work + "/ledger")
        // Timed by the shell that starts the command, from just before it to its exit: the
        // command's own time, not when this test gets a thread back to see it.
        let result = try await cli.runShell("s=$(date +%s%N); \"$0\" \(command.joined(separator: " ")) --wait 0; c=$?; echo \"elapsed_ns=$(( $(date +%s%N) - s ))\" >&2; exit $c")
        lock.release()
        let nanoseconds = result.stderr.firstMatch(of: /elapsed_ns=(\d+)/).flatMap { Int64($0.1) } ?? .max
        let elapsed = Duration.nanoseconds(nanoseconds)
        #expect(result.status == 75, "\(command): \(result.stderr)")
        #expect(result.stderr.hasPrefix("error: ledger is locked by pid \(getpid());"), "\(result.stderr)")
        #expect(elapsed < .seconds(1), "\(command) took \(elapsed)")  // at once: the whole command, start to exit
        #expect(snapshotDifferences(before, try directorySnapshot(work)).isEmpty)
    }

    @Test("a writer waits for the lock and goes ahead once it is released")
    func writerWaits() async throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let lock = try LedgerLock.acquire(directory: work + "/ledger")
        async let waiting = cli.run("complete", "201111", "2013")
        try await Task.sleep(for: .milliseconds(1500))
        #expect(LedgerLock.holder(directory: work + "/ledger") == nil, "only this process holds the lock while the command waits")
        let released = ContinuousClock.now
        lock.release()
        // The moment the command holds the lock: its record lock names it (F_GETLK), polled here
        // every 5 ms. Measured so, the bound is the wait's alone, not the edit's own work after it.
        var tookIt: Duration?
        while tookIt == nil, ContinuousClock.now - released < .seconds(10) {
            if LedgerLock.holder(directory: work + "/ledger") != nil { tookIt = ContinuousClock.now - released }
            else { try await Task.sleep(for: .milliseconds(5)) }
        }
        let result = try await waiting
        #expect(result.status == 0, "\(result.stderr)")
        // It waited for the holder (it took the lock only after the release) and went ahead at
        // once: the lock is tried every 50 ms at most.
        let after = try #require(tookIt, "the command was never seen holding the lock")
        #expect(after < .seconds(1), "took the lock \(after) after the release")
        #expect(try await cli.run("history", "201111").stdout.contains("2013"), "the waiting edit is recorded")
    }

    @Test("a held lock is refused after --wait seconds, naming the pid")
    func waitRunsOut() async throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let lock = try LedgerLock.acquire(directory: work + "/ledger")
        defer { lock.release() }
        let started = ContinuousClock.now
        // Two seconds rather than one: the bound is twice the setting, and a debug binary's start
        // on a busy machine takes a fixed part of it that a longer setting leaves room for.
        let result = try await cli.run("complete", "201111", "2013", "--wait", "2")
        let elapsed = ContinuousClock.now - started
        #expect(result.status == 75 && result.stderr.contains("ledger is locked by pid \(getpid()) (waited 2 s)"), "\(result.stderr)")
        #expect(elapsed >= .seconds(2) && elapsed < .seconds(4), "\(elapsed)")  // 2 s, within twice the setting
    }

    @Test("readers never wait for readers; a writer waits for them")
    func readersShare() async throws {
        let (work, cli) = try Self.fixture.copy()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let reader = try LedgerLock.acquire(directory: work + "/ledger", request: .init(mode: .shared))
        defer { reader.release() }
        for command in [["status"], ["replay"], ["history", "201111"], ["stats", "operators"], ["station", "show", "201111"], ["verify"]] {
            let result = try await cli.run(command + ["--wait", "0"])
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let writer = try await cli.run("complete", "201111", "2013", "--wait", "0")
        #expect(writer.status == 75 && writer.stderr.contains("pid \(getpid())"), "\(writer.stderr)")
    }

    @Test("--wait must be 0 to 86400 seconds")
    func badWait() throws {
        let result = try CLIRunner(ledger: nil).run("status", "--wait", "-1")
        #expect(result.status == 64 && result.stderr.contains("--wait"), "\(result.stderr)")
    }
}
