/// Walks the frames of one segment file held in memory, verifying every checksum.
///
/// Faults are reported with the file and the byte offset of the frame at fault. In the newest
/// segment a frame that fails at the very end of the file is a torn write, not corruption: the
/// scan stops there and reports the tear, which recovery truncates away
/// (Schemas/segment-format.md §5).
package struct SegmentScanner {
    package let path: String
    package let bytes: UnsafeRawBufferPointer
    package let decoder: LZ4FrameDecoder

    package init(path: String, bytes: UnsafeRawBufferPointer, decoder: LZ4FrameDecoder) {
        self.path = path
        self.bytes = bytes
        self.decoder = decoder
    }

    package enum Outcome: Equatable {
        /// Every frame decoded; `footerOffset` is set when the segment is sealed.
        case clean(header: SegmentHeader, footerOffset: Int?)
        /// The bytes from `offset` to the end are a torn write.
        case torn(header: SegmentHeader?, offset: Int, reason: String)
    }

    /// Scans every frame. `onData` receives each data frame's decompressed content and the
    /// frame's byte range, in file order.
    package func scan(
        tolerateTornTail: Bool,
        onData: (_ content: UnsafeRawBufferPointer, _ frameOffset: Int, _ frameEnd: Int) throws -> Void
    ) throws -> Outcome {
        let n = bytes.count
        let header: SegmentHeader
        switch SegmentHeader.decode(bytes) {
        case .success(let h): header = h
        case .failure(let fault):
            if tolerateTornTail && n <= SegmentHeader.frameSize {
                return .torn(header: nil, offset: 0, reason: "the segment header is incomplete")
            }
            if case .malformed(let reason) = fault { throw LedgerError.corrupt(reason, file: path, offset: 0) }
            throw LedgerError.corrupt("the segment header is cut off", file: path, offset: 0)
        }
        var offset = SegmentHeader.frameSize
        while offset < n {
            let step = examineFrame(at: offset)
            switch step {
            case .data(let end, let content):
                try onData(content, offset, end)
                offset = end
            case .footer(let end):
                guard end == n else {
                    throw LedgerError.corrupt("the segment has bytes after its footer", file: path, offset: end)
                }
                return .clean(header: header, footerOffset: offset)
            case .incomplete:
                if tolerateTornTail && !validFrameFollows(offset) {
                    return .torn(header: header, offset: offset, reason: "the last frame is incomplete")
                }
                throw LedgerError.corrupt("a frame is cut off at the end of the segment", file: path, offset: offset)
            case .bad(_, let reason):
                if tolerateTornTail && !validFrameFollows(offset) {
                    return .torn(header: header, offset: offset, reason: reason)
                }
                throw LedgerError.corrupt(reason, file: path, offset: offset)
            }
        }
        return .clean(header: header, footerOffset: nil)
    }

    private enum Step {
        case data(end: Int, content: UnsafeRawBufferPointer)
        case footer(end: Int)
        case incomplete
        /// A frame that fails; `end` is where it would end, if its length is known.
        case bad(end: Int?, reason: String)
    }

    private func examineFrame(at offset: Int) -> Step {
        let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
        guard rest.count >= 4 else { return .incomplete }
        switch rest.loadLE(UInt32.self, at: 0) {
        case LZ4Frame.magic:
            switch LZ4Frame.extent(of: rest) {
            case .incomplete: return .incomplete
            case .malformed(let reason): return .bad(end: nil, reason: reason)
            case .complete(let length, let contentSize):
                do {
                    let content = try decoder.decompress(
                        frame: UnsafeRawBufferPointer(rebasing: rest[0..<length]), contentSize: contentSize)
                    return .data(end: offset + length, content: content)
                } catch {
                    return .bad(end: offset + length, reason: "an LZ4 frame fails its checksum (\(error.reason))")
                }
            }
        case SegmentFooter.skippableMagic:
            guard rest.count >= 8 else { return .incomplete }
            let length = 8 + Int(rest.loadLE(UInt32.self, at: 4))
            guard length <= rest.count else { return .incomplete }
            guard SegmentFooter.decodeFrame(UnsafeRawBufferPointer(rebasing: rest[0..<length])) != nil else {
                return .bad(end: offset + length, reason: "the segment footer is damaged")
            }
            return .footer(end: offset + length)
        default:
            return .bad(end: nil, reason: "unknown frame magic")
        }
    }

    /// Whether a complete, valid frame starts anywhere after the failing frame at `offset`, which
    /// proves that the failure is corruption rather than a torn write at the tail: a damaged
    /// length or magic in the middle of a segment must not pass for a tear and cost the frames
    /// behind it. Only positions holding a frame magic are examined.
    private func validFrameFollows(_ offset: Int) -> Bool {
        var candidate = offset + 1
        while candidate + 4 <= bytes.count {
            // Both magics end in the bytes 4D 18: a cheap test before the full comparison.
            if bytes[candidate + 3] == 0x18, bytes[candidate + 2] == 0x4D,
               case let word = bytes.loadLE(UInt32.self, at: candidate),
               word == LZ4Frame.magic || word == SegmentFooter.skippableMagic {
                switch examineFrame(at: candidate) {
                case .data, .footer: return true
                case .incomplete, .bad: break
                }
            }
            candidate += 1
        }
        return false
    }
}
