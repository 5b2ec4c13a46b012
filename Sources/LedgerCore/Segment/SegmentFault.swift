/// Why a segment file cannot be read as it should be: one fault type for every check of a
/// segment (header, frames, records, footer, and whether it fits its place in the ledger), so
/// that each check's wording exists once.
package struct SegmentFault: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Kind: Equatable, Sendable {
        /// A gap in the segment numbers: `segment` is not there.
        case missing(segment: UInt32)
        case headerCutOff
        case headerMalformed(String)
        case wrongNumber(UInt32)
        case otherLedger
        case wrongPosition(found: UInt64, expected: UInt64)
        case frameCutOff
        /// An LZ4 frame that fails its structure or checksums (the codec's reason).
        case frameMalformed(String)
        /// `contentOffset`: in format 2, the offset in the records the frame's blocks decode to.
        case recordMalformed(contentOffset: Int, reason: String)
        /// A format-2 block that does not decode; `contentOffset` is the block's offset in the frame.
        case blockMalformed(contentOffset: Int, reason: String)
        case bytesAfterFooter
        case footerDamaged
        case footerOfOtherSegment(UInt32)
        case footerMismatch
        case notSealed
    }

    package var kind: Kind
    package var file: String
    /// The byte offset of the header, frame or footer at fault (the end of the file for a
    /// missing footer).
    package var offset: Int

    package init(_ kind: Kind, file: String, offset: Int) {
        (self.kind, self.file, self.offset) = (kind, file, offset)
    }

    /// One sentence for people.
    package var message: String {
        switch kind {
        case .missing(let number): return "segment \(SegmentInfo.fileName(number)) is missing"
        case .headerCutOff: return "the segment header is cut off"
        case .headerMalformed(let reason): return reason
        case .wrongNumber(let number): return "the segment header says it is segment \(number)"
        case .otherLedger: return "the segment belongs to another ledger"
        case .wrongPosition(let found, let expected): return "the segment starts at record \(found), expected \(expected)"
        case .frameCutOff: return "a frame is cut off at the end of the segment"
        case .frameMalformed(let reason): return reason
        case .recordMalformed(let contentOffset, let reason):
            return "a record at content offset \(contentOffset) of the frame is malformed: \(reason)"
        case .blockMalformed(let contentOffset, let reason):
            return "the block at content offset \(contentOffset) of the frame is malformed: \(reason)"
        case .bytesAfterFooter: return "the segment has bytes after its footer"
        case .footerDamaged: return "the segment footer is damaged"
        case .footerOfOtherSegment(let number): return "the segment footer belongs to segment \(number)"
        case .footerMismatch: return "the segment footer does not match the segment's frames"
        case .notSealed: return "a segment other than the newest is not sealed"
        }
    }

    /// How the fault reads when it is a torn write cut away at the tail of the newest segment
    /// (the reason in `RecoveryReport`).
    package var tearReason: String {
        switch kind {
        case .headerCutOff, .headerMalformed: return "the segment header is incomplete"
        case .frameCutOff: return "the last frame is incomplete"
        default: return message
        }
    }

    package var description: String { error.description }

    /// The fault as the ledger reports it: corruption, naming the file and offset.
    package var error: LedgerError { .corrupt(message, file: file, offset: offset) }
}
