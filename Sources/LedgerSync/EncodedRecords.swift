import LedgerCore

/// Records as their canonical encodings back to back (a raw record stream,
/// Schemas/segment-format.md §3) and how many: what a pull page or a push carries, whichever way
/// it travels (JSON `WireRecord`s or record frames, Schemas/sync-frames.md). Every record in it
/// was validated (read from a log or from frames, or encoded here).
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

    package mutating func append(_ record: LedgerRecord) {
        frames = nil
        var encoder = RecordEncoder()
        encoder.append(record)
        bytes.append(contentsOf: encoder.bytes)
        count += 1
    }

    /// Every record, in order.
    package func forEach(_ body: (RecordView) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let bodyLength = UInt16(littleEndian: (base + offset).loadUnaligned(fromByteOffset: 2, as: UInt16.self))
                let length = RecordLayout.headerSize + Int(bodyLength)
                try body(RecordView(validated: base + offset, length: length))
                offset += length
            }
        }
    }

    /// The records decoded.
    package var records: [LedgerRecord] {
        var records: [LedgerRecord] = []
        records.reserveCapacity(count)
        forEach { records.append($0.record) }
        return records
    }

    /// The records as the JSON API carries them.
    package var wireRecords: [WireRecord] {
        var records: [WireRecord] = []
        records.reserveCapacity(count)
        forEach { records.append(WireRecord($0.record)) }
        return records
    }

    /// Consecutive pages of at most `records` records each; a page takes records while it holds
    /// fewer than `bytes` bytes (by `size` of each record), so it ends at most one record past it.
    package func pages(records limit: Int, bytes budget: Int, size: (RecordView) -> Int) -> [EncodedRecords] {
        var pages: [EncodedRecords] = []
        var page = EncodedRecords()
        var pageBytes = 0
        forEach { view in
            let cost = size(view)
            if page.count > 0 && (page.count >= limit || pageBytes >= budget) {
                pages.append(page)
                page = EncodedRecords()
                pageBytes = 0
            }
            page.append(view)
            pageBytes += cost
        }
        if page.count > 0 { pages.append(page) }
        return pages
    }
}
