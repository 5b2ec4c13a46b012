import LedgerCore

/// One station edit as the report's "latest events" table shows it.
package struct ReportEvent: Sendable, Equatable {
    package var order: EventOrder
    package var deviceName: String
    package var station: UInt32
    /// Set when the edit sets the date.
    package var compDate: UInt32?
    /// Set when the edit sets the memo.
    package var memo: String?

    package init(_ view: RecordView, deviceName: String) {
        order = EventOrder(view)
        self.deviceName = deviceName
        station = view.station
        compDate = view.hasCompDate ? view.compDateCode : nil
        memo = view.memo
    }

    /// Keeps the `limit` latest station edits (by last-writer-wins order) seen so far, newest first.
    package static func keepLatest(_ events: inout [ReportEvent], _ event: ReportEvent, limit: Int) {
        guard events.count < limit || event.order > events[events.count - 1].order else { return }
        let index = events.firstIndex { event.order > $0.order } ?? events.count
        events.insert(event, at: index)
        if events.count > limit { events.removeLast() }
    }
}
