import LedgerCore

/// Turns rows of the original apps' completions into import events (origin `import`), keeping
/// the original last-update-wins order: each event's hlc is the row's `update_date` (Unix
/// seconds, counter 0).
///
/// The whole input is validated before anything is appended (unknown `s_id` when a catalogue
/// exists, invalid `comp_date` such as 20130230, a date after today, an oversized memo); the
/// first bad row is reported with its line, or, with `--skip-invalid`, every bad row is skipped
/// and reported. Codes 2…18999999 (shown as 日付不明 by the apps) become 1. An `update_date`
/// later than the import time is clamped to it. A field enters an event only if it would
/// change the projection (`ProjectedStation.effectiveFields`), so rows equal to the current
/// state, a re-imported file and a re-imported export append nothing.
package enum CompletionImporter {
    /// The planned events of a strict import (every row valid or an error); kept for callers
    /// that need no report.
    package static func drafts(
        for rows: [CompletionRow], file: String, catalog: CatalogStore?, projection: CompletionsProjection,
        device: DeviceID, nextSeq: UInt64, today: CalendarDay, rowWord: String = "line"
    ) throws -> [StationEditDraft] {
        try plan(for: rows, file: file, catalog: catalog, projection: projection, device: device, nextSeq: nextSeq,
                 today: today, nowMilliseconds: .max, rowWord: rowWord).drafts
    }

    /// Validates every row, then plans the events. A bad row goes to `invalid`, which throws
    /// (the strict default: nothing is appended) or records it (`--skip-invalid`).
    /// `nowMilliseconds` is the import time: a later `update_date` is clamped to it.
    package static func plan(
        for rows: [CompletionRow], file: String, catalog: CatalogStore?, projection: CompletionsProjection,
        device: DeviceID, nextSeq: UInt64, today: CalendarDay, nowMilliseconds: Int64, rowWord: String = "line",
        invalid: (LedgerError) throws -> Void = { throw $0 }
    ) throws -> CompletionImportPlan {
        func bad(_ row: CompletionRow, _ message: String) -> LedgerError {
            rowWord == "line" ? LedgerError(.badInput, message, file: file, line: row.line)
                              : LedgerError(.badInput, "\(message) (\(file), \(rowWord) \(row.line))")
        }
        var plan = CompletionImportPlan()
        var valid: [CompletionRow] = []
        var known = Set<UInt32>()
        for original in rows {
            var row = original
            // The apps display 2…18999999 as 日付不明 (Schemas/domain-rules.md §2); only 1 is listed as such.
            if (2..<19_000_000).contains(row.compDate) { row.compDate = 1 }
            if let why = try problem(with: row, catalog: catalog, known: &known, today: today) {
                try invalid(bad(row, why))
                continue
            }
            if row.compDate != original.compDate { plan.unknownDates.append(original) }
            valid.append(row)
        }
        plan.validRows = valid.count
        var working = projection
        var seq = nextSeq
        for row in valid {
            var milliseconds = row.updateDate * 1000
            if milliseconds > nowMilliseconds {
                milliseconds = nowMilliseconds
                plan.clampedToImportTime += 1
            }
            let hlc = HybridTimestamp(milliseconds: milliseconds)
            let order = EventOrder(hlc: hlc, device: device, seq: seq)
            let current = working.row(row.station) ?? ProjectedStation()
            // A row holding the defaults (0, '', 0) is what the apps store for untouched stations.
            if current.lastWinner == nil && row.compDate == 0 && row.memo.isEmpty && row.updateDate == 0 { continue }
            let effective = current.effectiveFields(compDate: row.compDate, memo: row.memo, at: order)
            guard effective.compDate != nil || effective.memo != nil else { continue }
            let date = effective.compDate.flatMap { try? CompletionDate(code: $0) }
            plan.drafts.append(StationEditDraft(station: row.station, compDate: date, memo: effective.memo, origin: .import, hlc: hlc))
            working.apply(StationEdit(id: EventID(device: device, seq: seq), hlc: hlc, station: row.station,
                                      compDate: date, memo: effective.memo, origin: .import))
            seq += 1
        }
        return plan
    }

    /// Why a row cannot be imported, or nil.
    private static func problem(with row: CompletionRow, catalog: CatalogStore?, known: inout Set<UInt32>,
                                today: CalendarDay) throws -> String? {
        guard row.station > 0 else { return "station 0 is not a station id" }
        do {
            _ = try CompletionDate(code: row.compDate, today: today)
        } catch {
            return "comp_date \(row.compDate) of station \(row.station) is invalid: \(error.description)"
        }
        guard row.memo.utf8.count <= StationEdit.maximumMemoBytes else {
            return "the memo of station \(row.station) is \(row.memo.utf8.count) bytes; the limit is \(StationEdit.maximumMemoBytes)"
        }
        guard row.updateDate >= 0 else { return "update_date \(row.updateDate) is negative" }
        if let catalog, !known.contains(row.station) {
            guard try catalog.contains(row.station) else {
                return "station \(row.station) is not in the station catalogue (version \(catalog.version))"
            }
            known.insert(row.station)
        }
        return nil
    }
}
