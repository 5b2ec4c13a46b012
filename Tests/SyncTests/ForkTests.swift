import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import SyncClient
import Testing

/// A copied ledger never syncs silently (Schemas/merge.md §10): the built executable against the
/// real sync server, with ledger directories copied as a user copies them.
@Suite("Copied ledgers (forks)")
struct ForkTests {
    /// `cp -r` of a synced ledger, a different station recorded on each copy, then one syncs
    /// first and the other second, in both orders: the one that syncs second is re-identified
    /// and the first keeps the device id, whichever of them was copied (merge.md §10). The second
    /// records `secondEdits` events: 1 makes the server refuse its pull with 409 `fork`; 2 leaves
    /// it ahead of the server, which the client sees from `server_digests`. Then both sync twice:
    /// every replica and a fresh device hold every completion.
    @Test("a copy: whichever syncs second is re-identified, and both converge", arguments: ForkOrder.cases, StoreKind.allCases)
    func copyConverges(order: ForkOrder, store: StoreKind) async throws {
        let dir = try TemporaryDirectory("fork-copy")
        defer { dir.remove() }
        let server = try await SyncTestServer.start(dir, store)
        defer { server.stop() }
        let original = dir.sub("original"), copy = dir.sub("copy"), fresh = dir.sub("fresh")
        try await CLI.run("init", "--ledger", original, "--device", "laptop", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "202919", "2020-05", "--ledger", original).expectSuccess()
        try await server.sync(original).expectSuccess()
        try FileManager.default.copyItem(atPath: original, toPath: copy)
        let oldDevice = try deviceID(of: original)

        try await CLI.run("complete", "120004", "2021-03-04", "--ledger", original).expectSuccess()
        try await CLI.run("complete", "130001", "2022", "--ledger", copy).expectSuccess()
        let (first, second) = order.copyFirst ? (copy, original) : (original, copy)
        if order.secondEdits > 1 {
            try await CLI.run("memo", order.copyFirst ? "120004" : "130001", "後から同期", "--ledger", second).expectSuccess()
        }
        try await server.sync(first).expectSuccess()
        let reidentified = try await server.sync(second)
        reidentified.expectSuccess()
        #expect(reidentified.stdout.contains("this ledger was a copy of another replica: device \(oldDevice)'s events #"),
                "\(reidentified.stdout)")
        let newDevice = try deviceID(of: second)
        #expect(newDevice != oldDevice)
        #expect(reidentified.stdout.contains(newDevice.description))
        for ledger in [first, second, first, second] { try await server.sync(ledger).expectSuccess() }
        try await CLI.run("init", "--ledger", fresh, "--device", "tablet", "--no-catalog").expectSuccess()
        try await server.sync(fresh).expectSuccess()

        let exports = try await [original, copy, fresh].asyncMap { try await CLI.run("export", "--format", "tsv", "--ledger", $0).stdout }
        #expect(exports[0] == exports[1] && exports[1] == exports[2])
        for station in ["202919", "120004", "130001"] { #expect(exports[0].contains(station), "\(station) lost") }
        if order.secondEdits > 1 { #expect(exports[2].contains("後から同期")) }

        // The second's old segments are kept in quarantine, the swap finished, it verifies; the
        // first was not touched.
        let runs = try FileManager.default.contentsOfDirectory(atPath: second + "/quarantine")
        #expect(runs.count == 1)
        let run = second + "/quarantine/" + runs[0]
        #expect(FileManager.default.fileExists(atPath: run + "/segments/00000001.seg"))
        #expect(!FileManager.default.fileExists(atPath: run + "/" + LedgerSwap.unfinishedMarker))
        #expect(!FileManager.default.fileExists(atPath: second + "/" + LedgerSwap.stagingDirectory))
        try await CLI.run("verify", "--ledger", second).expectSuccess()
        #expect(try deviceID(of: first) == oldDevice, "the replica that synced first keeps its id")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: first + "/quarantine")) ?? []).isEmpty)
    }

    /// Which of the two copies syncs first after the copy, and how many events the second records.
    struct ForkOrder: Sendable, CustomTestStringConvertible {
        var copyFirst: Bool
        var secondEdits: Int

        static let cases = [false, true].flatMap { copyFirst in [1, 2].map { ForkOrder(copyFirst: copyFirst, secondEdits: $0) } }

        var testDescription: String { "\(copyFirst ? "the copy" : "the original") first, \(secondEdits) on the second" }
    }

    /// A replica that received a copy's diverging events by `merge` cannot be re-identified (they
    /// are not its own): refused naming the device and seq, nothing written.
    @Test("a fork of another device is refused with exit 65 and nothing written", arguments: StoreKind.allCases)
    func foreignForkRefused(store: StoreKind) async throws {
        let dir = try TemporaryDirectory("fork-foreign")
        defer { dir.remove() }
        let server = try await SyncTestServer.start(dir, store)
        defer { server.stop() }
        let original = dir.sub("original"), copy = dir.sub("copy"), other = dir.sub("other")
        try await CLI.run("init", "--ledger", original, "--device", "laptop", "--no-catalog").expectSuccess()
        try await server.sync(original).expectSuccess()
        try FileManager.default.copyItem(atPath: original, toPath: copy)
        try await CLI.run("complete", "120004", "2021", "--ledger", original).expectSuccess()
        try await CLI.run("complete", "130001", "2022", "--ledger", copy).expectSuccess()
        try await server.sync(original).expectSuccess()
        try await CLI.run("init", "--ledger", other, "--device", "phone", "--no-catalog").expectSuccess()
        try await CLI.run("merge", copy, "--ledger", other).expectSuccess()
        let forked = try deviceID(of: copy)

        let before = try directorySnapshot(other)
        let refused = try await server.sync(other)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("device \(forked)'s event #"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(refused.stderr.contains("oritsubushi sync --rehome"), "the refusal names the way out: \(refused.stderr)")
        #expect(try directorySnapshot(other) == before, "nothing written")
        let ownDevice = try deviceID(of: other)

        // The way out: the copy's events move to a new id on this replica and are synced.
        let rehomed = try await server.sync(other, arguments: ["--rehome"])
        rehomed.expectSuccess()
        #expect(rehomed.stdout.contains("received from a copied ledger, now belong to the new device id"), "\(rehomed.stdout)")
        #expect(try deviceID(of: other) == ownDevice, "this replica keeps its own id")
        try await CLI.run("verify", "--ledger", other).expectSuccess()
        for ledger in [copy, original, other, copy] { try await server.sync(ledger).expectSuccess() }
        let exports = try await [original, copy, other].asyncMap { try await CLI.run("export", "--format", "tsv", "--ledger", $0).stdout }
        #expect(exports[0] == exports[1] && exports[1] == exports[2], "\(exports)")
        for station in ["120004", "130001"] { #expect(exports[2].contains(station), "\(station) lost") }
    }

    /// Two copies syncing at the same moment: both pull before either pushes, so the second push
    /// meets the first's events under the same ids. The server answers that push as a fork and
    /// the copy is re-identified (never "a corrupt or forged replica").
    @Test("a copy whose push meets the other copy's events under its ids is re-identified", arguments: StoreKind.allCases)
    func concurrentCopies(store: StoreKind) async throws {
        let dir = try TemporaryDirectory("fork-race")
        defer { dir.remove() }
        let server = try await SyncTestServer.start(dir, store)
        defer { server.stop() }
        let original = dir.sub("original"), copy = dir.sub("copy")
        try await CLI.run("init", "--ledger", original, "--device", "laptop", "--no-catalog").expectSuccess()
        try await CLI.run("complete", "202919", "2020", "--ledger", original).expectSuccess()
        try await server.sync(original).expectSuccess()
        try FileManager.default.copyItem(atPath: original, toPath: copy)
        try await CLI.run("complete", "120004", "2021", "--ledger", original).expectSuccess()
        try await CLI.run("complete", "130001", "2022", "--ledger", copy).expectSuccess()

        var session = SyncSession(connection: try SyncConnection(server: server.process.url, token: server.token))
        var interleaved = false
        session.progress = { event in
            // Between the copy's pull and its push: the original syncs (a separate process).
            guard case .pulled = event, !interleaved else { return }
            interleaved = true
            // The callback is synchronous and the copy's push must wait for this sync: the one
            // child process a test waits for on its own thread, on purpose.
            try CLI.run(["sync", "--server", server.process.url, "--ledger", original],
                        environment: ["ORITSUBUSHI_TOKEN": server.token]).expectSuccess()
        }
        let (report, ledger) = try await session.run(opening: { try Ledger.open(directory: copy) }, derivedFiles: [])
        ledger.close()
        #expect(interleaved)
        let change = try #require(report.reidentified, "the push's fork did not re-identify the copy")
        #expect(change.newDevice == (try deviceID(of: copy)))
        for ledger in [original, copy] { try await server.sync(ledger).expectSuccess() }
        let exports = try await [original, copy].asyncMap { try await CLI.run("export", "--format", "tsv", "--ledger", $0).stdout }
        #expect(exports[0] == exports[1])
        for station in ["202919", "120004", "130001"] { #expect(exports[0].contains(station), "\(station) lost") }
    }

    /// The swap survives a crash at every file operation: finishing it afterwards (what every
    /// command does first) leaves the old ledger or the new one, never a mix.
    @Test("a crash at any point of the rewrite leaves the old ledger or the new one")
    func crashDuringRewrite() throws {
        let base = CrashableFileSystem()
        let clock = FixedClock(milliseconds: 1_800_000_000_000)
        let other = DeviceID(rawValue: 0x0bad_cafe_0000_0001)
        let newDevice = DeviceID(rawValue: 0x0123_4567_89ab_cdef)
        do {
            let ledger = try Ledger.create(directory: "/l", deviceName: "copy", fileSystem: base, clock: clock, useLock: false)
            ledger.rollThreshold = 600
            for station in 1...12 as ClosedRange<UInt32> {
                try ledger.appendLocal([StationEditDraft(station: station, compDate: try CompletionDate(code: 20_200_000), memo: "m\(station)")])
                if station % 4 == 0 {
                    let seq = (ledger.versionVector[other] ?? 0) + 1
                    try ledger.append([.stationEdit(StationEdit(
                        id: EventID(device: other, seq: seq), hlc: ledger.nextLocalHLC(), station: 100 + station,
                        compDate: try CompletionDate(code: 20_190_000), memo: nil, origin: .user))])
                }
            }
            ledger.close()
        }
        let old = try Ledger.open(directory: "/l", fileSystem: base, clock: clock, useLock: false)
        let oldRecords = try old.allRecords()
        let oldDevice = old.localDevice
        old.close()

        var sawOld = false, sawNew = false
        for operations in 0..<400 {
            let fileSystem = base.clone()
            fileSystem.crash(afterOperations: operations)
            var finished = false
            do {
                let ledger = try Ledger.open(directory: "/l", fileSystem: fileSystem, clock: clock, useLock: false)
                _ = try DeviceReidentification.rewrite(ledger, from: 6, stamping: .keep, derivedFiles: [], newDevice: newDevice)
                ledger.close()
                finished = true
            } catch {
                // Only the crash may stop the rewrite: any other failure is a defect.
                #expect(fileSystem.hasCrashed, "the rewrite failed with no crash, after \(operations) operations: \(error)")
            }
            let image = fileSystem.image()
            try LedgerSwap.finishInterrupted(directory: "/l", fileSystem: image, derivedFiles: [], useLock: false)
            // The swap's last step, the build directory's removal, is done (or redone) too.
            #expect(!image.directoryExists("/l/" + LedgerSwap.stagingDirectory), "after \(operations) operations")
            let after = try Ledger.open(directory: "/l", fileSystem: image, clock: clock, useLock: false)
            defer { after.close() }
            let records = try after.allRecords()
            if after.localDevice == oldDevice {
                #expect(records == oldRecords, "after \(operations) operations: the old ledger, whole")
                sawOld = true
            } else {
                #expect(after.localDevice == newDevice)
                #expect(after.versionVector[oldDevice] == 5 && after.versionVector[newDevice] == 7,
                        "after \(operations) operations: \(after.versionVector)")
                let moved = records.compactMap { record -> StationEdit? in
                    guard case .stationEdit(let e) = record, e.id.device == newDevice else { return nil }
                    return e
                }
                #expect(moved.map(\.station) == Array(6...12) && moved.map(\.id.seq) == Array(1...7))
                #expect(image.directoryExists("/l/quarantine"))
                sawNew = true
            }
            if finished { break }
        }
        #expect(sawOld && sawNew)
    }

    private func deviceID(of ledger: String) throws -> DeviceID {
        let metadata = try LedgerMetadata.decode(Array(try Data(contentsOf: URL(fileURLWithPath: ledger + "/ledger.json"))), path: ledger)
        return metadata.deviceID
    }
}

/// The server the fork and reissue tests sync with: `oritsubushi server serve` in a child
/// process on either store, one user, and `sync` through the built executable.
struct SyncTestServer {
    let store: CommandLineStore
    let process: ServerProcess
    let token: String

    static func start(_ dir: TemporaryDirectory, _ kind: StoreKind) async throws -> SyncTestServer {
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try await store.addUser("alice")
        return SyncTestServer(store: store, process: try await store.serve(), token: token)
    }

    func sync(_ ledger: String, arguments: [String] = [], environment: [String: String] = [:]) async throws -> CLI.Result {
        try await CLI.run(["sync", "--server", process.url, "--ledger", ledger] + arguments,
                          environment: environment.merging(["ORITSUBUSHI_TOKEN": token]) { $1 })
    }

    func stop() { process.terminate() }
}
