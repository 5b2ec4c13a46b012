import LedgerCore

/// A concurrent edit that lost: two events set different values for the same field of the
/// same station, neither device had seen the other's event, and the LWW order picked `winner`.
/// The loser stays in the log; a new edit made after seeing both resolves the conflict.
package struct Conflict: Hashable, Sendable, Comparable {
    package enum Field: String, Sendable, Comparable {
        case date, memo
        package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// One side of a conflict: the event and the value it set.
    package struct Side: Hashable, Sendable {
        package var id: EventID
        package var hlc: HybridTimestamp
        /// For `.date`: the comp_date code; for `.memo`: nil.
        package var compDateCode: UInt32?
        /// For `.memo`: the memo; for `.date`: nil.
        package var memo: String?

        package var order: EventOrder { EventOrder(hlc: hlc, device: id.device, seq: id.seq) }
    }

    package var station: UInt32
    package var field: Field
    package var winner: Side
    package var loser: Side

    package static func < (a: Self, b: Self) -> Bool { a.sortKey < b.sortKey }

    /// The order of `<` as plain integers: station, field ("date" before "memo"), the loser's
    /// LWW order. Sorting many conflicts by key spares copying them at every step.
    package var sortKey: (UInt32, UInt8, UInt64, UInt64, UInt64) {
        (station, field == .date ? 0 : 1, loser.hlc.rawValue, loser.id.device.rawValue, loser.id.seq)
    }

    /// `conflicts` sorted by `<`.
    package static func sorted(_ conflicts: [Conflict]) -> [Conflict] {
        var keys = conflicts.indices.map { (conflicts[$0].sortKey, $0) }
        keys.sort { $0.0 < $1.0 }
        return keys.map { conflicts[$0.1] }
    }
}
