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

/// What recovery did to the newest segment when the ledger was opened.
package struct RecoveryReport: Sendable, CustomStringConvertible {
    package var segment: String
    package var offset: Int
    package var removedBytes: Int
    package var savedTo: String
    package var reason: String

    package var description: String {
        "recovered from an interrupted write: removed \(removedBytes) torn bytes at offset \(offset) of \(segment) (\(reason)); they were saved to \(savedTo)"
    }
}
