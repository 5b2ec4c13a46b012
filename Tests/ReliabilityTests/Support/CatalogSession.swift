import Foundation
import LedgerCatalog
import LedgerCore
import LedgerTestSupport

/// Scripted sessions that save the completions projection and import catalogues on a
/// `CrashableFileSystem`, recording what had been acknowledged when they stopped: the states a
/// crash may leave behind are the last acknowledged one and the one being written.
enum CatalogSession {
    static let directory = "/ledger"
    static let clock = FixedClock(milliseconds: 1_790_000_000_000)
    static let sampleVersion: UInt32 = 176
    /// A station of the sample (多気), completed before the imports.
    static let source: UInt32 = 201_117
    /// A station the second dump adds, carried over from `source`. Both ids are low, so that the
    /// projection's dense slot table stays small in debug builds (each crash point loads it often).
    static let newStation: UInt32 = 200_001

    /// The second catalogue: one new station on the Sangu line, and its carry-over.
    static let secondDump = """
        INSERT OR IGNORE INTO "stations" VALUES(200001,'新多気駅','しんたき','',24,'多気郡',34515878,136573095,10103,1,1);
        INSERT OR IGNORE INTO "stations_lines" VALUES(13007,200001,18460);
        INSERT OR IGNORE INTO completions SELECT 200001, comp_date, update_date, memo FROM completions WHERE s_id = 201117 AND comp_date > 0;
        """

    static let catalogues: [(file: String, version: UInt32, statements: [DumpStatement])] = {
        let sample = SharedData.sample
        let bytes = Array(try! Data(contentsOf: URL(fileURLWithPath: sample)))
        return [(sample, sampleVersion, try! SQLDumpSplitter.split(bytes, file: sample)),
                ("stations-177.sql", 177, try! SQLDumpSplitter.split(Array(secondDump.utf8), file: "stations-177.sql"))]
    }()

    /// The completion that the second catalogue carries over.
    static let completion = StationEditDraft(station: source, compDate: .day(2013, 9, 1))

    struct Progress {
        var created = false
        /// Whether the completion that the second catalogue carries over was acknowledged.
        var completed = false
        /// Log positions of the projection saves that returned, and of the one in progress.
        var savedPositions: [UInt64] = []
        var savingPosition: UInt64?
        /// Catalogue versions whose import returned, and the one in progress.
        var importedVersions: [UInt32] = []
        var importingVersion: UInt32?
    }

    private static func create(_ fileSystem: CrashableFileSystem, _ progress: inout Progress) throws -> Ledger {
        let ledger = try Ledger.create(directory: directory, deviceName: HarnessEvents.deviceName,
                                       fileSystem: fileSystem, clock: clock, useLock: false)
        progress.created = true
        return ledger
    }

    /// The ledger a crash image holds, or `nil` when `init` had not returned (there is nothing
    /// to check then); a ledger that vanished after `init` returned is a failure.
    static func reopen(_ image: CrashableFileSystem, _ progress: Progress) throws -> Ledger? {
        guard image.fileExists(Path.join(directory, LedgerMetadata.fileName)) else {
            guard !progress.created else { throw HarnessLedgerCheck.Failure("ledger.json vanished after init returned") }
            return nil
        }
        return try Ledger.open(directory: directory, fileSystem: image, clock: clock, useLock: false)
    }

    /// `init`, then edits, each followed by a save: the first creates `projection.sqlite`, the
    /// next ones replace it, the last is a rebuild.
    static func saveProjection(on fileSystem: CrashableFileSystem) -> Progress {
        var progress = Progress()
        do {
            let ledger = try create(fileSystem, &progress)
            defer { ledger.close() }
            for (step, count) in [3, 2, 4].enumerated() {
                try ledger.appendLocal((0..<count).map {
                    StationEditDraft(station: UInt32(10 + $0 + step), compDate: .day(2010 + step, 1 + $0, 1), memo: "m\(step)")
                })
                progress.savingPosition = ledger.recordCount
                if step == 2 { try ProjectionStore.rebuild(ledger) } else { try ProjectionStore.update(ledger) }
                progress.savedPositions.append(ledger.recordCount)
                progress.savingPosition = nil
            }
        } catch {}
        return progress
    }

    /// `init`, a completion of `source`, then the sample catalogue and the second one (which
    /// carries it over to `newStation`).
    static func importCatalogues(on fileSystem: CrashableFileSystem) -> Progress {
        var progress = Progress()
        do {
            let ledger = try create(fileSystem, &progress)
            defer { ledger.close() }
            try ledger.appendLocal([completion])
            progress.completed = true
            try ProjectionStore.update(ledger)
            for catalogue in catalogues {
                progress.importingVersion = catalogue.version
                try importCatalogue(catalogue, into: ledger)
                progress.importedVersions.append(catalogue.version)
                progress.importingVersion = nil
            }
        } catch {}
        return progress
    }

    static func importCatalogue(_ catalogue: (file: String, version: UInt32, statements: [DumpStatement]),
                                into ledger: Ledger) throws {
        var projection = try ProjectionStore.load(ledger)
        _ = try CatalogImporter.apply(catalogue.statements, file: catalogue.file, version: catalogue.version,
                                      to: ledger, projection: &projection)
    }

    /// Runs `session` once per crash point (every mutating file operation of a complete run, and
    /// none), takes the image `model` leaves, and has `check` judge it. Returns the number of
    /// crash points and a line per failed one.
    static func crashAtEveryPoint(_ session: (CrashableFileSystem) -> Progress, model: CrashOptions,
                                  check: (CrashableFileSystem, Progress) throws -> Void) -> (points: Int, failures: [String]) {
        let points = operations(session).total
        var failures: [String] = []
        for point in 0...points {
            let fileSystem = CrashableFileSystem()
            fileSystem.crash(afterOperations: point)
            let progress = session(fileSystem)
            do {
                try check(fileSystem.image(crashOptions(model, at: point)), progress)
            } catch {
                failures.append("crash after operation \(point) (\(fileSystem.operationLog.last ?? "none")): \(error)")
            }
        }
        return (points + 1, failures)
    }

    /// `model`, with a random-prefix seed mixed with the crash point.
    static func crashOptions(_ model: CrashOptions, at point: Int) -> CrashOptions {
        guard case .keepRandomPrefix(let seed) = model.unsyncedData else { return model }
        return .powerLoss(keepingRandomPrefix: seed &* 1_000_003 &+ UInt64(point))
    }

    /// The number of mutating file operations of a complete session: its crash points.
    static func operations(_ session: (CrashableFileSystem) -> Progress) -> (total: Int, log: [String]) {
        let fileSystem = CrashableFileSystem()
        _ = session(fileSystem)
        return (fileSystem.operationCount, fileSystem.operationLog)
    }
}
