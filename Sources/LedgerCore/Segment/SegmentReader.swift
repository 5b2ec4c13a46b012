/// Reads one segment file held in memory: the header, every frame with its checksums, every
/// record, the footer, and whether the segment fits its place in the ledger — every check of a
/// segment's frames, in one place (Schemas/segment-format.md §1–5). Reading only the header and
/// footer of a sealed segment is in `SegmentReader+Seal.swift`.
///
/// Faults name the file and the byte offset of the header, frame or footer at fault. What a
/// fault does depends on the policy: in the newest segment a frame that fails at the very end of
/// the file, with no valid frame behind it, is a torn write rather than corruption.
package struct SegmentReader {
    package enum Policy: Sendable, Equatable {
        /// Every fault throws (`forEachRecord`, `verify`).
        case strict
        /// A fault at the tail of a segment that need not be sealed is a torn write: reading
        /// stops there and reports the tear (opening the newest segment). Other faults throw.
        case tolerateTornTail
        /// Nothing in the file throws: reading stops at the first fault and reports it, after
        /// handing out every record before it (repair). Tears are tolerated as above.
        case salvage
    }

    /// What a segment must be to belong where it was found.
    package struct Expectation: Sendable {
        package var number: UInt32
        /// `nil`: not checked (a segment left by an interrupted `create`, before ledger.json).
        package var ledgerID: [UInt8]?
        /// The log position of its first record; `nil`: not checked here.
        package var firstRecordPosition: UInt64?
        /// Every segment but the newest must end in a footer, and only the newest may be torn.
        package var mustBeSealed: Bool
        /// Bytes acknowledged as durable (the newest segment's watermark, §5b): no tear can
        /// start before this offset, so a fault there is corruption under every policy.
        package var durableLength = 0
        /// What its records must be (the ledger's `records`, §6): under `.sealed` every record is
        /// checked as §3.6 says and `visit` is never called (a `RecordView` cannot show a sealed
        /// record): a reader takes them from `frameDone`'s frames (`SealedRecordStream`).
        package var records: LedgerRecords

        package init(number: UInt32, ledgerID: [UInt8]?, firstRecordPosition: UInt64? = nil, mustBeSealed: Bool,
                     records: LedgerRecords = .plain) {
            (self.number, self.ledgerID) = (number, ledgerID)
            (self.firstRecordPosition, self.mustBeSealed, self.records) = (firstRecordPosition, mustBeSealed, records)
        }

        /// The first way `header` does not fit, if any.
        package func check(_ header: SegmentHeader, path: String) -> SegmentFault? {
            if header.segmentNumber != number { return SegmentFault(.wrongNumber(header.segmentNumber), file: path, offset: 0) }
            if let ledgerID, header.ledgerID != ledgerID { return SegmentFault(.otherLedger, file: path, offset: 0) }
            if let expected = firstRecordPosition, header.firstRecordPosition != expected {
                return SegmentFault(.wrongPosition(found: header.firstRecordPosition, expected: expected), file: path, offset: 0)
            }
            return nil
        }
    }

    /// What a read found.
    package struct Outcome {
        package var header: SegmentHeader?
        /// The frames' summary, when the read was asked to summarise.
        package var summary = SegmentSummary()
        /// The footer's offset and summary, when the segment is sealed.
        package var footerOffset: Int?
        package var footer: SegmentSummary?
        /// A torn write: the bytes from `tear.offset` to the end are to be cut away.
        package var tear: SegmentFault?
        /// The first fault (salvage only; the other policies throw it).
        package var fault: SegmentFault?
        /// Whether the visitor ended the read early.
        package var stopped = false
        /// Records handed to the visitor.
        package var recordsRead: UInt64 = 0
        /// Each data frame read: its file offset and how many records were read before it.
        package var frameStarts: [(offset: Int, recordsBefore: UInt64)] = []
    }

    /// A data frame whose records were all handed out and checked: the frame as stored (the
    /// bytes a sync can send as they are, Schemas/sync-frames.md) and its decoded records. Both
    /// are valid only during the call that gets it.
    package struct Frame {
        /// The frame's byte offset in the file.
        package let offset: Int
        /// The LZ4 frame as the file holds it.
        package let stored: UnsafeRawBufferPointer
        /// Its records back to back (a raw record stream, §3), every one checked.
        package let records: UnsafeRawBufferPointer
        /// Records read before it in this read, and its own.
        package let recordsBefore: UInt64
        package let count: Int
        /// Whether it holds columnar blocks (format 2, §2a), as frames on the wire do.
        package let columnar: Bool
    }

    package let path: String
    package let policy: Policy
    package let expectation: Expectation
    let decoder: LZ4FrameDecoder
    let blockDecoder: ColumnarBlockDecoder

    /// A reader with decoders of its own (`decoder` may be shared: a reader per segment of one
    /// log, on one thread).
    package init(path: String, policy: Policy, expectation: Expectation, decoder: LZ4FrameDecoder = LZ4FrameDecoder()) {
        self.init(path: path, policy: policy, expectation: expectation, decoder: decoder, blockDecoder: ColumnarBlockDecoder())
    }

    init(path: String, policy: Policy, expectation: Expectation, decoder: LZ4FrameDecoder, blockDecoder: ColumnarBlockDecoder) {
        (self.path, self.policy, self.expectation, self.decoder) = (path, policy, expectation, decoder)
        (self.blockDecoder) = (blockDecoder)
    }

    private var toleratesTear: Bool { policy != .strict && !expectation.mustBeSealed }

    /// Reads `bytes` (the whole file), handing every record to `visit` with its frame's offset.
    /// With `summarize`, the frames' summary is built and a footer must match it.
    /// Throws `LedgerError(.corruption)` for a fault under the strict and torn-tail policies, and
    /// whatever `visit` throws.
    package func read(
        _ bytes: UnsafeRawBufferPointer, summarize: Bool = false,
        _ visit: (_ view: RecordView, _ frameOffset: Int) throws -> RecordIteration = { _, _ in .continue },
        frameDone: (Frame) throws -> RecordIteration = { _ in .continue }
    ) throws -> Outcome {
        var outcome = Outcome()
        do {
            try scan(bytes, summarize: summarize, into: &outcome, visit, frameDone)
        } catch let fault as SegmentFault {
            guard policy == .salvage else { throw fault.error }
            outcome.fault = fault
        }
        return outcome
    }

    /// Reads on from the data frame at `frameOffset` (a frame start this ledger recorded while
    /// reading or writing the segment): `header` is the file's first bytes (at least the header
    /// frame), `tail` the file from `frameOffset` to its end. Faults and `visit` get file offsets.
    /// Only the strict policy: a resumed read never judges tears.
    /// `frameDone` gets each data frame once `visit` had its records.
    package func read(
        header: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer, at frameOffset: Int,
        _ visit: (_ view: RecordView, _ frameOffset: Int) throws -> RecordIteration,
        frameDone: (Frame) throws -> RecordIteration = { _ in .continue }
    ) throws -> Outcome {
        precondition(policy == .strict && frameOffset >= SegmentHeader.frameSize)
        var outcome = Outcome()
        do {
            guard let columnar = try checkHeader(header, into: &outcome) else { return outcome }
            try scanFrames(tail, base: frameOffset, columnar: columnar, summarize: false, into: &outcome, visit, frameDone)
        } catch let fault as SegmentFault {
            throw fault.error
        }
        return outcome
    }

    private func scan(
        _ bytes: UnsafeRawBufferPointer, summarize: Bool, into outcome: inout Outcome,
        _ visit: (RecordView, Int) throws -> RecordIteration, _ frameDone: (Frame) throws -> RecordIteration
    ) throws {
        guard let columnar = try checkHeader(bytes, into: &outcome) else { return }
        try scanFrames(UnsafeRawBufferPointer(rebasing: bytes[SegmentHeader.frameSize...]), base: SegmentHeader.frameSize,
                       columnar: columnar, summarize: summarize, into: &outcome, visit, frameDone)
    }

    /// Checks the header frame at the start of `bytes`: whether the segment is columnar (format
    /// 2), or `nil` for a header torn off at the end of a segment that may be torn.
    private func checkHeader(_ bytes: UnsafeRawBufferPointer, into outcome: inout Outcome) throws -> Bool? {
        switch SegmentHeader.decode(bytes) {
        case .success(let header):
            outcome.header = header
            if let fault = expectation.check(header, path: path) { throw fault }
            return header.formatVersion >= 2
        case .failure(let failure):
            let kind: SegmentFault.Kind
            if case .malformed(let reason) = failure { kind = .headerMalformed(reason) } else { kind = .headerCutOff }
            let fault = SegmentFault(kind, file: path, offset: 0)
            guard toleratesTear && bytes.count <= SegmentHeader.frameSize && expectation.durableLength == 0 else { throw fault }
            outcome.tear = fault
            return nil
        }
    }

    /// Every frame of `bytes`, the file from offset `base` to its end.
    private func scanFrames(
        _ bytes: UnsafeRawBufferPointer, base: Int, columnar: Bool, summarize: Bool, into outcome: inout Outcome,
        _ visit: (RecordView, Int) throws -> RecordIteration, _ frameDone: (Frame) throws -> RecordIteration
    ) throws {
        let n = bytes.count
        let frames = SegmentFrames(bytes: bytes, decoder: decoder)
        var offset = 0
        while offset < n {
            let fileOffset = base + offset
            switch frames.examine(at: offset) {
            case .data(let end, let content):
                let records = try columnar ? decodeBlocks(content, frameOffset: fileOffset) : content
                if summarize { outcome.summary.addFrame(rawBytes: records.count) }
                let before = outcome.recordsRead
                outcome.frameStarts.append((fileOffset, before))
                if try self.records(in: records, frameOffset: fileOffset, summarize: summarize, into: &outcome, visit) == .stop {
                    outcome.stopped = true
                    return
                }
                let frame = Frame(offset: fileOffset, stored: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]),
                                  records: records, recordsBefore: before, count: Int(outcome.recordsRead - before), columnar: columnar)
                if try frameDone(frame) == .stop {
                    outcome.stopped = true
                    return
                }
                offset = end
            case .footer(let end):
                guard end == n else { throw SegmentFault(.bytesAfterFooter, file: path, offset: base + end) }
                let footer = SegmentFooter.decodeFrame(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                outcome.footerOffset = fileOffset
                outcome.footer = footer?.summary
                if summarize && footer?.summary != outcome.summary {
                    throw SegmentFault(.footerMismatch, file: path, offset: fileOffset)
                }
                return
            case .fault(let kind):
                let fault = SegmentFault(kind, file: path, offset: fileOffset)
                guard toleratesTear && fileOffset >= expectation.durableLength && !frames.validFrameFollows(offset) else {
                    throw fault
                }
                outcome.tear = fault
                return
            }
        }
        if expectation.mustBeSealed { throw SegmentFault(.notSealed, file: path, offset: base + n) }
    }

    /// The raw record stream of a format-2 frame; a malformed block is a fault of the frame.
    private func decodeBlocks(_ content: UnsafeRawBufferPointer, frameOffset: Int) throws -> UnsafeRawBufferPointer {
        do {
            return try blockDecoder.decode(content)
        } catch {
            throw SegmentFault(.blockMalformed(contentOffset: error.offset, reason: error.reason), file: path, offset: frameOffset)
        }
    }

    /// Hands out the records of one frame; a malformed record is a fault of the frame.
    private func records(
        in content: UnsafeRawBufferPointer, frameOffset: Int, summarize: Bool, into outcome: inout Outcome,
        _ visit: (RecordView, Int) throws -> RecordIteration
    ) throws -> RecordIteration {
        do {
            if expectation.records == .sealed {
                try SealedRecordStream.forEach(in: content) { view in
                    if summarize { outcome.summary.add(view) }
                    outcome.recordsRead += 1
                }
                return .continue
            }
            return try RecordStream.forEach(in: content) { (view) throws -> RecordIteration in
                if summarize { outcome.summary.add(view) }
                outcome.recordsRead += 1
                return try visit(view, frameOffset)
            }
        } catch let fault as RecordStream.Fault {
            throw SegmentFault(.recordMalformed(contentOffset: fault.offset, reason: fault.reason), file: path, offset: frameOffset)
        }
    }
}
