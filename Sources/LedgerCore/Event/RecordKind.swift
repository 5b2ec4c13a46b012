/// The first byte of every record in the raw record stream (Schemas/segment-format.md §3).
package enum RecordKind: UInt8, Sendable {
    case stationEdit = 1
    case catalogVersion = 2
    case deviceName = 3
    case knowledgeMark = 4
}

/// Byte layout constants of the raw record stream.
package enum RecordLayout {
    /// kind (u8), flags (u8), body length (u16).
    package static let headerSize = 4
    /// device u64, seq u64, hlc u64, station u32, comp_date u32, origin u8, reserved u8.
    package static let stationEditFixedBody = 34
    /// device u64, seq u64, hlc u64, version u32, reserved u16.
    package static let catalogVersionBody = 30
    /// device u64, hlc u64, then the name.
    package static let deviceNameFixedBody = 16
    /// device u64, seq u64, hlc u64, entry count u32, then per entry: device u64, seq u64.
    package static let knowledgeMarkFixedBody = 28
    package static let knowledgeMarkEntrySize = 16

    package static let flagHasCompDate: UInt8 = 0x01
    package static let flagHasMemo: UInt8 = 0x02
}
