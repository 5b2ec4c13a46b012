import ArgumentParser
import LedgerCore

/// The shared path of `complete`, `today`, `uncomplete` and `memo`: validate, compare with the
/// station's current state, and append one event only for the fields that change.
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
        let current = try ledger.foldStation(station).state
        let newDate = date.flatMap { $0 == current.compDate ? nil : $0 }
        let newMemo = memo.flatMap { $0 == current.memo ? nil : $0 }
        guard newDate != nil || newMemo != nil else {
            print("station \(station): unchanged (date \(current.compDate), memo \(current.memo.isEmpty ? "empty" : "as given")); nothing recorded")
            return
        }
        let events = try ledger.appendLocal([StationEditDraft(station: station, compDate: newDate, memo: newMemo)])
        for event in events {
            var parts: [String] = []
            if let d = event.compDate { parts.append("date \(d)") }
            if let m = event.memo { parts.append(m.isEmpty ? "memo cleared" : "memo set") }
            print("station \(station): \(parts.joined(separator: ", ")) (event \(event.id.device)#\(event.id.seq))")
        }
    }
}
