import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import SyncClient
import Testing

/// `oritsubushi verify --repair`: a damaged replica repaired from a healthy one (a ledger
/// directory or the real sync server on loopback), with the built executable and real files.
@Suite("Repairing a damaged replica")
struct RepairTests {
    /// Where a test damages replica A.
    enum Damage: String, CaseIterable, Sendable {
        /// A byte inside the first data frame of a sealed middle segment (open succeeds, reads fail).
        case middleFrame
        /// The footer of a sealed middle segment (open refuses the ledger).
        case middleFooter
        /// The header of a sealed middle segment (open refuses the ledger).
        case middleHeader
        /// The first frame of the newest, unsealed segment, with frames after it.
        case newestFrame
        /// The last frame of the newest segment: below the watermark, so damage, never a tear.
        case newestLastFrame
    }

    static let now = ["ORITSUBUSHI_NOW": "1795000000"]

    @Test("repair from a healthy replica's directory", arguments: Damage.allCases)
    func repairFromDirectory(damage: Damage) async throws {
        let dir = try TemporaryDirectory("repair-\(damage.rawValue)")
        defer { dir.remove() }
        let replicas = try Replicas.make(in: dir)
        let segment = try replicas.damage(damage)
        let originals = try directorySnapshot(replicas.a + "/segments")

        let broken = try await CLI.run(["verify", "--ledger", replicas.a], environment: Self.now)
        #expect(broken.status == 65)
        #expect(broken.stderr.contains(SegmentInfo.fileName(segment)), "\(broken.stderr)")

        let repaired = try await CLI.run(["verify", "--repair", "--from", replicas.b, "--ledger", replicas.a], environment: Self.now)
        repaired.expectSuccess()
        #expect(repaired.stdout.contains("moved \(SegmentInfo.fileName(segment)) aside to quarantine/"), "\(repaired.stdout)")
        #expect(repaired.stdout.contains("re-fetched "))
        #expect(repaired.stdout.contains("repaired: "))
        try await replicas.expectRepaired(keptBelow: segment, originals: originals)
    }

    @Test("repair from the sync server; wrong token 77, unreachable server 69")
    func repairFromServer() async throws {
        let dir = try TemporaryDirectory("repair-server")
        defer { dir.remove() }
        let replicas = try Replicas.make(in: dir)
        // A served child process: the blocking client below must not share threads with it.
        let store = try await CommandLineStore.make(.files, in: dir)
        let token = try await store.addUser("alice")
        let server = try await store.serve()
        defer { server.terminate() }
        do {
            let b = try Ledger.open(directory: replicas.b, clock: DeviceClock())
            defer { b.close() }
            _ = try await SyncSession(connection: try SyncConnection(server: server.url, token: token)).run(b)
        }
        let segment = try replicas.damage(.middleFrame)
        let originals = try directorySnapshot(replicas.a + "/segments")
        let before = try directorySnapshot(replicas.a)

        let refused = try await CLI.run(["verify", "--repair", "--server", server.url, "--token", "ots_wrong", "--ledger", replicas.a],
                                  environment: Self.now)
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(try directorySnapshot(replicas.a) == before)

        let repaired = try await CLI.run(["verify", "--repair", "--server", server.url, "--json", "--ledger", replicas.a],
                                   environment: Self.now.merging(["ORITSUBUSHI_TOKEN": token]) { $1 })
        repaired.expectSuccess()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(repaired.stdout.utf8)) as? [String: Any])
        #expect(object["repaired"] as? Bool == true)
        #expect(object["damaged_segment"] as? String == SegmentInfo.fileName(segment))
        #expect((object["recovered_events"] as? Int ?? 0) > 0)
        #expect((object["moved"] as? [String])?.contains(SegmentInfo.fileName(segment)) == true)
        #expect(object["source"] as? String == server.url)
        try await replicas.expectRepaired(keptBelow: segment, originals: originals)
        await #expect(server.stop() == 0)

        // The server is gone now: unreachable, and nothing changes (segment 2 is still the
        // original, sealed one).
        try replicas.damage(.middleFrame, segment: 2)
        let unchanged = try directorySnapshot(replicas.a)
        let unreachable = try await CLI.run(["verify", "--repair", "--server", server.url, "--token", token, "--ledger", replicas.a],
                                      environment: Self.now)
        #expect(unreachable.status == 69, "\(unreachable.stderr)")
        #expect(try directorySnapshot(replicas.a) == unchanged)
    }

    @Test("a source without the damaged segment's events: exit 65, nothing changes")
    func sourceLacksEvents() async throws {
        let dir = try TemporaryDirectory("repair-lacking")
        defer { dir.remove() }
        let replicas = try Replicas.make(in: dir, unsyncedSegments: true)
        let segment = try replicas.damage(.middleFrame, segment: replicas.firstUnsyncedSegment!)
        let before = try directorySnapshot(replicas.a)
        let refused = try await CLI.run(["verify", "--repair", "--from", replicas.b, "--ledger", replicas.a], environment: Self.now)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("cannot repair: \(SegmentInfo.fileName(segment)) held device"), "\(refused.stderr)")
        #expect(refused.stderr.contains("which the source does not have"))
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(try directorySnapshot(replicas.a) == before)
    }

    /// Before the watermark, this damage read as a torn write: opening cut the event away and
    /// the device issued its seq again. Now it is damage, and a source without the event cannot
    /// repair it, since the watermark says the device issued it.
    @Test("the newest segment's last frame damaged, the source without it: exit 65, nothing changes")
    func newestLastFrameNotInTheSource() async throws {
        let dir = try TemporaryDirectory("repair-newest-last")
        defer { dir.remove() }
        let replicas = try Replicas.make(in: dir, unsyncedSegments: true)
        let segment = try replicas.damage(.newestLastFrame)
        let before = try directorySnapshot(replicas.a)
        let status = try await CLI.run(["status", "--ledger", replicas.a], environment: Self.now)
        #expect(status.status == 65, "\(status.stderr)")
        #expect(status.stderr.contains(SegmentInfo.fileName(segment)), "\(status.stderr)")
        let edit = try await CLI.run(["memo", "120004", "after the damage", "--ledger", replicas.a], environment: Self.now)
        #expect(edit.status == 65, "no edit may follow the damage: \(edit.stderr)")
        let refused = try await CLI.run(["verify", "--repair", "--from", replicas.b, "--ledger", replicas.a], environment: Self.now)
        #expect(refused.status == 65, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("which the source does not have"), "\(refused.stderr)")
        #expect(try directorySnapshot(replicas.a) == before)
    }

    @Test("nothing damaged: exit 0 and nothing changes; bad arguments 64, no ledger 66, locked 75")
    func nothingToRepair() async throws {
        let dir = try TemporaryDirectory("repair-none")
        defer { dir.remove() }
        let replicas = try Replicas.make(in: dir)
        let before = try directorySnapshot(replicas.a)
        let ok = try await CLI.run(["verify", "--repair", "--from", replicas.b, "--ledger", replicas.a], environment: Self.now)
        ok.expectSuccess()
        #expect(ok.stdout == "ok: nothing to repair\n")
        #expect(try directorySnapshot(replicas.a) == before)
        let usages: [[String]] = [
            ["verify", "--repair"],
            ["verify", "--repair", "--from", replicas.b, "--server", "http://127.0.0.1:1"],
            ["verify", "--from", replicas.b],
            ["verify", "--repair", "--from", replicas.b, "--token", "t"],
            ["verify", "--repair", "--from", replicas.a],
        ]
        for arguments in usages {
            #expect(try await CLI.run(arguments + ["--ledger", replicas.a], environment: Self.now).status == 64, "\(arguments)")
        }
        #expect(try await CLI.run(["verify", "--repair", "--from", dir.sub("missing"), "--ledger", replicas.a], environment: Self.now).status == 66)
        #expect(try await CLI.run(["verify", "--repair", "--from", replicas.b, "--ledger", dir.sub("missing")], environment: Self.now).status == 66)
        // Another program holds the ledger: 75.
        let holder = try Ledger.open(directory: replicas.a, clock: DeviceClock())
        let locked = try await CLI.run(["verify", "--repair", "--from", replicas.b, "--ledger", replicas.a, "--wait", "0"], environment: Self.now)
        holder.close()
        #expect(locked.status == 75, "\(locked.stderr)")
        #expect(try directorySnapshot(replicas.a) == before)
    }

    @Test("a repair interrupted at any file-system step is finished by running it again")
    func interruptedRepair() async throws {
        let dir = try TemporaryDirectory("repair-interrupted")
        defer { dir.remove() }
        let replicas = try Replicas.make(in: dir)
        let segment = try replicas.damage(.middleFrame)
        let source = try Ledger.open(directory: replicas.b, clock: DeviceClock())
        let sourceRecords = try source.allRecords()
        source.close()
        var step = 1
        var completed = false
        var interruptions = 0
        while !completed {
            let copy = dir.sub("copy-\(step)")
            try FileManager.default.copyItem(atPath: replicas.a, toPath: copy)
            let failing = FailingFileSystem(failingAt: step)
            var interrupted = false
            do {
                let repair = try LedgerRepair.begin(directory: copy, fileSystem: failing, clock: DeviceClock())
                _ = try repair.repair(from: sourceRecords, sourceName: "b")
                repair.close()
            } catch let error as LedgerError where error.message == FailingFileSystem.message {
                interrupted = true
            }
            // A failure the ledger absorbs (a best-effort checkpoint) does not interrupt the repair.
            completed = !failing.triggered
            let rerun = try await CLI.run(["verify", "--repair", "--from", replicas.b, "--ledger", copy], environment: Self.now)
            rerun.expectSuccess()
            // Interrupted at its very last step (the marker's directory fsync), a repair is done.
            #expect(interrupted || rerun.stdout == "ok: nothing to repair\n", "step \(step): \(rerun.stdout)")
            if interrupted { interruptions += 1 }
            try await CLI.run(["verify", "--ledger", copy], environment: Self.now).expectSuccess()
            try replicas.expectEvents(in: copy)
            try replicas.expectQuarantineHolds(segment, in: copy)
            try FileManager.default.removeItem(atPath: copy)
            step += 1
            #expect(step < 400, "the repair never finished")
            if step >= 400 { break }
        }
        #expect(interruptions > 10, "too few interruption points were tried")
    }
}

/// Replica A (several sealed segments) and replica B, merged both ways so that they share every
/// event; optionally A goes on alone for a few more segments.
struct Replicas {
    let a: String
    let b: String
    /// Every event of A and B after the last merge.
    let expected: [EventID: UInt64]
    /// The bytes of A's segment files before any damage.
    let segmentBytes: [UInt32: Data]
    let firstUnsyncedSegment: UInt32?
    let newestSegment: UInt32
    /// The offset of the newest segment's last frame (one event).
    let newestLastFrame: Int

    static func make(in dir: TemporaryDirectory, unsyncedSegments: Bool = false) throws -> Replicas {
        let a = dir.sub("a"), b = dir.sub("b")
        let phone = try Ledger.create(directory: a, deviceName: "phone", clock: DeviceClock())
        let tablet = try Ledger.create(directory: b, deviceName: "tablet", clock: DeviceClock(skew: 5))
        defer { phone.close(); tablet.close() }
        phone.rollThreshold = 900
        tablet.rollThreshold = 900
        let stations: [UInt32] = [120_004, 202_919, 300_290, 306_029, 1_130_101]
        var n = 0
        func edits(_ ledger: Ledger, _ count: Int) throws {
            for _ in 0..<count {
                n += 1
                _ = try ledger.edit(stations[n % stations.count], date: .year(1990 + n % 30), memo: n % 3 == 0 ? "memo \(n)" : nil)
            }
        }
        for round in 0..<8 {
            try edits(phone, 6)
            try edits(tablet, 4)
            if round % 3 == 2 {
                try LedgerMerger.merge(from: tablet, into: phone)
                try LedgerMerger.merge(from: phone, into: tablet)
            }
        }
        try LedgerMerger.merge(from: tablet, into: phone)
        try LedgerMerger.merge(from: phone, into: tablet)
        let expected = try phone.eventSet().merging(try tablet.eventSet()) { first, _ in first }
        var firstUnsynced: UInt32?
        if unsyncedSegments {
            try phone.sealActiveSegment()
            firstUnsynced = UInt32(phone.segments.count + 1)
            while phone.segments.count < Int(firstUnsynced!) + 2 { try edits(phone, 3) }
        }
        // A few frames in the newest segment, unsealed.
        phone.rollThreshold = .max
        try phone.sealActiveSegment()
        try edits(phone, 5)
        let newestLastFrame = try PosixFileSystem().fileSize(phone.segments.last!.path)
        try edits(phone, 1)
        if !unsyncedSegments { try LedgerMerger.merge(from: phone, into: tablet) }
        precondition(phone.segments.filter(\.sealed).count >= 4 && !phone.segments.last!.sealed,
                     "replica A needs sealed middle segments and an open newest one")
        var bytes: [UInt32: Data] = [:]
        for segment in phone.segments { bytes[segment.number] = try Data(contentsOf: URL(fileURLWithPath: segment.path)) }
        let all = unsyncedSegments ? expected : try phone.eventSet().merging(try tablet.eventSet()) { first, _ in first }
        return Replicas(a: a, b: b, expected: all, segmentBytes: bytes, firstUnsyncedSegment: firstUnsynced,
                        newestSegment: phone.segments.last!.number, newestLastFrame: newestLastFrame)
    }

    func path(_ number: UInt32) -> String { a + "/segments/" + SegmentInfo.fileName(number) }

    /// Flips one byte of A and returns the damaged segment's number.
    @discardableResult
    func damage(_ damage: RepairTests.Damage, segment chosen: UInt32? = nil) throws -> UInt32 {
        let number = chosen ?? ([.newestFrame, .newestLastFrame].contains(damage) ? newestSegment : 3)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path(number)))
        let offset: Int
        switch damage {
        case .middleFrame, .newestFrame: offset = SegmentHeader.frameSize + 6  // the first data frame's descriptor
        case .newestLastFrame: offset = newestLastFrame + 6
        case .middleFooter: offset = bytes.count - 12
        case .middleHeader: offset = 20  // the segment number, under the header's checksum
        }
        bytes[offset] ^= 0x5A
        try bytes.write(to: URL(fileURLWithPath: path(number)))
        return number
    }

    /// After a repair: verify is ok, A holds the expected events, segments below `keptBelow` are
    /// byte-identical, the quarantine holds the damaged originals, the projection equals a fresh
    /// rebuild and A's export equals B's.
    func expectRepaired(keptBelow segment: UInt32, originals: [String: Data],
                        sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await CLI.run(["verify", "--ledger", a], environment: RepairTests.now).expectSuccess(sourceLocation: sourceLocation)
        try expectEvents(in: a, sourceLocation: sourceLocation)
        for number in 1..<segment {
            let now = try Data(contentsOf: URL(fileURLWithPath: path(number)))
            #expect(now == segmentBytes[number], "segment \(number) changed", sourceLocation: sourceLocation)
        }
        let quarantine = try expectQuarantineHolds(segment, in: a, sourceLocation: sourceLocation)
        for (name, bytes) in originals where SegmentInfo.number(ofFileName: name).map({ $0 >= segment }) == true {
            #expect(try Data(contentsOf: URL(fileURLWithPath: quarantine + "/" + name)) == bytes,
                    "quarantined \(name)", sourceLocation: sourceLocation)
        }
        // The projection the repair rebuilt equals a fresh rebuild, and A's completions equal B's.
        let jsonl = try await CLI.run(["export", "--format", "jsonl", "--ledger", a], environment: RepairTests.now)
        let export = try await CLI.run(["export", "--format", "tsv", "--ledger", a], environment: RepairTests.now)
        try await CLI.run(["rebuild", "--ledger", a], environment: RepairTests.now).expectSuccess(sourceLocation: sourceLocation)
        #expect(try await CLI.run(["export", "--format", "jsonl", "--ledger", a], environment: RepairTests.now).stdout == jsonl.stdout,
                sourceLocation: sourceLocation)
        #expect(export.stdout == (try await CLI.run(["export", "--format", "tsv", "--ledger", b], environment: RepairTests.now)).stdout,
                sourceLocation: sourceLocation)
    }

    func expectEvents(in directory: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let repaired = try Ledger.open(directory: directory, clock: DeviceClock())
        defer { repaired.close() }
        #expect(try repaired.eventSet() == expected, sourceLocation: sourceLocation)
    }

    /// The one quarantine directory: it holds the damaged segment, and no repair is unfinished.
    @discardableResult
    func expectQuarantineHolds(_ segment: UInt32, in directory: String,
                               sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let root = directory + "/quarantine"
        let runs = try FileManager.default.contentsOfDirectory(atPath: root)
        let held = runs.filter { FileManager.default.fileExists(atPath: root + "/" + $0 + "/" + SegmentInfo.fileName(segment)) }
        #expect(held.count == 1, "\(runs)", sourceLocation: sourceLocation)
        for run in runs {
            #expect(!FileManager.default.fileExists(atPath: root + "/" + run + "/" + LedgerRepair.unfinishedMarker),
                    "unfinished \(run)", sourceLocation: sourceLocation)
        }
        return root + "/" + (held.first ?? "")
    }
}

/// The real file system, failing (like a crash, nothing is undone) at its `failingAt`-th
/// changing operation.
final class FailingFileSystem: FileSystem, @unchecked Sendable {
    static let message = "injected interruption"
    private let real = PosixFileSystem()
    private let lock = NSLock()
    private var remaining: Int

    init(failingAt step: Int) { remaining = step }

    var triggered: Bool { lock.withLock { remaining <= 0 } }

    private func step() throws {
        let fail = lock.withLock {
            remaining -= 1
            return remaining == 0
        }
        if fail { throw LedgerError(.io, Self.message) }
    }

    func fileExists(_ path: String) -> Bool { real.fileExists(path) }
    func directoryExists(_ path: String) -> Bool { real.directoryExists(path) }
    func createDirectory(_ path: String) throws { try step(); try real.createDirectory(path) }
    func listDirectory(_ path: String) throws -> [String] { try real.listDirectory(path) }
    func fileSize(_ path: String) throws -> Int { try real.fileSize(path) }
    func readFile(_ path: String) throws -> [UInt8] { try real.readFile(path) }
    func readFile(_ path: String, offset: Int, length: Int) throws -> [UInt8] { try real.readFile(path, offset: offset, length: length) }
    func openForAppend(_ path: String, create: Bool) throws -> any WritableFile {
        try step()
        return FailingFile(try real.openForAppend(path, create: create), fileSystem: self)
    }
    func truncateFile(_ path: String, to size: Int) throws { try step(); try real.truncateFile(path, to: size) }
    func overwrite(_ path: String, at offset: Int, with bytes: [UInt8]) throws { try step(); try real.overwrite(path, at: offset, with: bytes) }
    func rename(_ from: String, to: String) throws { try step(); try real.rename(from, to: to) }
    func removeFile(_ path: String) throws { try step(); try real.removeFile(path) }
    func removeDirectory(_ path: String) throws { try step(); try real.removeDirectory(path) }
    func link(_ existing: String, to path: String) throws -> Bool { try step(); return try real.link(existing, to: path) }
    func syncDirectory(_ path: String) throws { try step(); try real.syncDirectory(path) }
    func lockDirectory(_ path: String, request: LedgerLock.Request) throws -> LedgerLock? {
        try real.lockDirectory(path, request: request)
    }
    func withExclusiveFileLock<T>(_ path: String, _ body: () throws -> T) throws -> T {
        try real.withExclusiveFileLock(path, body)
    }

    final class FailingFile: WritableFile {
        let file: any WritableFile
        let fileSystem: FailingFileSystem
        init(_ file: any WritableFile, fileSystem: FailingFileSystem) {
            self.file = file
            self.fileSystem = fileSystem
        }
        var size: Int { file.size }
        func write(_ bytes: UnsafeRawBufferPointer) throws { try fileSystem.step(); try file.write(bytes) }
        func sync() throws { try fileSystem.step(); try file.sync() }
        func close() { file.close() }
    }
}
