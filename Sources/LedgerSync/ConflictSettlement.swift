import LedgerCore

/// `conflicts resolve`: the edit that settles a station's conflicts by keeping the current
/// winner (Schemas/merge.md §6.1).
///
/// A conflict is two edits neither of which has seen the other. A new local edit has seen both
/// (its device's earlier events, and what its latest knowledge mark covers: every merge and
/// sync that brought an edit wrote one), and it takes an hlc above every event held (§3), so it
/// becomes the winner with nothing concurrent to it. It re-states the kept field's winning
/// value even though that changes nothing in the projection; an ordinary edit would be skipped
/// as a no-op, which is why this is its own path.
package struct ConflictSettlement: Sendable, Equatable {
    /// Which registers to settle.
    package enum Keep: String, Sendable, CaseIterable {
        case date, memo, both

        var fields: Set<Conflict.Field> {
            switch self {
            case .date: [.date]
            case .memo: [.memo]
            case .both: [.date, .memo]
            }
        }
    }

    /// The edit to append: the winners' values of the settled fields.
    package let draft: StationEditDraft
    /// The conflicts it settles.
    package let settled: [Conflict]

    /// The settlement of `station`'s conflicts among `conflicts` (those of the ledger, any
    /// stations), keeping the winners of `keep`'s fields. A field without a conflict is left
    /// out; a station with no conflict in the kept fields is refused (exit 65), naming the
    /// conflicts that remain when there are others.
    package init(station: UInt32, keep: Keep, conflicts: [Conflict]) throws {
        let own = conflicts.filter { $0.station == station }
        let settled = own.filter { keep.fields.contains($0.field) }
        guard !settled.isEmpty else {
            let other = own.isEmpty ? "" : " (it has a \(own[0].field.rawValue) conflict: use --keep \(own[0].field.rawValue) or both)"
            let fields = keep == .both ? "" : " \(keep.rawValue)"
            throw LedgerError(.badInput, "station \(station) has no\(fields) conflict to resolve\(other)")
        }
        var draft = StationEditDraft(station: station)
        for conflict in settled {
            switch conflict.field {
            case .date:
                let code = conflict.winner.compDateCode ?? 0
                do { draft.compDate = try CompletionDate(code: code) } catch {
                    throw LedgerError(.badInput, "station \(station)'s winning date \(code) is not a completion date")
                }
            case .memo:
                draft.memo = conflict.winner.memo ?? ""
            }
        }
        self.draft = draft
        self.settled = settled
    }
}

extension Ledger {
    /// Settles `station`'s conflicts (`ConflictSettlement`) and appends the edit; returns it
    /// with the conflicts it settled. The caller brings the projection up to date.
    package func settleConflicts(of station: UInt32, keep: ConflictSettlement.Keep) throws -> (StationEdit, [Conflict]) {
        let settlement = try ConflictSettlement(station: station, keep: keep, conflicts: conflicts(stations: [station]))
        guard let event = try appendLocal([settlement.draft]).first else {
            throw LedgerError(.badInput, "station \(station): nothing was appended")
        }
        return (event, settlement.settled)
    }
}
