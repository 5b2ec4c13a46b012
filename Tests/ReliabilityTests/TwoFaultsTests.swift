import LedgerCore
import LedgerSync
import LedgerTestSupport
import Testing

/// Never two faults taken for a tear (Schemas/segment-format.md §5b, "What is damage"). In a
/// ledger whose `ledger.json` records `watermarked_from` (§6), the newest segment cut at any
/// length — into acknowledged frames too — together with a lost, short, one-byte-flipped or stale
/// watermark is damage naming the watermark file: opening refuses and cuts nothing (no `.torn`
/// file, nothing truncated, every file as it was), and the repair scan (`server verify`'s)
/// reports the same file. A ledger without the field opens exactly as before.
@Suite struct TwoFaultsTests {
    /// A watermark fault, applied to a copy of the subject.
    enum Fault: CustomStringConvertible {
        case lost
        case short(Int)
        case flipped(Int)
        /// The watermark file as it was after the subject's `batch`-th append of the newest segment.
        case stale(batch: Int)

        var description: String {
            switch self {
            case .lost: return "lost watermark"
            case .short(let size): return "watermark cut to \(size) bytes"
            case .flipped(let offset): return "watermark byte \(offset) flipped"
            case .stale(let batch): return "watermark as after append \(batch)"
            }
        }
    }

    /// An open newest segment of four appends, with the watermark file after each append kept
    /// (for the stale faults).
    struct Subject {
        let fileSystem: CrashableFileSystem
        let path: String
        let watermark: String
        let boundaries: [(offset: Int, events: UInt64)]
        let watermarks: [[UInt8]]
    }

    static func subject(sealNewest: Bool = false) throws -> Subject {
        let newest = try NewestSegmentLedger(batches: [1, 3, 2, 4], sealNewest: sealNewest)
        let watermark = SegmentWatermark.path(of: 2, segmentsPath: Path.parent(of: newest.path))
        // Replay the same appends to keep the watermark file after each.
        var watermarks: [[UInt8]] = []
        for batches in [[1], [1, 3], [1, 3, 2]] as [[UInt64]] {
            let earlier = try NewestSegmentLedger(batches: batches)
            watermarks.append(try earlier.fileSystem.readFile(watermark))
        }
        return Subject(fileSystem: newest.fileSystem, path: newest.path, watermark: watermark, boundaries: newest.boundaries,
                       watermarks: watermarks)
    }

    static func apply(_ fault: Fault, to fileSystem: CrashableFileSystem, _ s: Subject) throws {
        switch fault {
        case .lost: try fileSystem.removeFile(s.watermark)
        case .short(let size): try fileSystem.truncateFile(s.watermark, to: size)
        case .flipped(let offset): fileSystem.corrupt(s.watermark, at: offset, xor: 0x10)
        case .stale(let batch): fileSystem.setContents(s.watermark, s.watermarks[batch - 1])
        }
    }

    /// Opening and the repair scan must both name the watermark file, and change nothing.
    static func expectDamage(_ fileSystem: CrashableFileSystem, _ s: Subject, _ what: String) -> String? {
        let before = fileSystem.snapshot()
        do {
            let ledger = try Workload.open(fileSystem)
            ledger.close()
            return "\(what): opened (recovery: \(ledger.recovery.map { "\($0)" } ?? "none"))"
        } catch let error as LedgerError {
            guard error.category == .corruption, error.file == s.watermark else { return "\(what): \(error)" }
        } catch {
            return "\(what): \(error)"
        }
        guard fileSystem.snapshot() == before else { return "\(what): the refused open changed files" }
        do {
            let scan = try LedgerRepair.begin(directory: Workload.directory, fileSystem: fileSystem, clock: Workload.clock,
                                              useLock: false)
            defer { scan.close() }
            guard scan.damage?.file == s.watermark else { return "\(what): the scan found \(scan.damage.map { "\($0)" } ?? "nothing")" }
        } catch {
            return "\(what): the scan failed: \(error)"
        }
        return fileSystem.snapshot() == before ? nil : "\(what): the scan changed files"
    }

    /// Every cut of the newest segment (none, one byte, into every acknowledged frame, into the
    /// header, all of it) with each fault.
    @Test func everyCutWithALostShortFlippedOrStaleWatermarkIsDamage() throws {
        let s = try Self.subject()
        let size = try s.fileSystem.fileSize(s.path)
        let faults: [Fault] = [.lost, .short(0), .short(44), .short(512), .short(1023), .flipped(0), .flipped(27), .flipped(43),
                               .flipped(512 + 30), .flipped(300), .stale(batch: 1), .stale(batch: 2), .stale(batch: 3)]
        var failures: [String] = []
        var cases = 0
        for fault in faults {
            for cut in 0...size {
                let fileSystem = s.fileSystem.clone()
                try fileSystem.truncateFile(s.path, to: size - cut)
                try Self.apply(fault, to: fileSystem, s)
                cases += 1
                if let failure = Self.expectDamage(fileSystem, s, "\(fault), \(cut) bytes cut") { failures.append(failure) }
            }
        }
        print("two faults: \(cases) cuts with a watermark fault, failures \(failures.count)")
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(8).joined(separator: "\n"))")
    }

    /// Every one-byte flip of the watermark file, with 30 bytes cut off the segment (into its
    /// last, acknowledged frame) and with nothing cut.
    @Test func everyFlipOfTheWatermarkIsDamage() throws {
        let s = try Self.subject()
        let size = try s.fileSystem.fileSize(s.path)
        var failures: [String] = []
        for offset in 0..<SegmentWatermark.fileSize {
            for cut in [0, 30] {
                let fileSystem = s.fileSystem.clone()
                try fileSystem.truncateFile(s.path, to: size - cut)
                try Self.apply(.flipped(offset), to: fileSystem, s)
                if let failure = Self.expectDamage(fileSystem, s, "flip at \(offset), \(cut) bytes cut") { failures.append(failure) }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(8).joined(separator: "\n"))")
    }

    /// A sealed newest segment has no checkpoint (sealing removes it): a lost, short or flipped
    /// watermark is still damage at every cut. (A stale but sound watermark file is not
    /// detectable there; Schemas/segment-format.md §5b says so.)
    @Test func aSealedNewestSegmentToo() throws {
        let s = try Self.subject(sealNewest: true)
        let size = try s.fileSystem.fileSize(s.path)
        var failures: [String] = []
        for fault in [Fault.lost, .short(0), .short(1000), .flipped(5), .flipped(530)] {
            for cut in 0...size {
                let fileSystem = s.fileSystem.clone()
                try fileSystem.truncateFile(s.path, to: size - cut)
                try Self.apply(fault, to: fileSystem, s)
                if let failure = Self.expectDamage(fileSystem, s, "sealed, \(fault), \(cut) bytes cut") { failures.append(failure) }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(8).joined(separator: "\n"))")
    }

    /// A ledger written before `watermarked_from`: a lost watermark still means "judge by the
    /// frames" (a cut past the last frame boundary is a tear, as before), and the writer records
    /// the field, by an atomic rewrite of ledger.json, when it creates its next segment.
    @Test func anOldLedgerOpensAsBeforeAndRecordsTheFieldAtItsNextSegment() throws {
        let s = try Self.subject()
        let size = try s.fileSystem.fileSize(s.path)
        try WatermarkRewind.makeUnwatermarked(s.path, fileSystem: s.fileSystem)
        try s.fileSystem.truncateFile(s.path, to: size - 30)
        let ledger = try Workload.open(s.fileSystem)
        #expect(ledger.recovery?.offset == s.boundaries[s.boundaries.count - 2].offset)
        #expect(ledger.metadata.watermarkedFrom == nil)
        try ledger.sealActiveSegment()
        _ = try ledger.appendLocal([HarnessEvents.draft(seq: s.boundaries[s.boundaries.count - 2].events + 1)])
        #expect(ledger.metadata.watermarkedFrom == 3)
        ledger.close()
        let path = Path.join(Workload.directory, LedgerMetadata.fileName)
        #expect(try LedgerMetadata.decode(s.fileSystem.readFile(path), path: path).watermarkedFrom == 3)
    }

    /// The upgrade under power loss at every file operation: a crash while ledger.json gains the
    /// field or while the first watermarked segment is created never reads as damage, and no
    /// acknowledged event is lost.
    @Test func theUpgradeSurvivesACrashAtEveryOperation() throws {
        let base = try NewestSegmentLedger(batches: [2, 3]).fileSystem
        try WatermarkRewind.makeUnwatermarked(Path.join(Workload.directory, "segments/00000002.seg"), fileSystem: base)
        func run(_ fileSystem: CrashableFileSystem) -> UInt64 {
            var acknowledged: UInt64 = 9
            guard let ledger = try? Workload.open(fileSystem) else { return acknowledged }
            defer { ledger.close() }
            guard (try? ledger.sealActiveSegment()) != nil else { return acknowledged }
            for batch in [1, 2, 1] as [UInt64] {
                let drafts = (acknowledged + 1...acknowledged + batch).map(HarnessEvents.draft(seq:))
                guard (try? ledger.appendLocal(drafts)) != nil else { return acknowledged }
                acknowledged += batch
            }
            return acknowledged
        }
        let total = { let fs = base.clone(); _ = run(fs); return fs.operationCount }()
        var failures: [String] = []
        for point in 0..<total {
            for options in [CrashOptions.powerLoss, .processKill, .powerLoss(keepingRandomPrefix: UInt64(point))] {
                let fileSystem = base.clone()
                fileSystem.crash(afterOperations: point)
                let acknowledged = run(fileSystem)
                do {
                    let reopened = try Workload.open(fileSystem.image(options))
                    defer { reopened.close() }
                    let held = try HarnessLedgerCheck.check(reopened, acknowledged: acknowledged)
                    if held < acknowledged { failures.append("crash at \(point) (\(options)): \(held) < \(acknowledged)") }
                } catch {
                    failures.append("crash at \(point) (\(options)): \(error)")
                }
            }
        }
        print("upgrade crashes: \(total) points, failures \(failures.count)")
        #expect(failures.isEmpty, "\(failures.count) failures:\n\(failures.prefix(8).joined(separator: "\n"))")
    }
}
