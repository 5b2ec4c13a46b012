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
}
