import LedgerCore
@testable import LedgerSync
import LedgerTestSupport
import Testing

/// `conflicts resolve` (Schemas/merge.md §6.1): the settling edit re-states the winner, has seen
/// both sides, and converges like any edit.
@Suite("Settling conflicts")
struct ConflictSettlementTests {
    static let hour: Int64 = 3_600_000

    /// Two devices with a date and a memo conflict on 120004 (phone wins both: its clock is ahead).
    static func conflicting(_ dir: TemporaryDirectory) throws -> (Ledger, Ledger) {
        let a = try Ledger.create(directory: dir.sub("a"), deviceName: "phone", clock: DeviceClock(skew: 2 * hour))
        let b = try Ledger.create(directory: dir.sub("b"), deviceName: "tablet", clock: DeviceClock())
        _ = try a.edit(120_004, date: .year(1999), memo: "phone")
        _ = try b.edit(120_004, date: .year(2005), memo: "tablet")
        try LedgerMerger.merge(from: a, into: b)
        try LedgerMerger.merge(from: b, into: a)
        return (a, b)
    }

    /// --keep → the fields still in conflict after resolving on the device that lost (tablet),
    /// then merging both ways; the values always stay the winner's.
    static let keeps: [(ConflictSettlement.Keep, [Conflict.Field])] = [(.both, []), (.date, [.memo]), (.memo, [.date])]

    @Test("resolve on one device, merge both ways: the same conflicts and projection on both", arguments: keeps)
    func resolveConverges(_ keep: ConflictSettlement.Keep, _ remaining: [Conflict.Field]) throws {
        let dir = try TemporaryDirectory("settle")
        defer { dir.remove() }
        let (a, b) = try Self.conflicting(dir)
        defer { a.close(); b.close() }
        #expect(try b.conflicts().map(\.field) == [.date, .memo])
        let (event, settled) = try b.settleConflicts(of: 120_004, keep: keep)
        #expect(settled.map(\.field) == [Conflict.Field.date, .memo].filter { keep == .both || $0.rawValue == keep.rawValue })
        #expect(event.compDate == (keep == .memo ? nil : .year(1999)))
        #expect(event.memo == (keep == .date ? nil : "phone"))
        #expect(try b.conflicts().map(\.field) == remaining)
        try LedgerMerger.merge(from: b, into: a)
        try LedgerMerger.merge(from: a, into: b)
        for ledger in [a, b] {
            #expect(try ledger.conflicts().map(\.field) == remaining)
            let state = try #require(try ledger.projection()[120_004])
            #expect(state.compDate == .year(1999))
            #expect(state.memo == "phone")
        }
        #expect(try a.projection() == b.projection())
    }

    /// A station without a conflict in the kept fields: refused, nothing appended.
    @Test("nothing to resolve is refused and writes nothing", arguments: [ConflictSettlement.Keep.both, .date, .memo])
    func nothingToResolve(_ keep: ConflictSettlement.Keep) throws {
        let dir = try TemporaryDirectory("settle-none")
        defer { dir.remove() }
        let a = try Ledger.create(directory: dir.sub("a"), deviceName: "phone", clock: DeviceClock())
        defer { a.close() }
        _ = try a.edit(120_004, date: .year(1999), memo: "x")
        let before = a.recordCount
        #expect(throws: LedgerError.self) { try a.settleConflicts(of: 120_004, keep: keep) }
        #expect(throws: LedgerError.self) { try a.settleConflicts(of: 202_919, keep: keep) }
        #expect(a.recordCount == before)
    }

    /// Only a date conflict: --keep memo is refused naming the date conflict.
    @Test func theOtherFieldIsNamed() throws {
        let conflict = Conflict(station: 7, field: .date,
                                winner: Conflict.Side(id: EventID(device: DeviceID(rawValue: 1), seq: 1), hlc: HybridTimestamp(rawValue: 2),
                                                      compDateCode: 19990000, memo: nil),
                                loser: Conflict.Side(id: EventID(device: DeviceID(rawValue: 2), seq: 1), hlc: HybridTimestamp(rawValue: 1),
                                                     compDateCode: 20050000, memo: nil))
        let refusal = #expect(throws: LedgerError.self) { try ConflictSettlement(station: 7, keep: .memo, conflicts: [conflict]) }
        #expect(refusal?.description == "station 7 has no memo conflict to resolve (it has a date conflict: use --keep date or both)")
        let settled = try ConflictSettlement(station: 7, keep: .both, conflicts: [conflict])
        #expect(settled.draft == StationEditDraft(station: 7, compDate: .year(1999)))
    }
}
