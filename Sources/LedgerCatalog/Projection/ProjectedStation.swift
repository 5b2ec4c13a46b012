import LedgerCore

/// One row of the completions projection with the keys of its two winning events.
///
/// The date and the memo are separate last-writer-wins registers ordered by `(hlc, device,
/// seq)`, so the state depends only on the set of events applied, never on their arrival order.
package struct ProjectedStation: Sendable, Equatable {
    // Declared in the order a fold touches them (Swift keeps that layout): an edit reads and
    // writes the first 33 bytes, which then mostly share one cache line (BENCHMARKS.md §12).
    /// `comp_date` (Schemas/domain-rules.md §2); 0 until an event sets it.
    package var compDate: UInt32 = 0
    /// How many station edits of this station were folded (the history count).
    package var events: UInt32 = 0
    package var dateWinner: EventOrder?
    package var memoWinner: EventOrder?
    package var memo: String = ""

    package init() {}

    /// `update_date`: Unix seconds of the later of the two winning events, 0 if none.
    package var updateDate: Int64 {
        max(dateWinner?.hlc.unixSeconds ?? 0, memoWinner?.hlc.unixSeconds ?? 0)
    }

    /// The later of the two winning events.
    package var lastWinner: EventOrder? {
        switch (dateWinner, memoWinner) {
        case (nil, nil): return nil
        case (let d?, nil): return d
        case (nil, let m?): return m
        case (let d?, let m?): return max(d, m)
        }
    }

    package var completionDate: CompletionDate { (try? CompletionDate(code: compDate)) ?? .notCompleted }

    /// Folds one station edit record, read as `edit` from `record` (no allocation unless its
    /// memo wins).
    @inline(__always)
    package mutating func apply(_ edit: StationEditFields, memo record: RecordView) {
        if applyAllButMemoText(edit) { memo = String(decoding: record.memoBytes, as: UTF8.self) }
    }

    /// Folds `edit` but for its memo's text, and says whether that memo wins: the caller then
    /// sets `memo` (a whole-log fold sets only the last winner's, `FoldMemoBuffer`).
    @inline(__always)
    mutating func applyAllButMemoText(_ edit: StationEditFields) -> Bool {
        events &+= 1
        if edit.hasCompDate, Self.wins(edit, over: dateWinner) {
            compDate = edit.compDateCode
            dateWinner = EventOrder(hlc: edit.hlc, device: edit.device, seq: edit.seq)
        }
        guard edit.hasMemo, Self.wins(edit, over: memoWinner) else { return false }
        memoWinner = EventOrder(hlc: edit.hlc, device: edit.device, seq: edit.seq)
        return true
    }

    /// `EventOrder`'s `>` on the raw fields: its operator is a call from this module.
    @inline(__always)
    private static func wins(_ edit: StationEditFields, over winner: EventOrder?) -> Bool {
        guard let winner else { return true }
        return (edit.hlc.rawValue, edit.device.rawValue, edit.seq)
            > (winner.hlc.rawValue, winner.device.rawValue, winner.seq)
    }

    package mutating func apply(_ edit: StationEdit) {
        let order = EventOrder(edit)
        events &+= 1
        if let date = edit.compDate, dateWinner.map({ order > $0 }) ?? true {
            compDate = date.code
            dateWinner = order
        }
        if let memo = edit.memo, memoWinner.map({ order > $0 }) ?? true {
            self.memo = memo
            memoWinner = order
        }
    }

    /// The fields of an edit at `order` that would change this row: a field is kept when the
    /// edit would win its register and changes the value. An unset memo register holds `""`: an
    /// absent memo and `""` are one value (Schemas/import-export.md, "How rows become events"). An
    /// unset date register holds 0 once the station has a memo, so re-importing an export (which
    /// writes 0 for a memo-only station) changes nothing; a station without events takes a 0 date
    /// as an event, since a row `(s, 0, t, '')` says "not completed as of t" and must outrank older
    /// completions.
    /// Used for no-op suppression of imports.
    package func effectiveFields(compDate newDate: UInt32?, memo newMemo: String?, at order: EventOrder)
        -> (compDate: UInt32?, memo: String?)
    {
        var date: UInt32?
        var text: String?
        if let newDate, dateWinner.map({ order > $0 }) ?? true,
           newDate != compDate || (dateWinner == nil && memoWinner == nil) {
            date = newDate
        }
        if let newMemo, memoWinner.map({ order > $0 }) ?? true, newMemo != memo {
            text = newMemo
        }
        return (date, text)
    }
}
