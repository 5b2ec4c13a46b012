import LedgerCore

/// One station's wanted state from a user edit (`complete`, `today`, `uncomplete`, `memo`, a line
/// of `complete --batch`): `nil` leaves that field as it is.
///
/// The rules every such edit follows (docs/formats-and-guarantees.md "Data model"): the memo is at most
/// `StationEdit.maximumMemoBytes` of UTF-8; an edit appends only the fields that differ from the
/// station's current state, and nothing when none does; `today` without `--force` refuses a
/// station that is already completed.
package struct StationChange: Equatable, Sendable {
    package var station: UInt32
    package var date: CompletionDate?
    package var memo: String?

    package init(station: UInt32, date: CompletionDate? = nil, memo: String? = nil) {
        (self.station, self.date, self.memo) = (station, date, memo)
    }

    /// Refuses a memo over the size limit (exit 65).
    package static func validate(memo: String?) throws {
        if let memo, memo.utf8.count > StationEdit.maximumMemoBytes {
            throw LedgerError(.badInput, "the memo is \(memo.utf8.count) bytes of UTF-8; the limit is \(StationEdit.maximumMemoBytes)")
        }
    }

    /// Whether DATE is the keyword `last` (any case): the date given to this device's previous
    /// successful `complete` or `today`, which the caller looks up (docs/ledger-cli.md "Stations by name").
    package static func isLast(_ text: String) -> Bool {
        text.lowercased() == "last"
    }

    /// DATE as typed: a completion date, `today`, `none`, a raw code, or `last`, which stands for
    /// `last` (the caller found it; `nil` only when `text` is not `last`). A bad date is exit 65.
    package static func date(_ text: String, today: CalendarDay, last: CompletionDate?) throws -> CompletionDate {
        if isLast(text), let last { return last }
        do { return try CompletionDate(parsing: text, today: today) } catch { throw LedgerError(.badInput, error.description) }
    }

    /// The event this change appends to a station whose state is `current`: only the fields that
    /// differ, or `nil` when it would change nothing. With `refusingCompleted` (`today` without
    /// `--force`), a station that is already completed is refused (exit 65).
    package func draft(against current: ProjectedStation, refusingCompleted: Bool = false) throws -> StationEditDraft? {
        if refusingCompleted, current.completionDate.isCompleted {
            throw LedgerError(.badInput, "station \(station) is already completed (\(current.completionDate)); use `complete \(station) today` to change its date")
        }
        let newDate = date.flatMap { $0.code == current.compDate ? nil : $0 }
        let newMemo = memo.flatMap { $0 == current.memo ? nil : $0 }
        guard newDate != nil || newMemo != nil else { return nil }
        return StationEditDraft(station: station, compDate: newDate, memo: newMemo)
    }
}
