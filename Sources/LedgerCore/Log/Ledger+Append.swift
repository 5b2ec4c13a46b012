extension Ledger {
    /// Appends local station edits as one durable batch, giving each the next seq and hlc.
    /// Returns the events as written.
    @discardableResult
    package func appendLocal(_ drafts: [StationEditDraft]) throws -> [StationEdit] {
        var seq = versionVector[localDevice] ?? 0
        var hlc = lastHLC
        let now = clock.nowMilliseconds()
        var events: [StationEdit] = []
        events.reserveCapacity(drafts.count)
        for draft in drafts {
            try Self.validate(draft)
            seq += 1
            let stamp: HybridTimestamp
            if let fixed = draft.hlc {
                stamp = fixed
            } else {
                hlc = .next(after: hlc, wallClock: now)
                stamp = hlc
            }
            events.append(StationEdit(id: EventID(device: localDevice, seq: seq), hlc: stamp, station: draft.station,
                                      compDate: draft.compDate, memo: draft.memo, origin: draft.origin))
        }
        try append(events.map { .stationEdit($0) })
        return events
    }

    /// Records that catalogue `version` was applied.
    @discardableResult
    package func appendCatalogVersion(_ version: UInt32) throws -> CatalogVersionEvent {
        let event = CatalogVersionEvent(
            id: EventID(device: localDevice, seq: (versionVector[localDevice] ?? 0) + 1),
            hlc: .next(after: lastHLC, wallClock: clock.nowMilliseconds()), version: version)
        try append([.catalogVersion(event)])
        return event
    }

    package static func validate(_ draft: StationEditDraft) throws {
        try validate(station: draft.station, compDate: draft.compDate, memo: draft.memo)
    }

    package static func validate(_ e: StationEdit) throws {
        try validate(station: e.station, compDate: e.compDate, memo: e.memo)
    }

    /// Whether an encoded station edit passes `validate`, read from its bytes: a caller decodes
    /// the record only to word a refusal.
    package static func isValid(_ view: RecordView) -> Bool {
        view.station > 0 && (view.hasCompDate || view.hasMemo) && view.memoBytes.count <= StationEdit.maximumMemoBytes
    }

    private static func validate(station: UInt32, compDate: CompletionDate?, memo: String?) throws {
        guard station > 0 else { throw LedgerError(.badInput, "station 0 is not a station id") }
        guard compDate != nil || memo != nil else {
            throw LedgerError(.badInput, "an edit must set a completion date, a memo or both")
        }
        if let memo, memo.utf8.count > StationEdit.maximumMemoBytes {
            throw LedgerError(.badInput, "the memo is \(memo.utf8.count) bytes of UTF-8; the limit is \(StationEdit.maximumMemoBytes)")
        }
    }

    /// Appends records given as values, in the order given: each station edit is checked
    /// (`validate`, so that a refusal says what is wrong in its own words), then the records are
    /// encoded into one `EncodedRecords` and appended as one (`append(_:visit:)`): there is one
    /// append pipeline, and it takes bytes.
    package func append(_ records: [LedgerRecord]) throws {
        try append(records[...])
    }

    /// The same for a slice of a larger array (no copy of the batch).
    package func append(_ records: ArraySlice<LedgerRecord>) throws {
        guard !records.isEmpty else { return }
        for case .stationEdit(let edit) in records { try Self.validate(edit) }
        try append(EncodedRecords(records))
    }

    /// Appends a batch of encoded records, in the order given, as one durable batch: the one
    /// append pipeline (a local edit, a merge, a sync's pull or a server's push all end here).
    /// Every record is validated as a read validates it (`RecordStream.forEach`), and every event
    /// must continue its device's seq exactly (no gaps, no repeats; the caller removes events
    /// already held); the clock advances past every hlc. The records are framed at most
    /// `contentLimit` raw bytes a frame (4 MiB of content in format 1, 2 MiB of records in format
    /// 2), written to the active segment (creating one if needed) and fsynced once; the segment is
    /// sealed if full. `visit` sees each record (before the batch is durable; a failed append
    /// throws, and the segment is cut back to its previous length: nothing partial stays).
    ///
    /// When `batch` keeps the frames its records were read from (`EncodedRecords.frames`), those
    /// frames are written as they are instead of encoding the records again, if the segment is of
    /// format 2 (Schemas/sync-frames.md: frames are stored as they come).
    package func append(_ batch: EncodedRecords, visit: (RecordView) -> Void = { _ in }) throws {
        guard batch.count > 0 else { return }
        guard !holdsSealedRecords else {
            throw LedgerError(.usage, "this ledger keeps an encrypted account's sealed records only; plaintext records cannot be appended to it")
        }
        let received = activeFormat >= 2 ? batch.frames : nil
        let createsSegment = active == nil
        var summary = createsSegment ? SegmentSummary() : segments[segments.count - 1].summary
        var frames = FrameBuilder(format: activeFormat, blockEncoder: blockEncoder)
        var continuity = SeqContinuity(held: versionVector)
        var names: [DeviceNameRecord] = []
        var maxHLC = lastHLC
        try batch.bytes.withUnsafeBytes { buffer in
            var frameStart = 0
            var offset = 0
            // No local function here: one capturing these variables would box them, and every
            // access in the per-record closure would then pay a dynamic exclusivity check.
            do {
                try RecordStream.forEach(in: buffer) { (view: RecordView) throws -> Void in
                    if received == nil && offset - frameStart + view.length > frames.contentLimit {
                        frames.add(UnsafeRawBufferPointer(rebasing: buffer[frameStart..<offset]), counting: &summary)
                        frameStart = offset
                    }
                    if view.hasEventID {
                        if let gap = continuity.accept(view.eventID) {
                            throw LedgerError(.conflict, "event \(view.eventID) does not continue its device: \(gap.message())")
                        }
                    } else {
                        names.append(DeviceNameRecord(device: view.device, hlc: view.hlc, name: view.deviceName))
                    }
                    summary.add(view)
                    if view.hlc > maxHLC { maxHLC = view.hlc }
                    visit(view)
                    offset += view.length
                }
            } catch let fault as RecordStream.Fault {
                throw LedgerError(.badInput, "an encoded record at byte \(fault.offset) is malformed: \(fault.reason)")
            }
            if let received {
                summary.addFrames(received.frameCount, rawBytes: offset)
            } else if offset > frameStart {
                frames.add(UnsafeRawBufferPointer(rebasing: buffer[frameStart..<offset]), counting: &summary)
            }
        }
        try commit(received?.bytes ?? frames.bytes, summary: summary, createsSegment: createsSegment, continuity: continuity,
                   names: names, maxHLC: maxHLC)
    }

    /// Writes encoded frames to the active segment (creating one if needed) and fsyncs once;
    /// then, the batch being durable, its summary, seqs, names and clock take effect.
    func commit(_ frames: [UInt8], summary: SegmentSummary, createsSegment: Bool, continuity: SeqContinuity,
                        names: [DeviceNameRecord], maxHLC: HybridTimestamp) throws {
        guard lockMode != .shared else { throw LedgerError(.io, "the ledger is open for reading only; nothing was appended") }
        let segment: ActiveSegment
        let localSeq = continuity.versionVector[localDevice] ?? 0
        // The batch's first frame starts where the segment ends now (or after a new one's header).
        let firstFrame = FrameIndex.Start(position: recordCount, offset: active?.length ?? SegmentHeader.frameSize)
        if let active {
            segment = active
            try segment.append(frames, localSeq: localSeq)
        } else {
            let number = UInt32(segments.count + 1)
            let header = SegmentHeader(segmentNumber: number, ledgerID: metadata.ledgerIDBytes, firstRecordPosition: recordCount)
            try recordWatermarkedFrom(number)
            segment = try ActiveSegment.create(header: header, localSeq: versionVector[localDevice] ?? 0,
                                               segmentsPath: segmentsPath, fileSystem: fileSystem)
            do { try segment.append(frames, localSeq: localSeq) } catch {
                segment.discard()
                throw error
            }
            segments.append(SegmentInfo(number: number, path: segment.path, header: header, summary: SegmentSummary(),
                                        sealed: false, fileSize: SegmentHeader.frameSize))
            active = segment
        }
        // Durable: the batch is acknowledged, so its effects take hold.
        let index = segments.count - 1
        frameIndex.note(segment: segment.number, [firstFrame])
        segments[index].fileSize = segment.length
        segments[index].summary = summary
        versionVector = continuity.versionVector
        for name in names where name.hlc >= (deviceNames[name.device]?.hlc ?? .zero) {
            deviceNames[name.device] = name
        }
        lastHLC = maxHLC
        // If the footer cannot be written (a full disk), the segment stays open and sealing is
        // retried after the next append.
        if segments[index].fileSize >= rollThreshold { try? sealActiveSegment() }
        if !segments[index].sealed { segment.writeCheckpoint(summary) }
    }

    /// A ledger written before `watermarked_from` (Schemas/segment-format.md §6) records it
    /// before creating segment `number`, the first it creates watermark first: ledger.json is
    /// replaced atomically (temporary, fsync, rename, directory fsync), so a crash leaves either
    /// the old file, whose segments are judged as before, or the new one, whose first watermarked
    /// segment does not exist yet or was created as §5b says.
    private func recordWatermarkedFrom(_ number: UInt32) throws {
        guard metadata.watermarkedFrom == nil else { return }
        var recorded = metadata
        recorded.watermarkedFrom = number
        try fileSystem.writeAtomically(Path.join(directory, LedgerMetadata.fileName), recorded.encoded())
        metadata = recorded
    }

    /// Writes the footer of the active segment; the next append starts a new segment.
    package func sealActiveSegment() throws {
        guard let active else { return }
        let index = segments.count - 1
        segments[index].fileSize += try active.seal(segments[index].summary)
        segments[index].sealed = true
        self.active = nil
    }
}

/// The frames of one append, in the format of the segment they go to (Schemas/segment-format.md
/// §2): raw records in format 1, column-wise blocks in format 2.
struct FrameBuilder {
    let format: UInt16
    let blockEncoder: ColumnarBlockEncoder
    private(set) var bytes: [UInt8] = []
    private var blocks: [UInt8] = []

    init(format: UInt16, blockEncoder: ColumnarBlockEncoder) {
        (self.format, self.blockEncoder) = (format, blockEncoder)
    }

    /// The most raw record bytes one frame takes.
    var contentLimit: Int { format >= 2 ? ColumnarBlock.writerContentLimit : LZ4Frame.maximumContentSize }

    /// Adds one frame holding `records` (whole records, at most `contentLimit` bytes), and
    /// counts its raw bytes in `summary`.
    mutating func add(_ records: UnsafeRawBufferPointer, counting summary: inout SegmentSummary) {
        summary.addFrame(rawBytes: records.count)
        if format >= 2 {
            blocks.removeAll(keepingCapacity: true)
            blockEncoder.encode(records, appendingTo: &blocks)
            blocks.withUnsafeBytes { LZ4Frame.compress($0, appendingTo: &bytes) }
        } else {
            LZ4Frame.compress(records, appendingTo: &bytes)
        }
    }
}

extension Ledger {
    /// A segment keeps the format it was created with; a new segment gets the newest.
    var activeFormat: UInt16 {
        active == nil ? SegmentHeader.currentFormatVersion : segments[segments.count - 1].header.formatVersion
    }
}
