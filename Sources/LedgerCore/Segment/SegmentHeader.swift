/// The first frame of every segment: an LZ4 skippable frame (magic 0x184D2A50) whose payload
/// names the format, the ledger and the segment's place in the log
/// (Schemas/segment-format.md §1).
package struct SegmentHeader: Equatable, Sendable {
    package static let skippableMagic: UInt32 = 0x184D_2A50
    package static let payloadMagic: [UInt8] = Array("ORTSBSEG".utf8)
    /// Format 1 stores each frame's records row by row (§3), format 2 column by column (§2a).
    /// New segments are written in the newest format; a segment keeps its format for life.
    package static let currentFormatVersion: UInt16 = 2
    package static let readableFormatVersions: ClosedRange<UInt16> = 1...2
    package static let payloadSize = 44
    /// The frame: 8 bytes of skippable-frame header plus the payload.
    package static let frameSize = 8 + payloadSize

    package var formatVersion: UInt16
    package var segmentNumber: UInt32
    package var ledgerID: [UInt8]  // 16 bytes
    /// How many records all earlier segments hold: the log position of this segment's first record.
    package var firstRecordPosition: UInt64

    package init(segmentNumber: UInt32, ledgerID: [UInt8], firstRecordPosition: UInt64,
                 formatVersion: UInt16 = currentFormatVersion) {
        (self.formatVersion, self.segmentNumber) = (formatVersion, segmentNumber)
        (self.ledgerID, self.firstRecordPosition) = (ledgerID, firstRecordPosition)
    }

    package func encoded() -> [UInt8] {
        var bytes = ByteWriter()
        bytes.put(Self.skippableMagic)
        bytes.put(UInt32(Self.payloadSize))
        bytes.append(Self.payloadMagic)
        bytes.put(formatVersion)
        bytes.put(UInt16(0))
        bytes.put(segmentNumber)
        bytes.append(ledgerID)
        bytes.put(firstRecordPosition)
        bytes.put(CRC32C.checksum(Array(bytes.bytes[8...])))
        return bytes.bytes
    }

    /// Decodes the header frame at the start of `bytes`; `nil` with a reason if malformed.
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> Result<SegmentHeader, SegmentFormatFault> {
        guard bytes.count >= frameSize else { return .failure(.incomplete) }
        guard bytes.loadLE(UInt32.self, at: 0) == skippableMagic,
              bytes.loadLE(UInt32.self, at: 4) == UInt32(payloadSize),
              Array(bytes[8..<16]) == payloadMagic
        else { return .failure(.malformed("the segment header is missing")) }
        let crc = bytes.loadLE(UInt32.self, at: frameSize - 4)
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[8..<frameSize - 4])) == crc else {
            return .failure(.malformed("the segment header checksum does not match"))
        }
        let version = bytes.loadLE(UInt16.self, at: 16)
        guard readableFormatVersions.contains(version) else {
            return .failure(.malformed(
                "segment format version \(version) is not supported (this build reads \(readableFormatVersions.lowerBound) to \(readableFormatVersions.upperBound))"))
        }
        guard bytes.loadLE(UInt16.self, at: 18) == 0 else { return .failure(.malformed("the segment header has unknown flags")) }
        return .success(SegmentHeader(
            segmentNumber: bytes.loadLE(UInt32.self, at: 20),
            ledgerID: Array(bytes[24..<40]),
            firstRecordPosition: bytes.loadLE(UInt64.self, at: 40),
            formatVersion: version))
    }
}

/// Why a segment's own metadata frame could not be read.
package enum SegmentFormatFault: Error, Equatable {
    case incomplete
    case malformed(String)
}

/// Little-endian byte assembly for metadata frames.
struct ByteWriter {
    var bytes: [UInt8] = []
    init() {}
    mutating func put<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    mutating func append(_ more: [UInt8]) { bytes.append(contentsOf: more) }
}
