import LedgerCore
import LedgerSync
import LedgerTestSupport
import SyncServer
import Testing

/// Power loss at every file operation of the files store's own writes (Schemas/server-store.md,
/// "Files store"): users.json replaced by `server add-user` and `add-token`, a first push that
/// creates the user's ledger and claims her device, a second push, the activity file, and
/// `server delete-user` of a user with a ledger. Every one goes through the `FileSystem` seam, so the crashable file
/// system sees them all. After each crash the store must reopen with every acknowledged user,
/// token and event, users.json whole, and a delete-user run again must leave nothing of the user.
@Suite struct FilesStoreCrashTests {
    static let data = "/data"
    static let now: Int64 = 1_700_000_000_000
    static let device = DeviceID(rawValue: 0xa1)
    static let bobDevice = DeviceID(rawValue: 0xb1)
    static let clock = FixedClock(milliseconds: now)

    /// What the session had acknowledged when it stopped.
    struct Progress {
        var users: Set<String> = []
        var aliceTokens = 0
        var pushed: UInt64 = 0
        /// Once delete-user has begun, bob may be gone before it is acknowledged.
        var bobDeleting = false
        var bobDeleted = false
        var stoppedBy: String?
    }

    static func edit(_ seq: UInt64, device: DeviceID = device) -> WireRecord {
        WireRecord(.stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: HybridTimestamp(milliseconds: now - 60_000 + Int64(seq)),
                                            station: 100 + UInt32(seq), compDate: .year(2020), memo: nil, origin: .user)))
    }

    static func store(_ fileSystem: any FileSystem) throws -> FilesStore {
        var tuning = FilesStore.Tuning()
        tuning.ioThreads = 1
        return try FilesStore(dataDirectory: data, clock: clock, tuning: tuning, fileSystem: fileSystem)
    }

    /// The session, stopping at the first failure (the armed crash).
    static func run(on fileSystem: CrashableFileSystem) async -> Progress {
        var progress = Progress()
        let admin = FilesStoreAdministration(dataDirectory: data, clock: clock, fileSystem: fileSystem)
        do {
            try await admin.addUser("alice", tokenHash: TokenHash.hex("alice-1"), now: now)
            progress.users.insert("alice")
            progress.aliceTokens = 1
            try await admin.addUser("bob", tokenHash: TokenHash.hex("bob-1"), now: now)
            progress.users.insert("bob")
            try await admin.addToken(user: "alice", tokenHash: TokenHash.hex("alice-2"), now: now)
            progress.aliceTokens = 2
            let store = try store(fileSystem)
            do {
                _ = try await store.push(user: "alice", request: PushRequest(records: (1...3).map { edit($0) }))
                progress.pushed = 3
                _ = try await store.push(user: "alice", request: PushRequest(records: (4...5).map { edit($0) }))
                progress.pushed = 5
                _ = try await store.push(user: "bob", request: PushRequest(records: [edit(1, device: bobDevice)]))
            } catch {
                await store.close()
                throw error
            }
            await store.close()
            progress.bobDeleting = true
            try await admin.deleteUser("bob")
            progress.bobDeleted = true
        } catch {
            progress.stoppedBy = "\(error)"
        }
        return progress
    }

    /// Checks the image against what was acknowledged; returns what is wrong.
    static func check(_ image: CrashableFileSystem, _ progress: Progress) async throws -> [String] {
        var wrong: [String] = []
        let admin = FilesStoreAdministration(dataDirectory: data, clock: clock, fileSystem: image)
        // users.json is never half-written: it reads, or it is absent (nothing acknowledged yet).
        let users = try UserStore(dataDirectory: data, fileSystem: image).users()
        let names = Set(users.map(\.name))
        for name in progress.users where !(name == "bob" && progress.bobDeleting) && !names.contains(name) {
            wrong.append("acknowledged user \(name) is gone")
        }
        let aliceTokens = users.first { $0.name == "alice" }?.tokens.count ?? 0
        if aliceTokens < progress.aliceTokens { wrong.append("alice has \(aliceTokens) tokens, \(progress.aliceTokens) acknowledged") }
        if progress.bobDeleted, names.contains("bob") { wrong.append("bob's acknowledged deletion is undone") }
        if progress.pushed > 0 {
            let claim = try? image.readFile(Path.join(Path.join(data, "devices"), device.description))
            if claim != Array("alice".utf8) { wrong.append("alice's device claim reads \(claim.map { String(decoding: $0, as: UTF8.self) } ?? "nothing")") }
        }
        // The store reopens (recovering a torn tail) and serves alice every acknowledged event.
        if progress.users.contains("alice") {
            let store = try store(image)
            let status: StoreStatus
            do { status = try await store.status(user: "alice") } catch {
                await store.close()
                return wrong + ["alice's status: \(error)"]
            }
            await store.close()
            let held = status.serverHas[device.description] ?? 0
            if held < progress.pushed { wrong.append("alice's ledger holds \(held) events, \(progress.pushed) acknowledged") }
        }
        // A delete-user interrupted midway finishes when run again, leaving nothing of bob.
        if progress.users.contains("bob") {
            try? await admin.deleteUser("bob")
            let left = image.snapshot(under: data).keys.filter { $0.contains("/bob") }
            if try UserStore(dataDirectory: data, fileSystem: image).users().contains(where: { $0.name == "bob" }) || !left.isEmpty {
                wrong.append("delete-user run again leaves bob: \(left.sorted())")
            }
        }
        return wrong
    }

    @Test func theSessionReachesEveryKindOfWrite() async throws {
        let fileSystem = CrashableFileSystem()
        let progress = await Self.run(on: fileSystem)
        #expect(progress.stoppedBy == nil)
        #expect(progress.pushed == 5 && progress.bobDeleted)
        let kinds = Set(fileSystem.operationLog.map { String($0.split(separator: " ")[0]) })
        #expect(kinds.isSuperset(of: ["createDirectory", "createFile", "write", "sync", "syncDirectory", "rename", "link",
                                      "remove", "removeDirectory"]), "\(kinds.sorted())")
        #expect(fileSystem.operationLog.contains("rename /data/users.json.tmp"), "users.json is written through the seam")
        #expect(try await Self.check(fileSystem.image(), progress).isEmpty)
    }

    @Test(arguments: [CrashOptions.powerLoss, .powerLossKeepingData, .processKill])
    func crashAtEveryOperation(model: CrashOptions) async throws {
        let clean = CrashableFileSystem()
        _ = await Self.run(on: clean)
        let points = clean.operationCount
        var failures: [String] = []
        for point in 0...points {
            let fileSystem = CrashableFileSystem()
            fileSystem.crash(afterOperations: point)
            let progress = await Self.run(on: fileSystem)
            do {
                let wrong = try await Self.check(fileSystem.image(model), progress)
                if !wrong.isEmpty { failures.append("crash after operation \(point) (\(fileSystem.operationLog.last ?? "none")): \(wrong)") }
            } catch {
                failures.append("crash after operation \(point) (\(fileSystem.operationLog.last ?? "none")): \(error)")
            }
        }
        print("files store (\(model)): \(points + 1) crash points, failures \(failures.count)")
        #expect(points > 40, "the session must reach the store's writes")
        #expect(failures.isEmpty, "\(failures.count) of \(points + 1) crash points failed:\n\(failures.prefix(8).joined(separator: "\n"))")
    }
}
