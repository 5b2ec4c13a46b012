import GRDB
import LedgerCore

/// Turns the catalogue's carry-overs into derived events (origin `catalog`), whenever events
/// arrive (Schemas/projection.md §4).
///
/// Every carry-over recorded by any imported catalogue version is evaluated against the current
/// projection, in version order, with one rule: once the source's date register is set, the
/// target takes the source's winning date at that event's hlc, and the source's memo (if its
/// register was ever set) at its winning memo event's hlc. A field is appended only when that
/// hlc is later than the hlc of the target's winner of the register, so each source position is
/// carried at most once and a user's later edit of the target always wins. The condition is
/// "the date was ever set", not "the source is completed now": it only ever turns true as events
/// arrive, and the carried positions only move forward, so what a replica holds is a function of
/// the events it has, not of the order they came in. (A source whose date was never completed
/// carries a 0, which leaves the target uncompleted.) Chains (a target that is the source of a
/// later carry-over) see the earlier carry-over's result.
package enum CarryOverPlanner {
    /// The carry-overs a catalogue recorded, in the order the dumps ran them.
    static func recorded(_ db: Database) throws -> [CarryOver] {
        guard try db.tableExists("carryovers") else { return [] }
        return try Row.fetchAll(db, sql: "SELECT target, source, applied_source FROM carryovers ORDER BY version, rowid").map {
            CarryOver(target: UInt32($0.integer("target")), source: UInt32($0.integer("applied_source")),
                      sourceInFile: UInt32($0.integer("source")), replaces: false)
        }
    }

    /// The hook every command that appends events runs before saving the projection: re-evaluates
    /// the carry-overs of the ledger's catalogue and appends what they owe (one batch).
    @discardableResult
    package static func settle(_ ledger: Ledger, projection: inout CompletionsProjection) throws -> [StationEdit] {
        guard let catalog = try CatalogStore.open(ledger) else { return [] }
        defer { catalog.close() }
        let carryOvers = try catalog.read(recorded)
        // A lazily loaded projection reads the rows the planner needs first.
        for carry in carryOvers {
            _ = try projection.lookup(carry.source)
            _ = try projection.lookup(carry.target)
        }
        let drafts = drafts(for: carryOvers, projection: projection, device: ledger.localDevice,
                            nextSeq: (ledger.versionVector[ledger.localDevice] ?? 0) + 1)
        guard !drafts.isEmpty else { return [] }
        let before = ledger.recordCount
        let events = try ledger.appendLocal(drafts)
        try projection.applyAppended(events, since: before, ledger: ledger)
        return events
    }

    package static func drafts(
        for carryOvers: [CarryOver], projection: CompletionsProjection, device: DeviceID, nextSeq: UInt64
    ) -> [StationEditDraft] {
        var working = projection
        var drafts: [StationEditDraft] = []
        var seq = nextSeq
        for carry in carryOvers {
            guard let source = working.row(carry.source), let dateWinner = source.dateWinner else { continue }
            let target = working.row(carry.target) ?? ProjectedStation()
            let takesDate = target.dateWinner.map { dateWinner.hlc > $0.hlc } ?? true
            let memoWinner = source.memoWinner.flatMap { winner in target.memoWinner.map { winner.hlc > $0.hlc } ?? true ? winner : nil }
            var fields: [(hlc: HybridTimestamp, date: UInt32?, memo: String?)] = []
            if takesDate, let memoWinner, memoWinner.hlc == dateWinner.hlc {
                fields.append((dateWinner.hlc, source.compDate, source.memo))
            } else {
                if takesDate { fields.append((dateWinner.hlc, source.compDate, nil)) }
                if let memoWinner { fields.append((memoWinner.hlc, nil, source.memo)) }
            }
            for field in fields {
                let date = field.date.flatMap { try? CompletionDate(code: $0) }
                drafts.append(StationEditDraft(station: carry.target, compDate: date, memo: field.memo, origin: .catalog, hlc: field.hlc))
                working.apply(StationEdit(id: EventID(device: device, seq: seq), hlc: field.hlc, station: carry.target,
                                          compDate: date, memo: field.memo, origin: .catalog))
                seq += 1
            }
        }
        return drafts
    }
}
