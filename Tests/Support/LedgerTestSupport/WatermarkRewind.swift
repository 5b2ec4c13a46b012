import Foundation
import LedgerCore

/// Puts a segment's watermark (Schemas/segment-format.md §5b) where a crash in the middle of an
/// append would have left it: at the end of the last acknowledged append. A test that cuts or
/// damages bytes past it models a torn write; without this, the same cut is lost acknowledged
/// data, which opening refuses as corruption.
package enum WatermarkRewind {
    /// Rewinds the watermark of `segmentPath` to `length`, or, when not even the segment's first
    /// append was acknowledged (`length` nil), to what creating the segment leaves: generation 1
    /// claiming nothing (durable length 0). The segment's checkpoint goes too: it is written
    /// after an append's watermark, never synced, so that crash may have lost it, and one left
    /// covering more than the rewound watermark would rightly read as a stale watermark.
    package static func rewind(_ segmentPath: String, to length: Int?, fileSystem: any FileSystem) throws {
        let (number, path) = watermark(of: segmentPath)
        try fileSystem.removeFileIfPresent(path)
        try fileSystem.removeFileIfPresent(segmentPath + ".summary")
        let mark = SegmentWatermark(segmentNumber: number, generation: 1, durableLength: length ?? 0, localSeq: 0)
        let file = try fileSystem.openForAppend(path, create: true)
        defer { file.close() }
        try mark.encodedFile().withUnsafeBytes { try file.write($0) }
        try file.sync()
    }

    /// A segment written before watermarks (§6: a ledger without `watermarked_from`): removes
    /// the watermark of `segmentPath` and the field from the ledger's `ledger.json`.
    package static func makeUnwatermarked(_ segmentPath: String, fileSystem: any FileSystem) throws {
        try fileSystem.removeFileIfPresent(watermark(of: segmentPath).path)
        try forgetWatermarkedFrom(ledger: Path.parent(of: Path.parent(of: segmentPath)), fileSystem: fileSystem)
    }

    /// Rewrites `ledger/ledger.json` as a build before `watermarked_from` wrote it.
    package static func forgetWatermarkedFrom(ledger directory: String, fileSystem: any FileSystem) throws {
        let path = Path.join(directory, LedgerMetadata.fileName)
        var metadata = try LedgerMetadata.decode(try fileSystem.readFile(path), path: path)
        metadata.watermarkedFrom = nil
        try fileSystem.writeAtomically(path, metadata.encoded())
    }

    private static func watermark(of segmentPath: String) -> (number: UInt32, path: String) {
        let name = Path.lastComponent(segmentPath)
        guard let number = UInt32(name.prefix(8)) else { preconditionFailure("not a segment: \(segmentPath)") }
        return (number, SegmentWatermark.path(of: number, segmentsPath: Path.parent(of: segmentPath)))
    }
}
