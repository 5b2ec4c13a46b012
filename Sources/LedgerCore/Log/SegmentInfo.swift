/// What the ledger knows about one segment file without reading its frames.
package struct SegmentInfo: Sendable {
    package var number: UInt32
    package var path: String
    package var header: SegmentHeader
    package var summary: SegmentSummary
    package var sealed: Bool
    package var fileSize: Int

    /// Log position of the record after this segment's last one.
    package var endPosition: UInt64 { header.firstRecordPosition + summary.recordCount }

    package static func fileName(_ number: UInt32) -> String {
        Int(number).zeroPadded(8) + ".seg"
    }

    /// Parses `NNNNNNNN.seg`; other names (`.torn` copies, temporaries) are not segments.
    package static func number(ofFileName name: String) -> UInt32? {
        guard name.count == 12, name.hasSuffix(".seg") else { return nil }
        return UInt32(name.prefix(8))
    }
}
