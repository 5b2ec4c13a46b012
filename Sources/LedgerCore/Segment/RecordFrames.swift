/// Records as the data frames of a format-2 segment (Schemas/segment-format.md §2, §2a: LZ4
/// frames with checksums, holding columnar blocks), without the segment around them: the sync
/// API's binary batches carry them (Schemas/sync-frames.md), so that what a device reads from its
/// log, the server stores and serves, and another device appends is one format, never re-encoded
/// as text.
package enum RecordFrames {
    /// Why frames were refused: `offset` is the byte of the frames where the faulty frame starts.
    package struct Fault: Error, Sendable {
        package var offset: Int
        package var reason: String
        /// The index (in the whole body) of the record that is malformed, when the frame and its
        /// blocks are sound but a record in it is not.
        package var record: Int?

        package init(offset: Int, reason: String, record: Int? = nil) {
            (self.offset, self.reason, self.record) = (offset, reason, record)
        }
    }

    /// Frames as they were received and checked (a frames body's) or read from a segment, with
    /// how many there are: a ledger appends them as they are when it takes every record in them,
    /// in their order (`Ledger.append(_:visit:)` of an `EncodedRecords` that kept them), and a
    /// pull answer sends them as they are, instead of encoding the records again.
    package struct Received: Sendable {
        package private(set) var bytes: [UInt8]
        /// How many records each frame holds, in order (a store that keeps frames one by one,
        /// the PostgreSQL store, cuts `bytes` with `LZ4Frame.extent` and needs no decoding).
        package private(set) var counts: [Int]
        package var frameCount: Int { counts.count }

        package init(bytes: [UInt8], counts: [Int]) {
            (self.bytes, self.counts) = (bytes, counts)
        }

        /// Adds one more frame of `count` records, as stored (a checked data frame of a format-2 segment).
        package mutating func append(stored frame: UnsafeRawBufferPointer, count: Int) {
            bytes.append(contentsOf: frame)
            counts.append(count)
        }

        /// Adds `other`'s frames after these.
        package mutating func append(contentsOf other: Received) {
            bytes.append(contentsOf: other.bytes)
            counts.append(contentsOf: other.counts)
        }

        /// Adds one frame of `block`, a valid block (segment-format.md §2a) of `count` records.
        package mutating func append(compressing block: UnsafeRawBufferPointer, count: Int) {
            LZ4Frame.compress(block, appendingTo: &bytes)
            counts.append(count)
        }

        /// The frames a batch of records keeps as it takes one more stored frame whole (its
        /// `append(frame:)`): `kept`, what it kept so far, with this frame added in place when the
        /// frame is columnar (format 2, as frames on the wire are) and the batch was empty or
        /// came only of whole frames so far; nil otherwise (the batch is then encoded anew).
        package static func extend(_ kept: inout Received?, batchWasEmpty: Bool, with frame: SegmentReader.Frame) {
            guard frame.columnar, batchWasEmpty || kept != nil else {
                kept = nil
                return
            }
            if kept == nil { kept = Received(bytes: [], counts: []) }
            kept?.append(stored: frame.stored, count: frame.count)
        }

        /// Each frame's bytes (one whole LZ4 frame) and how many records it holds, in order.
        package func forEachFrame(_ body: (UnsafeRawBufferPointer, Int) throws -> Void) rethrows {
            try bytes.withUnsafeBytes { all in
                var offset = 0
                for count in counts {
                    guard case .complete(let length, _) = LZ4Frame.extent(of: UnsafeRawBufferPointer(rebasing: all[offset...])) else {
                        preconditionFailure("received frames were checked whole")
                    }
                    try body(UnsafeRawBufferPointer(rebasing: all[offset..<(offset + length)]), count)
                    offset += length
                }
            }
        }
    }

    /// Frames into which records are written; one per thread (it keeps scratch memory).
    package final class Writer {
        private let blockEncoder = ColumnarBlockEncoder()
        private var blocks: [UInt8] = []

        package init() {}

        /// Appends frames holding `records` (whole, valid records back to back, as a segment holds
        /// them) to `output`, starting a new frame before one would pass the writer's content
        /// limit, as a segment writer does. Returns how many records each frame holds.
        @discardableResult
        package func encode(_ records: UnsafeRawBufferPointer, appendingTo output: inout [UInt8]) -> [Int] {
            guard let base = records.baseAddress, records.count > 0 else { return [] }
            var frameStart = 0
            var offset = 0
            var counts: [Int] = [], count = 0
            // Records were validated when they were read or encoded: only their lengths are read.
            while offset < records.count {
                let length = RecordStream.validatedLength(at: base + offset)
                if offset > frameStart && offset - frameStart + length > ColumnarBlock.writerContentLimit {
                    frame(UnsafeRawBufferPointer(rebasing: records[frameStart..<offset]), into: &output)
                    counts.append(count)
                    frameStart = offset
                    count = 0
                }
                offset += length
                count += 1
            }
            frame(UnsafeRawBufferPointer(rebasing: records[frameStart..<offset]), into: &output)
            counts.append(count)
            return counts
        }

        private func frame(_ records: UnsafeRawBufferPointer, into output: inout [UInt8]) {
            blocks.removeAll(keepingCapacity: true)
            blockEncoder.encode(records, appendingTo: &blocks)
            blocks.withUnsafeBytes { LZ4Frame.compress($0, appendingTo: &output) }
        }
    }

    /// Frames from elsewhere, checked as a segment reader checks its own: every LZ4 checksum, every
    /// block's structure and every record (§2a, §3). One per thread.
    package final class Reader {
        private let decoder = LZ4FrameDecoder()
        private let blockDecoder = ColumnarBlockDecoder()

        package init() {}

        /// Calls `visit` for every record of `frames` in order and returns how many records each
        /// frame holds. Anything but whole, valid data frames (a cut, a checksum, a malformed
        /// block or record, another kind of frame, a sealed record) throws.
        @discardableResult
        package func forEachRecord(in frames: UnsafeRawBufferPointer, _ visit: (RecordView) throws -> Void) throws -> [Int] {
            try forEachFrame(in: frames) { records, visited in
                try RecordStream.forEach(in: records) { (view: RecordView) throws -> Void in
                    try visit(view)
                    visited += 1
                }
            }
        }

        /// The same for an encrypted account's frames, which hold sealed records only
        /// (segment-format.md §3.6): a plaintext record in them throws.
        @discardableResult
        package func forEachSealedRecord(in frames: UnsafeRawBufferPointer, _ visit: (SealedRecordView) throws -> Void) throws -> [Int] {
            try forEachFrame(in: frames) { records, visited in
                try SealedRecordStream.forEach(in: records) { view in
                    try visit(view)
                    visited += 1
                }
            }
        }

        /// Checks and decodes each frame of `frames`, then hands its records to `walk`, which
        /// counts in `visited` the records it has taken (a fault's record index).
        private func forEachFrame(
            in frames: UnsafeRawBufferPointer, _ walk: (UnsafeRawBufferPointer, inout Int) throws -> Void
        ) throws -> [Int] {
            var offset = 0
            var visited = 0
            var counts: [Int] = []
            while offset < frames.count {
                let rest = UnsafeRawBufferPointer(rebasing: frames[offset...])
                let content: UnsafeRawBufferPointer
                let length: Int
                switch LZ4Frame.extent(of: rest) {
                case .incomplete: throw Fault(offset: offset, reason: "the frame is cut off")
                case .malformed(let reason): throw Fault(offset: offset, reason: reason)
                case .complete(let frameLength, let contentSize):
                    length = frameLength
                    do {
                        content = try decoder.decompress(frame: UnsafeRawBufferPointer(rebasing: rest[0..<length]),
                                                         contentSize: contentSize)
                    } catch {
                        throw Fault(offset: offset, reason: "an LZ4 frame fails its checksum (\(error.reason))")
                    }
                }
                let records: UnsafeRawBufferPointer
                do { records = try blockDecoder.decode(content) } catch {
                    throw Fault(offset: offset, reason: "a block is malformed at byte \(error.offset) of its frame: \(error.reason)")
                }
                let before = visited
                do {
                    try walk(records, &visited)
                } catch let fault as RecordStream.Fault {
                    throw Fault(offset: offset, reason: fault.reason, record: visited)
                }
                offset += length
                counts.append(visited - before)
            }
            return counts
        }

        /// The records of one whole frame as stored (`Received.forEachFrame`, a PostgreSQL row),
        /// every checksum, block and record checked as `forEachRecord` checks them: a frame whose
        /// records are valid only until the next call, for `PullPage.take`.
        /// `records`: what the frame must hold, plaintext records or an encrypted account's sealed
        /// ones (segment-format.md §3.6); the other form throws.
        package func frame(_ stored: UnsafeRawBufferPointer, recordsBefore: UInt64 = 0,
                           records form: LedgerRecords = .plain) throws -> SegmentReader.Frame {
            guard case .complete(let length, let contentSize) = LZ4Frame.extent(of: stored), length == stored.count else {
                throw Fault(offset: 0, reason: "the bytes are not one whole LZ4 frame")
            }
            let content: UnsafeRawBufferPointer
            do { content = try decoder.decompress(frame: stored, contentSize: contentSize) } catch {
                throw Fault(offset: 0, reason: "an LZ4 frame fails its checksum (\(error.reason))")
            }
            let records: UnsafeRawBufferPointer
            do { records = try blockDecoder.decode(content) } catch {
                throw Fault(offset: 0, reason: "a block is malformed at byte \(error.offset) of its frame: \(error.reason)")
            }
            var count = 0
            do {
                switch form {
                case .plain: try RecordStream.forEach(in: records) { (_: RecordView) throws -> Void in count += 1 }
                case .sealed: try SealedRecordStream.forEach(in: records) { _ in count += 1 }
                }
            } catch let fault as RecordStream.Fault {
                throw Fault(offset: 0, reason: fault.reason, record: count)
            }
            return SegmentReader.Frame(offset: 0, stored: stored, records: records, recordsBefore: recordsBefore, count: count, columnar: true)
        }
    }
}
