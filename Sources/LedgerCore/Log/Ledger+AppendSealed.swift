extension Ledger {
    /// Appends an encrypted account's sealed records (a raw record stream of kinds 5 and 6,
    /// Schemas/segment-format.md §3.6) as one durable batch, through the same commit as every
    /// plaintext append: frames, one fsync, the watermark, the checkpoint, sealing when full.
    /// Every record is checked as a read checks it (`SealedRecordStream`), and every sealed event
    /// must continue its device's seq exactly (the caller, `SealedAdmission`, removes what is
    /// held). Nothing of a sealed record is read but its clear fields: the clock does not move.
    /// `received`: the frames these records were read from, in order, written as they are
    /// (Schemas/sync-frames.md: frames are stored as they come). Throws `.usage` on a plaintext
    /// ledger and `.badInput` for a malformed record; nothing is written then.
    package func appendSealed(
        _ records: UnsafeRawBufferPointer, received: RecordFrames.Received? = nil, visit: (SealedRecordView) -> Void = { _ in }
    ) throws {
        guard holdsSealedRecords else {
            throw LedgerError(.usage, "sealed records go only to an encrypted account's ledger; this one holds plaintext records")
        }
        guard !records.isEmpty else { return }
        let received = activeFormat >= 2 ? received : nil
        let createsSegment = active == nil
        var summary = createsSegment ? SegmentSummary() : segments[segments.count - 1].summary
        var frames = FrameBuilder(format: activeFormat, blockEncoder: blockEncoder)
        var continuity = SeqContinuity(held: versionVector)
        var frameStart = 0
        var offset = 0
        do {
            try SealedRecordStream.forEach(in: records) { view in
                if received == nil && offset - frameStart + view.length > frames.contentLimit {
                    frames.add(UnsafeRawBufferPointer(rebasing: records[frameStart..<offset]), counting: &summary)
                    frameStart = offset
                }
                if let gap = continuity.accept(view) {
                    throw LedgerError(.conflict, "sealed event \(EventID(device: view.device, seq: view.firstSeq)) does not continue its device: \(gap.message())")
                }
                summary.add(view)
                visit(view)
                offset += view.length
            }
        } catch let fault as RecordStream.Fault {
            throw LedgerError(.badInput, "a sealed record at byte \(fault.offset) is malformed: \(fault.reason)")
        }
        if let received {
            summary.addFrames(received.frameCount, rawBytes: offset)
        } else if offset > frameStart {
            frames.add(UnsafeRawBufferPointer(rebasing: records[frameStart..<offset]), counting: &summary)
        }
        try commit(received?.bytes ?? frames.bytes, summary: summary, createsSegment: createsSegment, continuity: continuity,
                   names: [], maxHLC: lastHLC)
    }

    /// Calls `body` with every sealed record at log position ≥ `position`, in log order, with its
    /// position, every frame's checksums verified (a sealed ledger's `forEachRecord`).
    package func forEachSealedRecord(
        from position: UInt64 = 0, _ body: (SealedRecordView, UInt64) throws -> RecordIteration
    ) throws {
        guard holdsSealedRecords else {
            throw LedgerError(.usage, "this ledger holds plaintext records, not an encrypted account's sealed records")
        }
        try forEachFrame(from: position) { frame, first in
            var index = first
            var iteration = RecordIteration.continue
            // The frame's records were checked as it was read.
            try SealedRecordStream.forEach(in: frame.records) { view in
                defer { index += 1 }
                guard iteration == .continue, index >= position else { return }
                iteration = try body(view, index)
            }
            return iteration
        }
    }
}
