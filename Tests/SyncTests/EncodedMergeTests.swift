import Foundation
import LedgerCore
import LedgerSync
import LedgerTestSupport
import Testing

/// The local merge keeps the other ledger's new events as encoded bytes and appends them as
/// they are (`Ledger.append(encoded:)`); its `observe` hook lets the CLI fold the
/// projection from the records it reads and appends.
@Suite("Local merge of encoded records")
struct EncodedMergeTests {
    /// Two ledgers with shared and own events on overlapping stations, and names.
    static func pair(_ dir: TemporaryDirectory, seed: UInt64) throws -> (Ledger, Ledger) {
        var rng = SeededGenerator(seed: seed)
        let a = try Ledger.create(directory: dir.sub("a"), deviceName: "a", clock: DeviceClock())
        let b = try Ledger.create(directory: dir.sub("b"), deviceName: "b", clock: DeviceClock(skew: 60_000))
        func edits(_ ledger: Ledger, _ count: Int) throws {
            for _ in 0..<count {
                let date: CompletionDate? = Bool.random(using: &rng) ? .year(Int.random(in: 2000...2003, using: &rng)) : nil
                _ = try ledger.edit(UInt32.random(in: 1...6, using: &rng), date: date,
                                    memo: date == nil || Bool.random(using: &rng) ? ["x", "駅", "caf\u{E9}"].randomElement(using: &rng)! : nil)
            }
        }
        try edits(a, Int.random(in: 1...20, using: &rng))
        try LedgerMerger.merge(from: a, into: b, options: mergeOptions())
        try edits(a, Int.random(in: 0...20, using: &rng))
        try edits(b, Int.random(in: 0...20, using: &rng))
        return (a, b)
    }

    /// A byte-for-byte copy of `b` (of `pair`), opened in `copy`.
    static func twin(of b: Ledger, in copy: TemporaryDirectory) throws -> Ledger {
        try FileManager.default.copyItem(atPath: b.directory, toPath: copy.sub("b"))
        try? FileManager.default.removeItem(atPath: copy.sub("b") + "/LOCK")
        return try Ledger.open(directory: copy.sub("b"), clock: DeviceClock(skew: 60_000))
    }

    @Test("observe sees exactly the merged ledger's records; the merge is the same without it", arguments: 1...20)
    func observeSeesEveryRecord(seed: UInt64) throws {
        let dir = try TemporaryDirectory("encoded-merge")
        defer { dir.remove() }
        let (a, b) = try Self.pair(dir, seed: seed)
        defer { a.close(); b.close() }
        let copy = try TemporaryDirectory("encoded-merge-copy")
        defer { copy.remove() }
        // Merged without observing.
        let twin = try Self.twin(of: b, in: copy)
        defer { twin.close() }

        var seen: [UInt64] = []
        let report = try LedgerMerger.merge(from: a, into: b, options: mergeOptions(),
                                            observe: { seen.append(RecordFingerprint.of($0)) })
        let plain = try LedgerMerger.merge(from: a, into: twin, options: mergeOptions())
        var all: [UInt64] = []
        try b.forEachRecord { view, _ in all.append(RecordFingerprint.of(view)) }
        #expect(seen.sorted() == all.sorted(), "seed \(seed)")
        #expect(report.eventsIn == plain.eventsIn && report.batches == plain.batches && report.marksWritten == plain.marksWritten)
        #expect(report.newConflicts == plain.newConflicts)
        #expect(try b.eventSet().keys.sorted(by: { ($0.device, $0.seq) < ($1.device, $1.seq) })
                == twin.eventSet().keys.sorted(by: { ($0.device, $0.seq) < ($1.device, $1.seq) }))
    }

    @Test("reading both logs at once and finding conflicts while appending: the same merge", arguments: 1...30)
    func sideBySideEqualsSequential(seed: UInt64) throws {
        let dir = try TemporaryDirectory("side-by-side")
        defer { dir.remove() }
        let (a, b) = try Self.pair(dir, seed: seed)
        defer { a.close(); b.close() }
        let copy = try TemporaryDirectory("side-by-side-copy")
        defer { copy.remove() }
        let twin = try Self.twin(of: b, in: copy)
        defer { twin.close() }

        var sideBySide = mergeOptions()
        sideBySide.sideBySideMinimum = 0
        var sequential = mergeOptions()
        sequential.runsSideBySide = false
        var seenTogether: [UInt64] = [], seenAlone: [UInt64] = []
        let heldBefore = b.versionVector
        // Forced both ways, so that a one-CPU runner compares the two-thread path too.
        let together = try SideBySide.$forced.withValue(.always) {
            try LedgerMerger.merge(from: a, into: b, options: sideBySide, observe: { seenTogether.append(RecordFingerprint.of($0)) })
        }
        let alone = try SideBySide.$forced.withValue(.never) {
            try LedgerMerger.merge(from: a, into: twin, options: sequential, observe: { seenAlone.append(RecordFingerprint.of($0)) })
        }
        #expect(together.eventsIn == alone.eventsIn && together.duplicates == alone.duplicates, "seed \(seed)")
        #expect(together.batches == alone.batches && together.marksWritten == alone.marksWritten, "seed \(seed)")
        #expect(Array(together.newConflicts) == Array(alone.newConflicts), "seed \(seed)")
        // Each saw exactly its ledger's records (their own knowledge marks differ in time).
        var inB: [UInt64] = [], inTwin: [UInt64] = []
        try b.forEachRecord { view, _ in inB.append(RecordFingerprint.of(view)) }
        try twin.forEachRecord { view, _ in inTwin.append(RecordFingerprint.of(view)) }
        #expect(seenTogether.sorted() == inB.sorted() && seenAlone.sorted() == inTwin.sorted(), "seed \(seed)")
        #expect(try b.eventSet().keys.sorted(by: { ($0.device, $0.seq) < ($1.device, $1.seq) })
                == twin.eventSet().keys.sorted(by: { ($0.device, $0.seq) < ($1.device, $1.seq) }), "seed \(seed)")
        // The conflicts reported as new are exactly those a full scan finds with a side b lacked.
        let past = { (id: EventID) in id.seq > heldBefore[id.device] ?? 0 }
        #expect(Array(together.newConflicts) == (try b.conflicts()).filter { past($0.winner.id) || past($0.loser.id) },
                "seed \(seed)")
    }

    @Test("forced either way on the same seeded input, the merge writes byte-identical ledgers", arguments: 1...20)
    func sideBySideWritesTheSameBytes(seed: UInt64) throws {
        let dir = try TemporaryDirectory("side-by-side-bytes")
        defer { dir.remove() }
        let (a, b) = try Self.pair(dir, seed: seed)
        defer { a.close() }
        b.close()
        var options = mergeOptions()
        options.sideBySideMinimum = 0
        var merged: [SideBySide.Mode: (report: MergeReport, files: [String: Data])] = [:]
        for mode in [SideBySide.Mode.always, .never] {
            // Two copies of b on one fixed clock: their knowledge marks are dated alike.
            let path = dir.sub("b-\(mode)")
            try FileManager.default.copyItem(atPath: dir.sub("b"), toPath: path)
            try? FileManager.default.removeItem(atPath: path + "/LOCK")
            let copy = try Ledger.open(directory: path, clock: FixedClock(milliseconds: 1_800_000_000_000))
            let report = try SideBySide.$forced.withValue(mode) { try LedgerMerger.merge(from: a, into: copy, options: options) }
            copy.close()
            merged[mode] = (report, try directorySnapshot(path).filter { $0.key != "LOCK" })
        }
        let together = try #require(merged[.always]), alone = try #require(merged[.never])
        #expect(together.report.eventsIn == alone.report.eventsIn, "seed \(seed)")
        #expect(Array(together.report.newConflicts) == Array(alone.report.newConflicts), "seed \(seed)")
        #expect(snapshotDifferences(together.files, alone.files).isEmpty, "seed \(seed)")
    }

    @Test("records appended as bytes read back as the same records, framed alike")
    func encodedAppendEqualsRecordAppend() throws {
        let dir = try TemporaryDirectory("encoded-append")
        defer { dir.remove() }
        let device = DeviceID(rawValue: 0xabc)
        var records: [LedgerRecord] = [.deviceName(DeviceNameRecord(device: device, hlc: HybridTimestamp(rawValue: 1 << 16), name: "phone"))]
        for seq in 1...3_000 as ClosedRange<UInt64> {
            records.append(.stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: HybridTimestamp(rawValue: (1_000 + seq) << 16),
                                                    station: UInt32(seq % 50 + 1), compDate: seq % 3 == 0 ? nil : .year(2001),
                                                    memo: seq % 3 == 0 ? String(repeating: "長", count: 1_300) : nil, origin: .user)))
        }
        let viaRecords = try Ledger.create(directory: dir.sub("records"), deviceName: "r")
        let viaBytes = try Ledger.create(directory: dir.sub("bytes"), deviceName: "r")
        defer { viaRecords.close(); viaBytes.close() }
        try viaRecords.append(records)
        var visited = 0
        try viaBytes.append(EncodedRecords(records)) { _ in visited += 1 }
        #expect(visited == records.count)
        #expect(try viaBytes.allRecords().dropFirst() == viaRecords.allRecords().dropFirst())
        #expect(viaBytes.segments.last?.summary.frameCount == viaRecords.segments.last?.summary.frameCount)
        #expect(viaBytes.segments.last?.summary.frameCount ?? 0 > 1, "the memos make several 4 MiB frames")
        #expect(viaBytes.versionVector == viaRecords.versionVector)
        #expect(viaBytes.deviceNames[device]?.name == "phone")
    }

    @Test("encoded records that break a device's seqs or are malformed are refused, nothing written", arguments: [
        "gap", "truncated",
    ])
    func encodedAppendRefuses(_ fault: String) throws {
        let dir = try TemporaryDirectory("encoded-refuse")
        defer { dir.remove() }
        let ledger = try Ledger.create(directory: dir.sub("l"), deviceName: "l")
        defer { ledger.close() }
        let before = ledger.recordCount
        let device = DeviceID(rawValue: 0xdef)
        var encoder = RecordEncoder()
        for seq: UInt64 in fault == "gap" ? [1, 3] : [1, 2] {
            encoder.append(.stationEdit(StationEdit(id: EventID(device: device, seq: seq), hlc: HybridTimestamp(rawValue: seq << 16),
                                                    station: 5, compDate: .unknown, memo: nil, origin: .user)))
        }
        let bytes = fault == "truncated" ? Array(encoder.bytes.dropLast(3)) : encoder.bytes
        // Bytes that were never checked: the append checks every record again.
        var batch = EncodedRecords()
        bytes.withUnsafeBytes { batch.append(validated: $0, count: 2) }
        #expect(throws: LedgerError.self) { try ledger.append(batch) }
        #expect(ledger.recordCount == before)
        #expect(ledger.versionVector[device] == nil)
    }
}
