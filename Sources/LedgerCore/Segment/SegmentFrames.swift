/// The frames of one segment file held in memory, examined one at a time with every checksum
/// verified (the frame-level half of `SegmentReader`).
struct SegmentFrames {
    let bytes: UnsafeRawBufferPointer
    let decoder: LZ4FrameDecoder

    enum Step {
        case data(end: Int, content: UnsafeRawBufferPointer)
        case footer(end: Int)
        case fault(SegmentFault.Kind)
    }

    func examine(at offset: Int) -> Step {
        let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
        guard rest.count >= 4 else { return .fault(.frameCutOff) }
        switch rest.loadLE(UInt32.self, at: 0) {
        case LZ4Frame.magic:
            switch LZ4Frame.extent(of: rest) {
            case .incomplete: return .fault(.frameCutOff)
            case .malformed(let reason): return .fault(.frameMalformed(reason))
            case .complete(let length, let contentSize):
                do {
                    let content = try decoder.decompress(
                        frame: UnsafeRawBufferPointer(rebasing: rest[0..<length]), contentSize: contentSize)
                    return .data(end: offset + length, content: content)
                } catch {
                    return .fault(.frameMalformed("an LZ4 frame fails its checksum (\(error.reason))"))
                }
            }
        case SegmentFooter.skippableMagic:
            guard rest.count >= 8 else { return .fault(.frameCutOff) }
            let length = 8 + Int(rest.loadLE(UInt32.self, at: 4))
            guard length <= rest.count else { return .fault(.frameCutOff) }
            guard SegmentFooter.decodeFrame(UnsafeRawBufferPointer(rebasing: rest[0..<length])) != nil else {
                return .fault(.footerDamaged)
            }
            return .footer(end: offset + length)
        default:
            return .fault(.frameMalformed("unknown frame magic"))
        }
    }

    /// Whether a complete, valid frame starts anywhere after the failing frame at `offset`, which
    /// proves that the failure is corruption rather than a torn write at the tail: a damaged
    /// length or magic in the middle of a segment must not pass for a tear and cost the frames
    /// behind it. Only positions holding a frame magic are examined.
    func validFrameFollows(_ offset: Int) -> Bool {
        var candidate = offset + 1
        while candidate + 4 <= bytes.count {
            // Both magics end in the bytes 4D 18: a cheap test before the full comparison.
            if bytes[candidate + 3] == 0x18, bytes[candidate + 2] == 0x4D,
               case let word = bytes.loadLE(UInt32.self, at: candidate),
               word == LZ4Frame.magic || word == SegmentFooter.skippableMagic {
                switch examine(at: candidate) {
                case .data, .footer: return true
                case .fault: break
                }
            }
            candidate += 1
        }
        return false
    }
}
