/// The newest, unsealed segment that appends go to: its open file, a cut still owed after a
/// failed write, its checkpoint, and sealing (Schemas/segment-format.md §3, §4, §6).
///
/// Nothing is ever appended after garbage: a failed write is cut back to the last durable length
/// at once or, if even that fails, before the next write.
final class ActiveSegment {
    let number: UInt32
    let path: String
    /// Everything up to here is durable (fsynced).
    private(set) var length: Int
    private let fileSystem: any FileSystem
    private let segmentsPath: String
    private var file: (any WritableFile)?
    /// The length to cut the file back to before anything else is written.
    private var pendingCut: Int?
    /// The watermark on disk (`nil`: no `.durable` file yet, a segment written before them).
    private(set) var watermark: SegmentWatermark?
    /// Set when a failed append could not put the watermark back: appending stops here.
    private var watermarkFault: LedgerError?
    /// The bytes the last watermark write replaced in its slot.
    private var overwrittenSlot: [UInt8]?

    /// Resumes appending to an existing segment of `length` durable bytes (opened on first write).
    init(number: UInt32, length: Int, watermark: SegmentWatermark?, segmentsPath: String, fileSystem: any FileSystem) {
        self.number = number
        self.path = Path.join(segmentsPath, SegmentInfo.fileName(number))
        self.length = length
        self.watermark = watermark
        self.segmentsPath = segmentsPath
        self.fileSystem = fileSystem
    }

    deinit { close() }

    /// Creates an empty segment (its header only) durably, its watermark first
    /// (Schemas/segment-format.md §5b): the watermark file, generation 1 claiming nothing
    /// (durable length 0), is written whole under a temporary name, synced, renamed and its
    /// directory synced; only then is the segment file created, its header synced and the
    /// directory synced again. So a segment file never exists without a whole watermark beside
    /// it, and no frame is appended (acknowledged by generation 2 on) before both are durable.
    /// On failure the segment file is removed; a watermark left without its segment claims
    /// nothing and the next creation replaces it.
    static func create(header: SegmentHeader, localSeq: UInt64, segmentsPath: String,
                       fileSystem: any FileSystem) throws -> ActiveSegment {
        let segment = ActiveSegment(number: header.segmentNumber, length: 0, watermark: nil, segmentsPath: segmentsPath,
                                    fileSystem: fileSystem)
        let mark = SegmentWatermark(segmentNumber: segment.number, generation: 1, durableLength: 0, localSeq: localSeq)
        var createdFile = false
        do {
            // Replaces one left by a creation that crashed before its segment file was durable.
            try fileSystem.writeAtomically(SegmentWatermark.path(of: segment.number, segmentsPath: segmentsPath), mark.encodedFile())
            let file = try fileSystem.openForAppend(segment.path, create: true)
            createdFile = true
            segment.file = file
            try header.encoded().withUnsafeBytes { (b) throws in try file.write(b) }
            try file.sync()
            try fileSystem.syncDirectory(segmentsPath)
        } catch {
            segment.discard(removingFile: createdFile)
            throw error
        }
        segment.length = SegmentHeader.frameSize
        segment.watermark = mark
        return segment
    }

    /// Removes a segment being created whose creation or first append failed, so that a failed
    /// append leaves no segment behind; then its watermark, but only once the segment's removal
    /// is durable (a segment must never outlive its watermark). Best effort: what a failure here
    /// leaves — an empty segment with its watermark, or a watermark claiming nothing — is a
    /// sound state that the next open reads as it is, and the next creation replaces.
    func discard(removingFile: Bool = true) {
        close()
        if removingFile && fileSystem.fileExists(path) {
            guard (try? fileSystem.removeFile(path)) != nil, (try? fileSystem.syncDirectory(segmentsPath)) != nil else { return }
        }
        let watermarkPath = SegmentWatermark.path(of: number, segmentsPath: segmentsPath)
        guard fileSystem.fileExists(watermarkPath), (try? fileSystem.removeFile(watermarkPath)) != nil else { return }
        try? fileSystem.syncDirectory(segmentsPath)
    }

    /// Records that the segment's first `length` bytes are durable (Schemas/segment-format.md
    /// §5b): the next generation in the other slot, synced; or, for a segment without a
    /// watermark file yet (one written before watermarks), the whole file, atomically (a
    /// temporary synced, then renamed and its directory synced), so that no watermark file is
    /// ever short.
    func recordDurable(length: Int, localSeq: UInt64) throws {
        let next = SegmentWatermark(segmentNumber: number, generation: (watermark?.generation ?? 0) + 1,
                                    durableLength: length, localSeq: localSeq)
        let watermarkPath = SegmentWatermark.path(of: number, segmentsPath: segmentsPath)
        overwrittenSlot = nil
        if watermark == nil {
            try fileSystem.writeAtomically(watermarkPath, next.encodedFile())
        } else {
            // Kept so that a failed append can put the slot back byte for byte.
            overwrittenSlot = try fileSystem.readFile(watermarkPath, offset: next.slotOffset, length: SegmentWatermark.slotSize)
            try fileSystem.overwrite(watermarkPath, at: next.slotOffset, with: next.encodedSlot())
        }
        watermark = next
    }

    func close() {
        file?.close()
        file = nil
    }

    /// Appends `bytes` durably: one data sync of the segment, then the watermark moved past them
    /// (one small in-place write and sync), and only then is the append acknowledged. On failure
    /// the file is cut back to its durable length.
    func append(_ bytes: [UInt8], localSeq: UInt64) throws {
        if let watermarkFault { throw watermarkFault }
        if let cut = pendingCut {
            try fileSystem.truncateFile(path, to: cut)
            pendingCut = nil
        }
        if file == nil { file = try fileSystem.openForAppend(path, create: false) }
        do {
            try bytes.withUnsafeBytes { (b) throws in try file!.write(b) }
            try file!.sync()
        } catch {
            close()
            do { try fileSystem.truncateFile(path, to: length) } catch { pendingCut = length }
            throw error
        }
        do {
            try recordDurable(length: length + bytes.count, localSeq: localSeq)
        } catch {
            close()
            undoWatermark()
            throw error
        }
        length += bytes.count
    }

    /// A watermark write failed after the frames were synced: its slot may hold the new length
    /// or garbage. Put that slot back as it was (the current generation is in the other one), and
    /// only then cut the frames off, so that a failed append leaves every file as it found it; if
    /// even that fails, the frames stay (they are durable and valid, so the next open keeps them)
    /// and this segment takes no more appends.
    private func undoWatermark() {
        let watermarkPath = SegmentWatermark.path(of: number, segmentsPath: segmentsPath)
        do {
            if watermark == nil {
                try fileSystem.removeFileIfPresent(watermarkPath)
                try fileSystem.syncDirectory(segmentsPath)
            } else if let slot = overwrittenSlot, let current = watermark {
                let offset = SegmentWatermark.slotOffsets[Int((current.generation + 1) % 2)]
                try fileSystem.overwrite(watermarkPath, at: offset, with: slot)
            }
        } catch {
            watermarkFault = LedgerError(.io, "the durable length of \(path) could not be recorded; reopen the ledger to append")
            return
        }
        do { try fileSystem.truncateFile(path, to: length) } catch { pendingCut = length }
    }

    /// Writes the footer durably and removes the checkpoint: the segment is sealed and the next
    /// append starts a new one. Returns the footer's length.
    func seal(_ summary: SegmentSummary) throws -> Int {
        let footer = SegmentFooter.encode(summary, segmentNumber: number)
        try append(footer, localSeq: watermark?.localSeq ?? 0)
        close()
        Self.removeCheckpoint(of: number, segmentsPath: segmentsPath, fileSystem: fileSystem)
        return footer.count
    }

    // MARK: - Checkpoint

    static func checkpointPath(of segment: UInt32, segmentsPath: String) -> String {
        Path.join(segmentsPath, ActiveSegmentCheckpoint.fileName(segment))
    }

    /// Replaces the checkpoint after a durable append. Best effort: the batch is already
    /// acknowledged, and a missing or partial checkpoint only makes the next open scan.
    func writeCheckpoint(_ summary: SegmentSummary) {
        let checkpoint = Self.checkpointPath(of: number, segmentsPath: segmentsPath)
        do {
            let tail = ActiveSegmentCheckpoint.tailRange(length: length)
            let tailBytes = try fileSystem.readFile(path, offset: tail.offset, length: tail.length)
            let bytes = ActiveSegmentCheckpoint(segmentNumber: number, coveredLength: length,
                                                tailChecksum: CRC32C.checksum(tailBytes), summary: summary).encoded()
            let exists = fileSystem.fileExists(checkpoint)
            if exists { try fileSystem.truncateFile(checkpoint, to: 0) }
            let file = try fileSystem.openForAppend(checkpoint, create: !exists)
            defer { file.close() }
            try bytes.withUnsafeBytes { (buffer) throws in try file.write(buffer) }
        } catch {
            try? fileSystem.removeFile(checkpoint)
        }
    }

    static func removeCheckpoint(of segment: UInt32, segmentsPath: String, fileSystem: any FileSystem) {
        let checkpoint = checkpointPath(of: segment, segmentsPath: segmentsPath)
        if fileSystem.fileExists(checkpoint) { try? fileSystem.removeFile(checkpoint) }
    }

    /// The newest segment as its checkpoint describes it, without scanning it: `segment` is nil
    /// (scan instead) unless the checkpoint is intact and covers exactly the file as it is;
    /// `ignored` says why a damaged or foreign checkpoint was not used.
    static func fromCheckpoint(
        path: String, expectation: SegmentReader.Expectation, segmentsPath: String, fileSystem: any FileSystem
    ) throws -> (segment: SegmentInfo?, ignored: String?) {
        let number = expectation.number
        let checkpointPath = checkpointPath(of: number, segmentsPath: segmentsPath)
        guard fileSystem.fileExists(checkpointPath) else { return (nil, nil) }
        let checkpoint: ActiveSegmentCheckpoint
        switch try fileSystem.readFile(checkpointPath).withUnsafeBytes({ ActiveSegmentCheckpoint.decode($0) }) {
        case .success(let decoded): checkpoint = decoded
        case .failure(let fault): return (nil, "\(checkpointPath) at offset \(fault.offset): \(fault.reason)")
        }
        guard checkpoint.segmentNumber == number else {
            return (nil, "\(checkpointPath): it describes segment \(checkpoint.segmentNumber)")
        }
        // A different length or tail means appends or a crash came after it: stale, not damaged.
        let size = try fileSystem.fileSize(path)
        guard size == checkpoint.coveredLength, size >= SegmentHeader.frameSize else { return (nil, nil) }
        let tail = ActiveSegmentCheckpoint.tailRange(length: size)
        guard CRC32C.checksum(try fileSystem.readFile(path, offset: tail.offset, length: tail.length)) == checkpoint.tailChecksum
        else { return (nil, nil) }
        let headerBytes = try fileSystem.readFile(path, offset: 0, length: SegmentHeader.frameSize)
        guard case .success(let header) = headerBytes.withUnsafeBytes({ SegmentHeader.decode($0) }),
              expectation.check(header, path: path) == nil
        else { return (nil, nil) }
        return (SegmentInfo(number: number, path: path, header: header, summary: checkpoint.summary, sealed: false, fileSize: size), nil)
    }
}
