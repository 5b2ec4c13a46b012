import LedgerCore

/// Puts a segment's watermark (Schemas/segment-format.md §5b) where a crash in the middle of an
/// append would have left it: at the end of the last acknowledged append. A test that cuts or
/// damages bytes past it models a torn write; without this, the same cut is lost acknowledged
/// data, which opening refuses as corruption.
package enum WatermarkRewind {
    /// Rewinds the watermark of `segmentPath` to `length`, or removes it when not even the
    /// segment's first append was acknowledged (`length` nil).
    package static func rewind(_ segmentPath: String, to length: Int?, fileSystem: any FileSystem) throws {
        let name = Path.lastComponent(segmentPath)
        guard let number = UInt32(name.prefix(8)) else { preconditionFailure("not a segment: \(segmentPath)") }
        let path = SegmentWatermark.path(of: number, segmentsPath: Path.parent(of: segmentPath))
        try fileSystem.removeFileIfPresent(path)
        guard let length else { return }
        let mark = SegmentWatermark(segmentNumber: number, generation: 1, durableLength: length, localSeq: 0)
        let file = try fileSystem.openForAppend(path, create: true)
        defer { file.close() }
        try mark.encodedFile().withUnsafeBytes { try file.write($0) }
        try file.sync()
    }
}
