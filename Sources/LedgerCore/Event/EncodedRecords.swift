/// Records as their canonical encodings back to back (a raw record stream,
/// Schemas/segment-format.md §3) and how many: the one batch of bytes from the wire to the
/// segment. A pull page or a push carries one, whichever way it travels (JSON records or record
/// frames, Schemas/sync-frames.md); an admission collects the new events into one; and every
/// append writes one (`Ledger.append`): records given as values are encoded into one first. Like
/// LevelDB's write batch it is only bytes. Every record in it was validated (read from a log or
/// from frames, or encoded here).
package struct EncodedRecords: Sendable {
    package private(set) var bytes: [UInt8] = []
    package private(set) var count = 0
    /// The frames these records were read from, when they came as frames and nothing was added
    /// since: a receiver that takes them all appends these bytes as they are.
    package private(set) var frames: RecordFrames.Received?

    package init() {}

    /// Reserves room for `bytes` more bytes of records (growing by doubling copies what was read
    /// so far into freshly faulted pages; untouched capacity costs no memory).
    package mutating func reserve(bytes count: Int) {
        self.bytes.reserveCapacity(self.bytes.count + count)
    }

    /// Keeps `frames`, the frames exactly these records were read from, in order.
    package mutating func keep(readFrom frames: RecordFrames.Received) {
        self.frames = frames
    }

    package init(_ records: some Sequence<LedgerRecord>) {
        var encoder = RecordEncoder()
        for record in records { encoder.append(record) }
        bytes = encoder.bytes
        count = encoder.recordCount
    }

    /// Appends a validated record's bytes.
    package mutating func append(_ view: RecordView) {
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: view.base, count: view.length))
        count += 1
        frames = nil
    }

    /// Appends `count` records checked before (a frame's, a run of another `EncodedRecords`), in
    /// one copy.
    package mutating func append(validated records: UnsafeRawBufferPointer, count: Int) {
        bytes.append(contentsOf: records)
        self.count += count
        frames = nil
    }

    /// Appends every record of a stored frame. Records made only of whole format-2 frames keep
    /// those frames' bytes (`frames`), so that a pull answer sends them as they are stored.
    package mutating func append(frame: SegmentReader.Frame) {
        // Taken out, not copied: the frames' bytes grow in place.
        var kept = frames.take()
        RecordFrames.Received.extend(&kept, batchWasEmpty: count == 0, with: frame)
        append(validated: frame.records, count: frame.count)
        frames = kept
    }

    package mutating func append(_ record: LedgerRecord) {
        frames = nil
        bytes.append(contentsOf: RecordEncoder.bytes(of: record))
        count += 1
    }

    /// Every record, in order.
    package func forEach(_ body: (RecordView) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { try RecordStream.forEachValidated(in: $0, body) }
    }

    /// Hands `run` each longest run of consecutive records that `isIn` takes, as their bytes
    /// and how many (every record is shown to `isIn` once, in order).
    package func forEachRun(where isIn: (RecordView) -> Bool, _ run: (UnsafeRawBufferPointer, Int) -> Void) {
        bytes.withUnsafeBytes { buffer in
            var start = 0, offset = 0, count = 0
            RecordStream.forEachValidated(in: buffer) { view in
                if isIn(view) {
                    if count == 0 { start = offset }
                    count += 1
                } else if count > 0 {
                    run(UnsafeRawBufferPointer(rebasing: buffer[start..<offset]), count)
                    count = 0
                }
                offset += view.length
            }
            if count > 0 { run(UnsafeRawBufferPointer(rebasing: buffer[start..<offset]), count) }
        }
    }

    /// The records decoded.
    package var records: [LedgerRecord] {
        var records: [LedgerRecord] = []
        records.reserveCapacity(count)
        forEach { records.append($0.record) }
        return records
    }

    /// Consecutive pages of at most `records` records each; a page takes records while it holds
    /// fewer than `bytes` bytes (by `size` of each record), so it ends at most one record past it.
    package func pages(records limit: Int, bytes budget: Int, size: (RecordView) -> Int) -> [EncodedRecords] {
        pageBounds(records: limit, bytes: budget, size: size).map(page)
    }

    /// Where each of those pages is, without copying it: a sender copies each page when it is
    /// about to send it (`page(_:)`), so the first goes out while the rest wait.
    package func pageBounds(records limit: Int, bytes budget: Int, size: (RecordView) -> Int) -> [PageBounds] {
        var bounds: [PageBounds] = []
        var pageStart = 0, pageCount = 0, pageBytes = 0, offset = 0
        forEach { view in
            if pageCount > 0 && (pageCount >= limit || pageBytes >= budget) {
                bounds.append(PageBounds(bytes: pageStart..<offset, count: pageCount))
                (pageStart, pageCount, pageBytes) = (offset, 0, 0)
            }
            pageCount += 1
            pageBytes += size(view)
            offset += view.length
        }
        if pageCount > 0 { bounds.append(PageBounds(bytes: pageStart..<offset, count: pageCount)) }
        return bounds
    }

    /// The records of one page (`pageBounds`), in one copy.
    package func page(_ bounds: PageBounds) -> EncodedRecords {
        var page = EncodedRecords()
        page.bytes = Array(bytes[bounds.bytes])
        page.count = bounds.count
        return page
    }

    /// Consecutive records of a batch: their bytes and how many.
    package struct PageBounds: Sendable {
        package let bytes: Range<Int>
        package let count: Int
    }
}
