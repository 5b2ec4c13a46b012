import Foundation
@testable import LedgerCore
import LedgerTestSupport
import Testing

/// Bit rot: every byte of every file of a ledger (sealed segments with their headers, frames and
/// footers, the newest segment, ledger.json) is changed in turn, by a seeded random non-zero XOR.
/// Each change must be detected (by open, `verify` and `forEachRecord`, with the file and byte
/// offset named) — in the newest segment's last frame too, which lies below its watermark and so is
/// never taken for a torn tail (Schemas/segment-format.md §5b); no read may ever return a wrong
/// event. Flips in ledger.json that leave every decoded value the same (whitespace) are harmless
/// and counted apart. A flipped checkpoint of the newest segment must be noticed, named with its
/// offset, and ignored (opening scans the segment instead). A flip in the watermark's other slot,
/// its padding or its current slot (the older generation then takes over, and the intact frames
/// past it are recorded again) is harmless, and one that leaves no slot readable is refused at
/// open.
@Suite struct CorruptionTests {
    struct Subject: Sendable {
        var fileSystem: CrashableFileSystem
        var files: [String]
        var newestSegment: String
        var events: UInt64
        var metadata: LedgerMetadata
        /// The encoded bytes of every record, by log position: the ground truth reads are held to.
        var records: [[UInt8]]
    }

    /// Five sealed segments and an open newest one of several frames, about 11 KB in all.
    static let subject: Subject = {
        let fileSystem = CrashableFileSystem()
        let ledger = try! Ledger.create(directory: Workload.directory, deviceName: HarnessEvents.deviceName,
                                        fileSystem: fileSystem, clock: Workload.clock, useLock: false)
        var held: UInt64 = 0
        func append(_ count: UInt64) {
            _ = try! ledger.appendLocal((held + 1...held + count).map(HarnessEvents.draft(seq:)))
            held += count
        }
        ledger.rollThreshold = 1_800
        var sizes = SeededGenerator(seed: 42)
        while ledger.segments.filter(\.sealed).count < 5 { append(UInt64.random(in: 1...12, using: &sizes)) }
        ledger.rollThreshold = .max
        for count in [3, 1, 5] as [UInt64] { append(count) }
        let segments = ledger.segments
        precondition(segments.count >= 5 && !segments.last!.sealed, "the subject needs sealed segments and an open one")
        let checkpoint = Path.join(ledger.segmentsPath, ActiveSegmentCheckpoint.fileName(segments.last!.number))
        precondition(fileSystem.fileExists(checkpoint), "the subject needs the newest segment's checkpoint")
        let watermark = SegmentWatermark.path(of: segments.last!.number, segmentsPath: ledger.segmentsPath)
        let files = segments.map(\.path) + [checkpoint, watermark, Path.join(Workload.directory, LedgerMetadata.fileName)]
        var records: [[UInt8]] = []
        try! ledger.forEachRecord { view, _ in records.append(Array(UnsafeRawBufferPointer(start: view.base, count: view.length))) }
        let subject = Subject(fileSystem: fileSystem, files: files, newestSegment: segments.last!.path,
                              events: held, metadata: ledger.metadata, records: records)
        ledger.close()
        return subject
    }()

    /// What one flip led to.
    enum Verdict: Hashable {
        case refusedAtOpen, detectedByReads, checkpointIgnored, harmless
    }

    static func flip(_ file: String, at offset: Int, xor mask: UInt8) throws -> Verdict {
        let s = subject
        let fileSystem = s.fileSystem.clone()
        fileSystem.corrupt(file, at: offset, xor: mask)
        let where_ = "\(Path.lastComponent(file)) byte \(offset) ^ 0x\(String(mask, radix: 16))"
        let isMetadata = file.hasSuffix(LedgerMetadata.fileName)

        func expectNamed(_ error: any Error, _ what: String) throws {
            guard let error = error as? LedgerError else { throw HarnessLedgerCheck.Failure("\(where_): \(what) threw \(error)") }
            guard error.category == .corruption, error.file == file, isMetadata || error.offset != nil else {
                throw HarnessLedgerCheck.Failure("\(where_): \(what) failed without naming the file and offset: \(error) \(error.file ?? "-") \(error.offset.map(String.init) ?? "-")")
            }
        }

        let ledger: Ledger
        do {
            ledger = try Workload.open(fileSystem)
        } catch {
            try expectNamed(error, "open")
            return .refusedAtOpen
        }
        defer { ledger.close() }
        if file.hasSuffix(".summary") {
            guard let note = ledger.ignoredCheckpoint, note.contains(file), note.contains("offset"), ledger.scannedNewestSegment else {
                throw HarnessLedgerCheck.Failure("\(where_): opening did not report and ignore the damaged checkpoint")
            }
            try HarnessLedgerCheck.check(ledger, acknowledged: s.events)
            guard try ledger.verify().ignoredCheckpoint == note else {
                throw HarnessLedgerCheck.Failure("\(where_): verify did not report the damaged checkpoint")
            }
            return .checkpointIgnored
        }
        if let recovery = ledger.recovery {
            throw HarnessLedgerCheck.Failure("\(where_): took a flip for a torn tail: \(recovery)")
        }
        if file.hasSuffix(".durable") {
            try HarnessLedgerCheck.check(ledger, acknowledged: s.events)
            _ = try ledger.verify()
            return .harmless
        }
        if isMetadata && ledger.metadata == s.metadata {
            try HarnessLedgerCheck.check(ledger, acknowledged: s.events)
            return .harmless
        }
        // Reads must fail, and every event they hand out before failing must be right.
        var position: UInt64 = 0
        do {
            try ledger.forEachRecord { view, at in
                // Byte for byte what was written (memcmp: this runs for every record of every flip).
                guard at == position, Int(position) < s.records.count, s.records[Int(position)].count == view.length,
                      s.records[Int(position)].withUnsafeBytes({ memcmp($0.baseAddress!, view.base, view.length) }) == 0
                else { throw HarnessLedgerCheck.Failure("\(where_): a read returned a wrong record at \(position): \(view.record)") }
                position += 1
            }
            throw HarnessLedgerCheck.Failure("\(where_): forEachRecord read all \(position) records without noticing")
        } catch let failure as HarnessLedgerCheck.Failure {
            throw failure
        } catch {
            try expectNamed(error, "forEachRecord")
        }
        do {
            _ = try ledger.verify()
            throw HarnessLedgerCheck.Failure("\(where_): verify passed")
        } catch let failure as HarnessLedgerCheck.Failure {
            throw failure
        } catch {
            try expectNamed(error, "verify")
        }
        return .detectedByReads
    }

    /// One test case per file, so that the files are flipped in parallel.
    @Test(arguments: CorruptionTests.subject.files)
    func flipEveryByte(file: String) throws {
        let s = Self.subject
        let bytes = try s.fileSystem.readFile(file)
        // Seeded by the file's name, so that every run flips the same way.
        var generator = SeededGenerator(seed: Path.lastComponent(file).utf8.reduce(0x6F72_6974) { $0 &* 31 &+ UInt64($1) })
        var verdicts: [Verdict: Int] = [:]
        var failures: [String] = []
        for offset in bytes.indices {
            let mask = UInt8.random(in: 1...255, using: &generator)
            do {
                verdicts[try Self.flip(file, at: offset, xor: mask), default: 0] += 1
            } catch {
                failures.append("\(error)")
            }
        }
        print("flips of \(Path.lastComponent(file)) (\(bytes.count) bytes): \(verdicts)")
        #expect(failures.isEmpty, "\(failures.count) of \(bytes.count) flips:\n\(failures.prefix(10).joined(separator: "\n"))")
        if file != s.files.last! && !file.hasSuffix(".durable") {
            #expect(verdicts[.harmless] == nil, "only ledger.json and the watermark may have harmless flips")
        }
    }
}
