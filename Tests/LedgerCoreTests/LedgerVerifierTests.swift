import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCore

/// `Ledger.verify` beyond the checksums: the seq continuity of every device across frames.
@Suite struct LedgerVerifierTests {
    /// The device's name (frame 1) and three appends (frames 2–4: seqs 1, 2, 3), then seq 2's frame cut out of the
    /// segment (each frame checks on its own, so only the continuity can tell): verify names the
    /// jump, the segment file and the offset of the frame after the hole.
    @Test func aMissingFrameIsASeqJumpNamingFileAndOffset() throws {
        let dir = try TemporaryDirectory("verify-gap")
        defer { dir.remove() }
        let path = dir.sub("l")
        let ledger = try Ledger.create(directory: path, deviceName: "a", clock: FixedClock(milliseconds: 1_700_000_000_000))
        for station in [11, 12, 13] as [UInt32] {
            _ = try ledger.appendLocal([StationEditDraft(station: station, compDate: .year(2015), memo: nil)])
        }
        let device = ledger.localDevice
        #expect(try ledger.verify().events == 3)
        ledger.close()

        let segment = path + "/segments/00000001.seg"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: segment)))
        let magic: [UInt8] = [0x04, 0x22, 0x4d, 0x18]  // an LZ4 frame's magic number, little-endian
        let frames = (0...(bytes.count - 4)).filter { Array(bytes[$0..<$0 + 4]) == magic }
        try #require(frames.count == 4, "the name's frame, then one frame per append: \(frames)")
        let cut = Array(bytes[..<frames[2]] + bytes[frames[3]...])
        try Data(cut).write(to: URL(fileURLWithPath: segment))
        try? FileManager.default.removeItem(atPath: path + "/segments/" + ActiveSegmentCheckpoint.fileName(1))
        // Shorter than its watermark, the segment would be refused at open as missing
        // acknowledged bytes; here the point is what verify finds in frames that all check.
        try WatermarkRewind.rewind(segment, to: cut.count, fileSystem: PosixFileSystem())

        let damaged = try Ledger.open(directory: path)
        defer { damaged.close() }
        let error = try #require(throws: LedgerError.self) { try damaged.verify() }
        #expect(error.category == .corruption)
        #expect(error.message.contains("device \(device)'s events jump from seq 1 to 3"), "\(error.message)")
        #expect(error.file == segment && error.offset == frames[2], "\(String(describing: error.file)) \(String(describing: error.offset))")
    }
}
