extension SegmentReader {
    /// Reads a sealed segment's header and footer only, never its frames: what opening does for
    /// every segment but the newest, so that opening costs one segment, not the log.
    ///
    /// Returns `nil` when the segment is not sealed (or its header or footer does not decode) and
    /// `expectation` allows that: the newest segment, which is then scanned instead.
    package static func readSeal(path: String, expectation: Expectation, fileSystem: any FileSystem) throws -> SegmentInfo? {
        let mayBeOpen = !expectation.mustBeSealed
        let size = try fileSystem.fileSize(path)
        let headerBytes = try fileSystem.readFile(path, offset: 0, length: SegmentHeader.frameSize)
        let header: SegmentHeader
        switch headerBytes.withUnsafeBytes({ SegmentHeader.decode($0) }) {
        case .success(let decoded): header = decoded
        case .failure(let failure):
            if mayBeOpen { return nil }
            if case .malformed(let reason) = failure { throw SegmentFault(.headerMalformed(reason), file: path, offset: 0).error }
            throw SegmentFault(.headerCutOff, file: path, offset: 0).error
        }
        let (tail, trailing) = try readTrailing(path: path, size: size, fileSystem: fileSystem)
        switch trailing {
        case .sealed(let summary, let footerNumber, _):
            if let fault = expectation.check(header, path: path) { throw fault.error }
            guard footerNumber == expectation.number else {
                throw SegmentFault(.footerOfOtherSegment(footerNumber), file: path, offset: size - tail).error
            }
            return SegmentInfo(number: expectation.number, path: path, header: header, summary: summary, sealed: true, fileSize: size)
        case .damaged(let frameOffset):
            if mayBeOpen { return nil }
            throw SegmentFault(.footerDamaged, file: path, offset: size - tail + frameOffset).error
        case .absent:
            if mayBeOpen { return nil }
            throw SegmentFault(.notSealed, file: path, offset: size).error
        }
    }

    /// The footer at the end of the file: a 64 KiB probe, then exactly the footer's length if it
    /// is longer (many devices). Returns how many bytes were read from the end, and the footer.
    private static func readTrailing(path: String, size: Int, fileSystem: any FileSystem) throws -> (Int, SegmentFooter.Trailing) {
        let probe = min(size, 1 << 16)
        var tail = try fileSystem.readFile(path, offset: size - probe, length: probe)
        var trailing = tail.withUnsafeBytes { SegmentFooter.decodeTrailing($0) }
        if case .absent = trailing, probe < size, tail.count >= 8 {
            let length = Int(tail.withUnsafeBytes { $0.loadLE(UInt32.self, at: $0.count - 8) }) + 8
            if length > probe && length <= size {
                tail = try fileSystem.readFile(path, offset: size - length, length: length)
                trailing = tail.withUnsafeBytes { SegmentFooter.decodeTrailing($0) }
            }
        }
        return (tail.count, trailing)
    }

    /// The footer's summary of a whole segment file in memory, if the footer is intact and
    /// belongs to segment `number`, however damaged the frames before it are (repair uses the
    /// ranges it shows).
    package static func intactFooter(of bytes: UnsafeRawBufferPointer, number: UInt32) -> SegmentSummary? {
        guard case .sealed(let summary, let footerNumber, _) = SegmentFooter.decodeTrailing(bytes), footerNumber == number
        else { return nil }
        return summary
    }
}
