/// The summary of the newest, unsealed segment as of its last durable append, kept in
/// `segments/NNNNNNNN.seg.summary` so that opening a ledger need not scan that segment
/// (Schemas/segment-format.md §6).
///
/// It is a cache, never the truth: it is written after the append's fsync (and not fsynced
/// itself), and opening uses it only when the segment file is exactly as long as it says and
/// the segment's last bytes have the checksum it recorded. Anything else — a missing, torn,
/// stale or damaged checkpoint — makes opening scan the segment as before.
struct ActiveSegmentCheckpoint: Equatable {
    static let magic: [UInt8] = Array("ORTSCKPT".utf8)
    static let formatVersion: UInt32 = 1
    /// How many bytes at the end of the segment the tail checksum covers.
    static let tailLength = 4096
    /// magic, version, segment number, covered length, tail crc, footer length.
    static let fixedSize = 8 + 4 + 4 + 8 + 4 + 4

    var segmentNumber: UInt32
    /// The segment file's length when the checkpoint was written.
    var coveredLength: Int
    /// CRC-32C of the segment's last `min(tailLength, coveredLength)` bytes.
    var tailChecksum: UInt32
    var summary: SegmentSummary

    static func fileName(_ segment: UInt32) -> String { SegmentInfo.fileName(segment) + ".summary" }

    static func isFileName(_ name: String) -> Bool {
        name.count == 20 && name.hasSuffix(".seg.summary") && SegmentInfo.number(ofFileName: String(name.prefix(12))) != nil
    }

    init(segmentNumber: UInt32, coveredLength: Int, tailChecksum: UInt32, summary: SegmentSummary) {
        (self.segmentNumber, self.coveredLength) = (segmentNumber, coveredLength)
        (self.tailChecksum, self.summary) = (tailChecksum, summary)
    }

    func encoded() -> [UInt8] {
        let footer = SegmentFooter.encode(summary, segmentNumber: segmentNumber)
        var w = ByteWriter()
        w.append(Self.magic)
        w.put(Self.formatVersion)
        w.put(segmentNumber)
        w.put(UInt64(coveredLength))
        w.put(tailChecksum)
        w.put(UInt32(footer.count))
        w.append(footer)
        w.put(CRC32C.checksum(w.bytes))
        return w.bytes
    }

    /// Why a checkpoint file cannot be used, with the offset of the first bad byte where known.
    struct Fault: Error, Equatable {
        var reason: String
        var offset: Int
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) -> Result<ActiveSegmentCheckpoint, Fault> {
        guard bytes.count >= fixedSize + 4 else {
            return .failure(Fault(reason: "the checkpoint is truncated", offset: bytes.count))
        }
        let body = bytes.count - 4
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<body])) == bytes.loadLE(UInt32.self, at: body) else {
            return .failure(Fault(reason: "the checkpoint checksum does not match", offset: body))
        }
        guard Array(bytes[0..<8]) == magic else { return .failure(Fault(reason: "the checkpoint magic is wrong", offset: 0)) }
        let version = bytes.loadLE(UInt32.self, at: 8)
        guard version == formatVersion else {
            return .failure(Fault(reason: "checkpoint format version \(version) is not supported", offset: 8))
        }
        let footerLength = Int(bytes.loadLE(UInt32.self, at: 28))
        guard fixedSize + footerLength == body,
              let footer = SegmentFooter.decodeFrame(UnsafeRawBufferPointer(rebasing: bytes[fixedSize..<body]))
        else { return .failure(Fault(reason: "the checkpoint's summary is malformed", offset: fixedSize)) }
        let number = bytes.loadLE(UInt32.self, at: 12)
        guard footer.segmentNumber == number else {
            return .failure(Fault(reason: "the checkpoint's summary belongs to segment \(footer.segmentNumber)", offset: fixedSize))
        }
        let covered = bytes.loadLE(UInt64.self, at: 16)
        guard covered <= UInt64(Int.max) else { return .failure(Fault(reason: "the covered length is out of range", offset: 16)) }
        return .success(ActiveSegmentCheckpoint(segmentNumber: number, coveredLength: Int(covered),
                                                tailChecksum: bytes.loadLE(UInt32.self, at: 24), summary: footer.summary))
    }

    /// The checksum of the last `tailLength` bytes of a segment `length` bytes long.
    static func tailRange(length: Int) -> (offset: Int, length: Int) {
        let n = min(tailLength, length)
        return (length - n, n)
    }
}
