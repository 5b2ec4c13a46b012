import LedgerCore

/// Turns the carry-overs a catalogue import performed into derived events (origin `catalog`).
///
/// A carry-over event takes the last-writer-wins position of the source's winning events, not
/// the time of the upgrade: the date at the hlc of the source's winning date event, the memo (if
/// the source ever set one) at the hlc of its winning memo event. So a user's later edit of the
/// target always wins, on every replica and whenever the catalogue was imported; and an
/// `INSERT OR REPLACE` carry-over (302456 ← 304726) cannot overwrite a later user edit.
/// Fields that would not change the target are dropped (no-op suppression); chains (a target
/// that is the source of a later carry-over) see the earlier carry-over's result.
package enum CarryOverPlanner {
    package static func drafts(
        for carryOvers: [CarryOver], projection: CompletionsProjection, device: DeviceID, nextSeq: UInt64
    ) -> [StationEditDraft] {
        var working = projection
        var drafts: [StationEditDraft] = []
        var seq = nextSeq
        for carry in carryOvers {
            guard let source = working.row(carry.source), source.compDate > 0, let dateWinner = source.dateWinner else { continue }
            let target = working.row(carry.target) ?? ProjectedStation()
            var fields: [(hlc: HybridTimestamp, date: UInt32?, memo: String?)] = []
            if let memoWinner = source.memoWinner, memoWinner.hlc == dateWinner.hlc {
                fields.append((dateWinner.hlc, source.compDate, source.memo))
            } else {
                fields.append((dateWinner.hlc, source.compDate, nil))
                if let memoWinner = source.memoWinner { fields.append((memoWinner.hlc, nil, source.memo)) }
            }
            var current = target
            for field in fields {
                let order = EventOrder(hlc: field.hlc, device: device, seq: seq)
                let effective = current.effectiveFields(compDate: field.date, memo: field.memo, at: order)
                guard effective.compDate != nil || effective.memo != nil else { continue }
                let date = effective.compDate.flatMap { try? CompletionDate(code: $0) }
                let draft = StationEditDraft(station: carry.target, compDate: date, memo: effective.memo,
                                             origin: .catalog, hlc: field.hlc)
                drafts.append(draft)
                let edit = StationEdit(id: EventID(device: device, seq: seq), hlc: field.hlc, station: carry.target,
                                       compDate: date, memo: effective.memo, origin: .catalog)
                current.apply(edit)
                working.apply(edit)
                seq += 1
            }
        }
        return drafts
    }
}
