import ArgumentParser
import LedgerCatalog
import LedgerCore

/// The shared path of `complete`, `today`, `uncomplete` and `memo`: validate, compare with the
/// station's current state in the projection, and append one event only for the fields that
/// change.
///
/// Everything is validated before any file is touched: the arguments, then (with the ledger
/// locked) the station against the catalogue. Once a catalogue has been imported, an `s_id` not
/// in it is refused (exit 65); before any catalogue import every positive id is accepted, so a
/// ledger can be used (or filled by a merge) before its catalogue arrives. Disabled stations are
/// in the catalogue and stay editable. The no-op check reads the projection (its checkpoint plus
/// the few records after it), never the whole log, and the projection is saved afterwards.
enum StationEditing {
    static func record(
        _ options: LedgerOptions, station: UInt32,
        compDate: (CalendarDay) throws(CompletionDateError) -> CompletionDate?, memo: String?
    ) throws {
        guard station > 0 else { throw LedgerError(.badInput, "station 0 is not a station id") }
        if let memo, memo.utf8.count > StationEdit.maximumMemoBytes {
            throw LedgerError(.badInput, "the memo is \(memo.utf8.count) bytes of UTF-8; the limit is \(StationEdit.maximumMemoBytes)")
        }
        let clock = try Environment.clock()
        let date: CompletionDate?
        do { date = try compDate(clock.today) } catch { throw LedgerError(.badInput, error.description) }

        let ledger = try options.open()
        defer { ledger.close() }
        try CatalogSupport.requireKnownStation(station, ledger: ledger)
        var projection = try ProjectionUpdater.load(ledger, lazy: true)
        let current = try projection.lookup(station) ?? ProjectedStation()
        let newDate = date.flatMap { $0.code == current.compDate ? nil : $0 }
        let newMemo = memo.flatMap { $0 == current.memo ? nil : $0 }
        guard newDate != nil || newMemo != nil else {
            try ProjectionStore.save(&projection, ledger: ledger)
            print("station \(station): unchanged (date \(current.completionDate), memo \(current.memo.isEmpty ? "empty" : "as given")); nothing recorded")
            return
        }
        let before = ledger.recordCount
        let events = try ledger.appendLocal([StationEditDraft(station: station, compDate: newDate, memo: newMemo)])
        try projection.applyAppended(events, since: before, ledger: ledger)
        try ProjectionStore.save(&projection, ledger: ledger)
        for event in events {
            var parts: [String] = []
            if let d = event.compDate { parts.append("date \(d)") }
            if let m = event.memo { parts.append(m.isEmpty ? "memo cleared" : "memo set") }
            print("station \(station): \(parts.joined(separator: ", ")) (event \(event.id.device)#\(event.id.seq))")
        }
    }
}
