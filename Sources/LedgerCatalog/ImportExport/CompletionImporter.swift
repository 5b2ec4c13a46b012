import LedgerCore

/// Turns rows of the original apps' completions into import events (origin `import`), keeping
/// the original last-update-wins order: each event's hlc is the row's `update_date` (Unix
/// seconds, counter 0).
///
/// The whole input is validated before anything is appended (unknown `s_id` when a catalogue
/// exists, invalid `comp_date` such as 20130230 or 15, a date after today, an oversized memo),
/// and the first bad row is reported with its line. A field enters an event only if it would
/// change the projection: it must win its register and either differ from the current value or
/// set a register nobody set yet. So rows equal to the current state, and re-importing the
/// same file, append nothing.
package enum CompletionImporter {
    package static func drafts(
        for rows: [CompletionRow], file: String, catalog: CatalogStore?, projection: CompletionsProjection,
        device: DeviceID, nextSeq: UInt64, today: CalendarDay, rowWord: String = "line"
    ) throws -> [StationEditDraft] {
        func bad(_ row: CompletionRow, _ message: String) -> LedgerError {
            rowWord == "line" ? LedgerError(.badInput, message, file: file, line: row.line)
                              : LedgerError(.badInput, "\(message) (\(file), \(rowWord) \(row.line))")
        }
        var known = Set<UInt32>()
        for row in rows {
            guard row.station > 0 else { throw bad(row, "station 0 is not a station id") }
            do {
                _ = try CompletionDate(code: row.compDate, today: today)
            } catch {
                throw bad(row, "comp_date \(row.compDate) of station \(row.station) is invalid: \(error.description)")
            }
            guard row.memo.utf8.count <= StationEdit.maximumMemoBytes else {
                throw bad(row, "the memo of station \(row.station) is \(row.memo.utf8.count) bytes; the limit is \(StationEdit.maximumMemoBytes)")
            }
            guard row.updateDate >= 0 else { throw bad(row, "update_date \(row.updateDate) is negative") }
            if let catalog, !known.contains(row.station) {
                guard try catalog.contains(row.station) else {
                    throw bad(row, "station \(row.station) is not in the station catalogue (version \(catalog.version))")
                }
                known.insert(row.station)
            }
        }
        var working = projection
        var drafts: [StationEditDraft] = []
        var seq = nextSeq
        for row in rows {
            let hlc = HybridTimestamp(milliseconds: row.updateDate * 1000)
            let order = EventOrder(hlc: hlc, device: device, seq: seq)
            let current = working.row(row.station) ?? ProjectedStation()
            // A row holding the defaults (0, '', 0) is what the apps store for untouched stations.
            if current.dateWinner == nil && current.memoWinner == nil && row.compDate == 0 && row.memo.isEmpty && row.updateDate == 0 {
                continue
            }
            let effective = current.effectiveFields(compDate: row.compDate, memo: row.memo, at: order)
            guard effective.compDate != nil || effective.memo != nil else { continue }
            let date = effective.compDate.flatMap { try? CompletionDate(code: $0) }
            drafts.append(StationEditDraft(station: row.station, compDate: date, memo: effective.memo, origin: .import, hlc: hlc))
            working.apply(StationEdit(id: EventID(device: device, seq: seq), hlc: hlc, station: row.station,
                                      compDate: date, memo: effective.memo, origin: .import))
            seq += 1
        }
        return drafts
    }
}
