extension Ledger {
    /// Calls `body` with every record at log position ≥ `position`, in log order, verifying
    /// every frame's checksums. Memory stays bounded by one segment file.
    package func forEachRecord(
        from position: UInt64 = 0, _ body: (RecordView, UInt64) throws -> Void
    ) throws {
        try forEachRecord(from: position) { (view, index) throws -> RecordIteration in
            try body(view, index)
            return .continue
        }
    }

    /// The same, ending early without an error when `body` returns `.stop` (a full pull page).
    /// Disfavoured so that a closure that could be either (a lone `switch`) means the one above.
    @_disfavoredOverload
    package func forEachRecord(
        from position: UInt64 = 0, _ body: (RecordView, UInt64) throws -> RecordIteration
    ) throws {
        // A sealed ledger's records are no `RecordView`s: reading one as plaintext would see none.
        guard !holdsSealedRecords else {
            throw LedgerError(.usage, "this ledger keeps an encrypted account's sealed records, which only their devices can read")
        }
        try read(from: position, { view, index in try body(view, index) }, frameDone: { _, _ in .continue })
    }

    /// Every data frame from the one that holds `position` on, as stored and decoded
    /// (`SegmentReader.Frame`), with the log position of its first record (before `position`
    /// for the first frame when `position` falls inside it); `.stop` ends the read there.
    package func forEachFrame(
        from position: UInt64, _ body: (SegmentReader.Frame, _ firstPosition: UInt64) throws -> RecordIteration
    ) throws {
        try read(from: position, { _, _ in .continue }, frameDone: body)
    }

    /// The one read of the log from a position: `visit` gets each record from `position` on,
    /// `frameDone` each frame once its records were visited.
    private func read(
        from position: UInt64, _ visit: (RecordView, UInt64) throws -> RecordIteration,
        frameDone: (SegmentReader.Frame, UInt64) throws -> RecordIteration
    ) throws {
        for segment in segments where segment.endPosition > position {
            // Opening checked where each segment belongs; reading checks what it holds.
            let reader = SegmentReader(path: segment.path, policy: .strict,
                                       expectation: expectation(of: segment.number, firstRecordPosition: nil, mustBeSealed: false),
                                       decoder: decoder, blockDecoder: blockDecoder)
            let resume = frameIndex.nearest(segment: segment.number, atOrBefore: position)
                .flatMap { $0.offset > SegmentHeader.frameSize && $0.offset < segment.fileSize ? $0 : nil }
            let first = resume?.position ?? segment.header.firstRecordPosition
            var index = first
            // Reads the segment, from the resumed frame on when one is known: then only the
            // header and the frames from the one that holds `position` are read. (The visitors
            // are passed inline: a closure kept in a variable costs the merge a retain, a release
            // and an exclusivity check a record.)
            func scan(_ visitRecord: (RecordView, Int) throws -> RecordIteration,
                      _ visitFrame: (SegmentReader.Frame) throws -> RecordIteration) throws -> SegmentReader.Outcome {
                guard let resume else {
                    let bytes = try fileSystem.readFile(segment.path)
                    return try bytes.withUnsafeBytes { try reader.read($0, visitRecord, frameDone: visitFrame) }
                }
                let header = try fileSystem.readFile(segment.path, offset: 0, length: SegmentHeader.frameSize)
                let tail = try fileSystem.readFile(segment.path, offset: resume.offset, length: segment.fileSize - resume.offset)
                return try header.withUnsafeBytes { head in
                    try tail.withUnsafeBytes { try reader.read(header: head, tail: $0, at: resume.offset, visitRecord, frameDone: visitFrame) }
                }
            }
            let outcome = try scan({ (view, _) throws -> RecordIteration in
                defer { index += 1 }
                guard index >= position else { return .continue }
                do { return try visit(view, index) } catch let error as LedgerError { throw error } catch {
                    throw LedgerError(.io, "\(error)")
                }
            }, { frame in
                let start = first + frame.recordsBefore
                guard start + UInt64(frame.count) > position else { return .continue }
                do { return try frameDone(frame, start) } catch let error as LedgerError { throw error } catch {
                    throw LedgerError(.io, "\(error)")
                }
            })
            frameIndex.note(segment: segment.number, outcome.frameStarts.map { .init(position: first + $0.recordsBefore, offset: $0.offset) })
            if outcome.stopped { return }
        }
    }

    /// A second handle on this log for reading only, with decoders of its own and no lock: a
    /// fresh object (`sending`), so that another thread can read it while this one is in use
    /// (`SideBySide.run`). It sees the segments as they are now.
    package func readingCopy() -> sending Ledger {
        let copy = Ledger(directory: directory, metadata: metadata, fileSystem: fileSystem, clock: clock, lock: nil)
        copy.segments = segments
        copy.frameIndex = frameIndex
        copy.versionVector = versionVector
        copy.deviceNames = deviceNames
        copy.lastHLC = lastHLC
        return copy
    }

    /// Records of every kind, materialised (allocating; for small logs and tests).
    package func allRecords() throws -> [LedgerRecord] {
        var records: [LedgerRecord] = []
        try forEachRecord { view, _ in records.append(view.record) }
        return records
    }
}
