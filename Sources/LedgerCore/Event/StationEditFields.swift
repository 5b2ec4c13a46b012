/// The fixed-width fields of one station edit, read from a `RecordView` in a single call.
///
/// `RecordView`'s accessors are `package` declarations, which Swift does not inline across
/// modules (that needs library evolution and package CMO), so a visitor in another target that
/// reads eight fields pays eight calls per record: about half of the visitor's cost in a replay
/// (Benchmarks/NOTES.md). Visitors outside LedgerCore that read several fields use this instead.
package struct StationEditFields: Sendable, Equatable {
    package var device: DeviceID
    package var seq: UInt64
    package var hlc: HybridTimestamp
    package var station: UInt32
    /// The comp_date code; meaningful only when `hasCompDate`.
    package var compDateCode: UInt32
    package var hasCompDate: Bool
    package var hasMemo: Bool
    package var origin: EventOrigin

    package var id: EventID { EventID(device: device, seq: seq) }
}

extension RecordView {
    /// This record's fields if it is a station edit, else `nil`.
    package var stationEdit: StationEditFields? {
        // The kind byte itself: `RecordKind(rawValue:)` is not inlined, and the stream has
        // checked the byte already.
        guard base.load(as: UInt8.self) == RecordKind.stationEdit.rawValue else { return nil }
        return StationEditFields(device: device, seq: seq, hlc: hlc, station: station, compDateCode: compDateCode,
                                 hasCompDate: hasCompDate, hasMemo: hasMemo, origin: origin)
    }
}
