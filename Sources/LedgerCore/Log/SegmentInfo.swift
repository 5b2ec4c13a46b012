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

    /// The numbers of the segment files in `directory`, ascending (other files are not segments).
    package static func numbers(in directory: String, fileSystem: any FileSystem) throws -> [UInt32] {
        try fileSystem.listDirectory(directory).compactMap(number(ofFileName:)).sorted()
    }

    /// Parses `NNNNNNNN.seg`; other names (`.torn` copies, temporaries) are not segments.
    package static func number(ofFileName name: String) -> UInt32? {
        guard name.count == 12, name.hasSuffix(".seg") else { return nil }
        return UInt32(name.prefix(8))
    }
}
