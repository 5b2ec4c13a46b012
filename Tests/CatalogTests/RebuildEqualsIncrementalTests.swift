import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// The projection kept incrementally (saved after random steps, loaded eagerly or lazily) equals
/// a full rebuild and the core's one-station fold, over seeded schedules that mix user edits,
/// import-origin edits (past hlcs), events and knowledge marks replicated from two other devices,
/// and catalogue versions with carry-overs. CI runs `ciSchedules` schedules (most on the in-memory
/// file system, some on disk, where the incremental save writes in place);
/// `ORITSUBUSHI_LONG_TESTS=1` runs `longSchedules`.
@Suite struct RebuildEqualsIncrementalTests {
    static let long = ProcessInfo.processInfo.environment["ORITSUBUSHI_LONG_TESTS"] == "1"
    static let ciSchedules = 400
    static let longSchedules = 10_000
    static let batches = 8
    /// One schedule in this many runs on disk.
    static let onDiskEvery = 10

    static var schedules: Int { long ? longSchedules : ciSchedules }

    @Test(arguments: 0..<batches)
    func incrementalEqualsRebuild(batch: Int) throws {
        var failures: [String] = []
        var kinds = ProjectionSchedule.Kinds()
        for index in stride(from: batch, to: Self.schedules, by: Self.batches) {
            let seed = UInt64(index) &* 0x9E37_79B9 &+ 1
            do {
                kinds.add(try Self.check(seed: seed, onDisk: index % Self.onDiskEvery == 0))
            } catch {
                failures.append("seed \(seed): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) schedules failed:\n\(failures.prefix(5).joined(separator: "\n"))")
        // Every kind of step must have been exercised, or the property says less than its name.
        #expect(kinds.all.allSatisfy { $0 > 0 }, "\(kinds)")
    }

    /// The rebuild that makes the new file's empty image on a second thread (`SideBySide`) writes
    /// the same file as the one-thread rebuild. Both paths are forced, so that a one-CPU runner
    /// compares them too.
    @Test(arguments: 1...24 as ClosedRange<UInt64>)
    func sideBySideRebuildWritesTheSameFile(seed: UInt64) throws {
        let fileSystem = CrashableFileSystem()
        let ledger = try Ledger.create(directory: "/l", deviceName: "test", fileSystem: fileSystem,
                                       clock: FixedClock(milliseconds: 1_790_000_000_000), useLock: false)
        defer { ledger.close() }
        var schedule = ProjectionSchedule(seed: seed)
        try schedule.run(on: ledger)
        var rebuilt: [SideBySide.Mode: (rows: [(station: UInt32, row: ProjectedStation)], file: [UInt8])] = [:]
        for mode in [SideBySide.Mode.never, .always] {
            let projection = try SideBySide.$forced.withValue(mode) { try ProjectionStore.rebuild(ledger) }
            rebuilt[mode] = (projection.sortedRows(), try fileSystem.readFile(ProjectionStore.path(ledger)))
        }
        let alone = try #require(rebuilt[.never]), together = try #require(rebuilt[.always])
        #expect(together.rows.map(\.station) == alone.rows.map(\.station) && together.rows.map(\.row) == alone.rows.map(\.row),
                "seed \(seed)")
        #expect(together.file == alone.file, "seed \(seed): the projection files differ")
    }

    static func check(seed: UInt64, onDisk: Bool) throws -> ProjectionSchedule.Kinds {
        let dir = onDisk ? try TemporaryDirectory() : nil
        defer { dir?.remove() }
        let fileSystem: any FileSystem = onDisk ? PosixFileSystem() : CrashableFileSystem()
        let ledger = try Ledger.create(directory: dir?.sub("l") ?? "/l", deviceName: "test", fileSystem: fileSystem,
                                       clock: FixedClock(milliseconds: 1_790_000_000_000), useLock: false)
        defer { ledger.close() }
        var schedule = ProjectionSchedule(seed: seed)
        try schedule.run(on: ledger)

        try ProjectionStore.update(ledger)
        let incremental = try ProjectionStore.load(ledger)
        let diskRows = onDisk ? try ProjectionTests.dump(ledger) : []
        try ProjectionStore.rebuild(ledger)
        let rebuilt = try ProjectionStore.load(ledger)
        guard incremental.discardedBecause == nil, incremental.storedPosition == ledger.recordCount else {
            throw Failure("the incremental file is not current: \(incremental.discardedBecause ?? "position \(String(describing: incremental.storedPosition))")")
        }
        guard incremental.sortedRows().map(\.station) == rebuilt.sortedRows().map(\.station),
              incremental.sortedRows().map(\.row) == rebuilt.sortedRows().map(\.row) else {
            throw Failure("incremental rows differ from the rebuild")
        }
        guard incremental.versionVector == rebuilt.versionVector, incremental.catalogVersions == rebuilt.catalogVersions else {
            throw Failure("the checkpoints differ")
        }
        if onDisk, try ProjectionTests.dump(ledger) != diskRows {
            throw Failure("the files' rows differ")
        }
        for (station, row) in rebuilt.sortedRows() {
            let reference = try ledger.foldStation(station).state
            guard row.compDate == reference.compDate.code, row.memo == reference.memo, row.updateDate == reference.updateDate else {
                throw Failure("station \(station) differs from the core's fold")
            }
        }
        return schedule.kinds
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// A seeded schedule of steps against one ledger, saving the projection now and then.
struct ProjectionSchedule {
    struct Kinds: CustomStringConvertible {
        var user = 0, imported = 0, replicated = 0, knowledge = 0, carryOver = 0, lazySave = 0, save = 0
        var all: [Int] { [user, imported, replicated, knowledge, carryOver, lazySave, save] }
        mutating func add(_ other: Kinds) {
            user += other.user; imported += other.imported; replicated += other.replicated
            knowledge += other.knowledge; carryOver += other.carryOver; lazySave += other.lazySave; save += other.save
        }
        var description: String {
            "user \(user), import \(imported), replicated \(replicated), knowledge marks \(knowledge), carry-overs \(carryOver), lazy saves \(lazySave), saves \(save)"
        }
    }

    static let stations: UInt32 = 24
    static let remotes = [DeviceID(rawValue: 0x1111_0000_0000_0001), DeviceID(rawValue: 0xF000_0000_0000_0002)]

    var rng: SeededGenerator
    var kinds = Kinds()
    private var remoteSeqs: [DeviceID: UInt64] = [:]
    private var catalogVersion: UInt32 = 100

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    private mutating func random(_ n: UInt64) -> UInt64 { rng.next() % n }
    private mutating func station() -> UInt32 { 1 + UInt32(random(UInt64(Self.stations))) }

    private mutating func draft(origin: EventOrigin = .user, hlc: HybridTimestamp? = nil) -> StationEditDraft {
        let station = station()
        switch random(4) {
        case 0: return StationEditDraft(station: station, memo: "m\(random(4))", origin: origin, hlc: hlc)
        case 1: return StationEditDraft(station: station, compDate: .notCompleted, origin: origin, hlc: hlc)
        default:
            return StationEditDraft(station: station, compDate: .day(2000 + Int(random(20)), 1 + Int(random(12)), 1),
                                    memo: random(2) == 0 ? nil : "both", origin: origin, hlc: hlc)
        }
    }

    /// A time near the ledger's clock: replicas and imports bring past (and slightly future) hlcs.
    private mutating func nearbyHLC() -> HybridTimestamp {
        HybridTimestamp(milliseconds: 1_790_000_000_000 - Int64(random(86_400_000)) + 1000, counter: UInt16(random(3)))
    }

    mutating func run(on ledger: Ledger) throws {
        for _ in 0..<(6 + random(10)) {
            switch random(9) {
            case 0, 1, 2:
                kinds.user += 1
                try ledger.appendLocal((0..<(1 + random(5))).map { _ in draft() })
            case 3:
                kinds.imported += 1
                try ledger.appendLocal((0..<(1 + random(4))).map { _ in draft(origin: .import, hlc: nearbyHLC()) })
            case 4:
                kinds.replicated += 1
                try ledger.append((0..<(1 + random(4))).map { _ in replicatedEdit() })
            case 5:
                kinds.knowledge += 1
                let remote = Self.remotes[Int(random(2))]
                let mark = KnowledgeMark(id: nextID(remote), hlc: nearbyHLC(),
                                         knowledge: [ledger.localDevice: ledger.versionVector[ledger.localDevice] ?? 0])
                try ledger.append([.knowledgeMark(mark)])
            case 6:
                kinds.carryOver += 1
                try carryOver(ledger)
            case 7:
                kinds.lazySave += 1
                var projection = try ProjectionStore.load(ledger, lazy: true)
                let edit = draft()
                _ = try projection.lookup(edit.station)
                try ledger.appendLocal([edit])
                try projection.catchUp(ledger)
                try ProjectionStore.save(&projection, ledger: ledger)
            default:
                kinds.save += 1
                try ProjectionStore.update(ledger)
            }
            if random(3) == 0 { try ProjectionStore.update(ledger) }
        }
    }

    private mutating func nextID(_ device: DeviceID) -> EventID {
        let seq = (remoteSeqs[device] ?? 0) + 1
        remoteSeqs[device] = seq
        return EventID(device: device, seq: seq)
    }

    private mutating func replicatedEdit() -> LedgerRecord {
        let remote = Self.remotes[Int(random(2))]
        let d = draft()
        return .stationEdit(StationEdit(id: nextID(remote), hlc: nearbyHLC(), station: d.station, compDate: d.compDate,
                                        memo: d.memo, origin: random(4) == 0 ? .catalog : .user))
    }

    /// What `catalog import` appends for a dump with one carry-over (CatalogImporter.apply,
    /// without the SQL): the version record, then the planned carry-over events.
    private mutating func carryOver(_ ledger: Ledger) throws {
        catalogVersion += 1 + UInt32(random(2))
        let source = station()
        var target = station()
        if target == source { target = source % Self.stations + 1 }
        let projection = try ProjectionStore.load(ledger)
        let recordsVersion = !projection.catalogVersions.contains(catalogVersion)
        let carry = CarryOver(target: target, source: source, sourceInFile: source, replaces: random(2) == 0)
        let drafts = CarryOverPlanner.drafts(for: [carry], projection: projection, device: ledger.localDevice,
                                             nextSeq: (ledger.versionVector[ledger.localDevice] ?? 0) + (recordsVersion ? 2 : 1))
        if recordsVersion { try ledger.appendCatalogVersion(catalogVersion) }
        if !drafts.isEmpty { try ledger.appendLocal(drafts) }
    }
}
