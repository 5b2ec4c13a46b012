/// The last-writer-wins order of events: `(hlc, device, seq)`. Every replica orders the same
/// events the same way, whatever order they arrived in.
package struct EventOrder: Hashable, Comparable, Sendable {
    package var hlc: HybridTimestamp
    package var device: DeviceID
    package var seq: UInt64

    package init(hlc: HybridTimestamp, device: DeviceID, seq: UInt64) {
        (self.hlc, self.device, self.seq) = (hlc, device, seq)
    }

    package init(_ view: RecordView) { self.init(hlc: view.hlc, device: view.device, seq: view.seq) }
    package init(_ e: StationEdit) { self.init(hlc: e.hlc, device: e.id.device, seq: e.id.seq) }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.hlc, lhs.device, lhs.seq) < (rhs.hlc, rhs.device, rhs.seq)
    }
}

/// The current completion of one station: two last-writer-wins registers, the date and the memo,
/// folded from the station's events. The fold depends only on the set of events.
package struct CompletionRegister: Equatable, Sendable {
    package var compDate: CompletionDate = .notCompleted
    package var memo: String = ""
    /// The winning events, `nil` while no event has set the field.
    package var dateWinner: EventOrder?
    package var memoWinner: EventOrder?

    package init() {}

    /// `update_date` of the original schema: Unix seconds of the later winning event, 0 if none.
    package var updateDate: Int64 {
        max(dateWinner?.hlc.unixSeconds ?? 0, memoWinner?.hlc.unixSeconds ?? 0)
    }

    /// Applies one event; returns whether either register changed winner.
    @discardableResult
    package mutating func apply(_ e: StationEdit) -> Bool {
        let order = EventOrder(e)
        var changed = false
        if let date = e.compDate, dateWinner.map({ order > $0 }) ?? true {
            compDate = date
            dateWinner = order
            changed = true
        }
        if let memo = e.memo, memoWinner.map({ order > $0 }) ?? true {
            self.memo = memo
            memoWinner = order
            changed = true
        }
        return changed
    }

    /// Whether an edit setting these values would change nothing (no-op suppression).
    package func wouldChange(compDate newDate: CompletionDate?, memo newMemo: String?) -> Bool {
        (newDate.map { $0 != compDate } ?? false) || (newMemo.map { $0 != memo } ?? false)
    }
}
