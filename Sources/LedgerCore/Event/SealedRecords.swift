/// Sealed records (kinds 5 and 6, Schemas/segment-format.md §3.6) as their stored forms back to
/// back, and how many: what `EncodedRecords` is for plaintext records, for an end-to-end encrypted
/// account's (Schemas/encryption.md §11). A push's or a pull page's sealed records are one; so is
/// what a device seals for a push. Every record in it was checked as §3.6 says (read from frames
/// by the sealed reader, or made by the sealer), so walking it again reads only lengths.
package struct SealedRecords: Sendable {
    package private(set) var bytes: [UInt8] = []
    package private(set) var count = 0
    /// The frames these records were read from, when they came as frames and nothing was added
    /// since: a receiver that takes them all can keep these bytes as they are.
    package private(set) var frames: RecordFrames.Received?

    package init() {}

    /// Reserves room for `bytes` more bytes of records.
    package mutating func reserve(bytes count: Int) {
        self.bytes.reserveCapacity(self.bytes.count + count)
    }

    /// Keeps `frames`, the frames exactly these records were read from, in order.
    package mutating func keep(readFrom frames: RecordFrames.Received) {
        self.frames = frames
    }

    /// Appends a checked sealed record's stored form.
    package mutating func append(_ view: SealedRecordView) {
        bytes.append(contentsOf: view.bytes)
        count += 1
        frames = nil
    }

    /// Appends `count` sealed records checked before (a sealer's output, a run of another
    /// `SealedRecords`), in one copy.
    package mutating func append(validated records: UnsafeRawBufferPointer, count: Int) {
        bytes.append(contentsOf: records)
        self.count += count
        frames = nil
    }

    /// Appends every record of a stored frame of a sealed ledger (checked as it was read).
    /// Records made only of whole format-2 frames keep those frames' bytes, so that a pull answer
    /// sends them as they are stored.
    package mutating func append(frame: SegmentReader.Frame) {
        // Taken out, not copied: the frames' bytes grow in place.
        var kept = frames.take()
        RecordFrames.Received.extend(&kept, batchWasEmpty: count == 0, with: frame)
        append(validated: frame.records, count: frame.count)
        frames = kept
    }

    /// The records in at most `parts` runs of about equal size, in order, cut between records.
    package func split(into parts: Int) -> [SealedRecords] {
        guard parts > 1, count > 1 else { return [self] }
        var result: [SealedRecords] = []
        let target = bytes.count / parts + 1
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var (start, offset, records) = (0, 0, 0)
            while offset < buffer.count {
                offset += RecordStream.validatedLength(at: base + offset)
                records += 1
                if offset - start >= target || offset == buffer.count {
                    var part = SealedRecords()
                    part.append(validated: UnsafeRawBufferPointer(rebasing: buffer[start..<offset]), count: records)
                    result.append(part)
                    (start, records) = (offset, 0)
                }
            }
        }
        return result
    }

    /// Every record, in order. The view is valid only inside the call.
    package func forEach(_ body: (SealedRecordView) throws -> Void) rethrows {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let length = RecordStream.validatedLength(at: base + offset)
                // Checked when appended: the kind byte is 5 or 6.
                let kind = SealedRecordKind(rawValue: base.load(fromByteOffset: offset, as: UInt8.self))!
                try body(SealedRecordView(base: base + offset, length: length, kind: kind))
                offset += length
            }
        }
    }
}
