import Foundation
import LedgerCore
@testable import LedgerSync
import LedgerTestSupport
import Testing

/// The flat conflict detector (interned memos, per-station `Edit` arrays, a lazy `ConflictList`)
/// against a reference written the plain way: `String` memos and a sort of every station's edits,
/// as the detector was before. Seeded random event sets with knowledge marks, repeated memos and
/// memos that differ in bytes but not as `String`s (NFC vs NFD).
@Suite("Conflict detector (seeded property tests against a reference)")
struct ConflictDetectorTests {
    static let memos = ["駅弁", "", "caf\u{E9}", "cafe\u{301}", "m1", "m2"]

    /// Every conflict of `records`, computed the plain way (Schemas/merge.md §6).
    static func reference(_ records: [LedgerRecord]) -> [Conflict] {
        var history = CausalHistory()
        var edits: [UInt32: [StationEdit]] = [:]
        for record in records {
            switch record {
            case .knowledgeMark(let m): history.add(m)
            case .stationEdit(let e): edits[e.station, default: []].append(e)
            default: break
            }
        }
        history.seal()
        var result: [Conflict] = []
        for station in edits.keys.sorted() {
            for field in [Conflict.Field.date, .memo] {
                let setting = edits[station]!.filter { field == .date ? $0.compDate != nil : $0.memo != nil }
                guard let winner = setting.max(by: { EventOrder($0) < EventOrder($1) }) else { continue }
                func side(_ e: StationEdit) -> Conflict.Side {
                    Conflict.Side(id: e.id, hlc: e.hlc, compDateCode: field == .date ? e.compDate?.code : nil,
                                  memo: field == .memo ? e.memo : nil)
                }
                for loser in setting.sorted(by: { EventOrder($0) < EventOrder($1) }) where loser.id != winner.id {
                    let same = field == .date ? loser.compDate == winner.compDate : loser.memo == winner.memo
                    guard !same, history.areConcurrent(winner.id, loser.id) else { continue }
                    result.append(Conflict(station: station, field: field, winner: side(winner), loser: side(loser)))
                }
            }
        }
        return result
    }

    /// Edits of 2–4 devices on a few stations, with knowledge marks now and then.
    static func randomRecords(seed: UInt64) -> [LedgerRecord] {
        var rng = SeededGenerator(seed: seed)
        let devices = (0..<Int.random(in: 2...4, using: &rng)).map { DeviceID(rawValue: UInt64($0 + 1) << 40 | 7) }
        var seqs = [UInt64](repeating: 0, count: devices.count)
        var records: [LedgerRecord] = []
        var hlc: UInt64 = 1_000 << 16
        for _ in 0..<Int.random(in: 1...80, using: &rng) {
            let d = Int.random(in: 0..<devices.count, using: &rng)
            seqs[d] += 1
            hlc += UInt64.random(in: 0...3, using: &rng) << 16
            let id = EventID(device: devices[d], seq: seqs[d])
            if Int.random(in: 0..<8, using: &rng) == 0 {
                var knowledge: [DeviceID: UInt64] = [:]
                for (i, other) in devices.enumerated() where i != d && seqs[i] > 0 {
                    knowledge[other] = UInt64.random(in: 1...seqs[i], using: &rng)
                }
                records.append(.knowledgeMark(KnowledgeMark(id: id, hlc: HybridTimestamp(rawValue: hlc), knowledge: knowledge)))
                continue
            }
            let date: CompletionDate? = Bool.random(using: &rng) ? [.year(2001), .month(2010, 4), .unknown].randomElement(using: &rng)! : nil
            let memo = date == nil || Int.random(in: 0..<3, using: &rng) == 0 ? memos.randomElement(using: &rng)! : nil
            records.append(.stationEdit(StationEdit(id: id, hlc: HybridTimestamp(rawValue: hlc),
                                                    station: UInt32.random(in: 1...3, using: &rng),
                                                    compDate: date, memo: memo, origin: .user)))
        }
        return records
    }

    @Test("records and views give the reference's conflicts, in its order", arguments: 1...300)
    func matchesReference(seed: UInt64) throws {
        let records = Self.randomRecords(seed: seed)
        let expected = Self.reference(records)
        var fromRecords = ConflictDetector()
        for record in records { fromRecords.add(record) }
        #expect(fromRecords.conflicts() == expected, "seed \(seed)")

        var encoder = RecordEncoder()
        for record in records { encoder.append(record) }
        var fromViews = ConflictDetector(deduplicates: false)
        try encoder.bytes.withUnsafeBytes { bytes in
            try RecordStream.forEach(in: bytes) { (view: RecordView) in fromViews.add(view) }
        }
        let list = fromViews.conflictList()
        #expect(list.count == expected.count)
        #expect(Array(list) == expected, "seed \(seed)")
    }

    /// Collecting groups the detector's edits by station in place: collecting again, or adding
    /// more records after a collection, must still give the reference's conflicts.
    @Test("collecting twice, and adding after collecting, keep the reference's conflicts", arguments: 1...100)
    func collectsAgain(seed: UInt64) {
        let records = Self.randomRecords(seed: seed)
        let half = records.count / 2
        var detector = ConflictDetector()
        for record in records[..<half] { detector.add(record) }
        let first = detector.conflicts()
        #expect(first == Self.reference(Array(records[..<half])), "seed \(seed)")
        #expect(detector.conflicts() == first, "seed \(seed)")
        for record in records[half...] { detector.add(record) }
        #expect(detector.conflicts() == Self.reference(records), "seed \(seed)")
    }

    @Test("conflictList(newSince:) keeps exactly the conflicts with a side past the vector", arguments: 1...100)
    func newSince(seed: UInt64) throws {
        let records = Self.randomRecords(seed: seed)
        var rng = SeededGenerator(seed: seed ^ 0x5eed)
        var held: [DeviceID: UInt64] = [:]
        for record in records {
            guard let id = record.eventID, Bool.random(using: &rng) else { continue }
            held[id.device] = max(held[id.device] ?? 0, id.seq)
        }
        let past = { (id: EventID) in id.seq > held[id.device] ?? 0 }
        var detector = ConflictDetector()
        for record in records { detector.add(record) }
        let expected = Self.reference(records).filter { past($0.winner.id) || past($0.loser.id) }
        #expect(Array(detector.conflictList(newSince: held)) == expected, "seed \(seed)")
        // Collected on two threads, station runs split by edits and joined: the same list.
        var twin = ConflictDetector()
        for record in records { twin.add(record) }
        #expect(Array(twin.conflictList(newSince: held, sideBySide: true)) == expected, "seed \(seed)")
        #expect(Array(twin.conflictList(newSince: [:], sideBySide: true)) == Self.reference(records), "seed \(seed)")
    }

    @Test("memo ids name exact bytes; classes follow String equality", arguments: [
        ("駅弁", "駅弁", true, true),
        ("caf\u{E9}", "cafe\u{301}", false, true),  // NFC vs NFD: one value, two byte strings
        ("a", "b", false, false),
        ("", "", true, true),
        ("", "a", false, false),
    ])
    func memoTable(a: String, b: String, sameID: Bool, sameClass: Bool) {
        var table = MemoTable()
        let first = table.intern(a), second = table.intern(b)
        #expect((first == second) == sameID)
        #expect((table.valueClass(first) == table.valueClass(second)) == sameClass)
        #expect(table.string(first).utf8.elementsEqual(a.utf8))
        #expect(table.string(second).utf8.elementsEqual(b.utf8))
    }
}
