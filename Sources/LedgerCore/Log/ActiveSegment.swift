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

    /// Resumes appending to an existing segment of `length` durable bytes (opened on first write).
    init(number: UInt32, length: Int, segmentsPath: String, fileSystem: any FileSystem) {
        self.number = number
        self.path = Path.join(segmentsPath, SegmentInfo.fileName(number))
        self.length = length
        self.segmentsPath = segmentsPath
        self.fileSystem = fileSystem
    }

    deinit { close() }

    /// Creates the segment file holding its header and first frames, durably (the file and its
    /// directory entry); on failure the file is removed.
    static func create(header: SegmentHeader, frames: [UInt8], segmentsPath: String,
                       fileSystem: any FileSystem) throws -> ActiveSegment {
        let segment = ActiveSegment(number: header.segmentNumber, length: 0, segmentsPath: segmentsPath, fileSystem: fileSystem)
        let file = try fileSystem.openForAppend(segment.path, create: true)
        do {
            try header.encoded().withUnsafeBytes { (b) throws in try file.write(b) }
            try frames.withUnsafeBytes { (b) throws in try file.write(b) }
            try file.sync()
            try fileSystem.syncDirectory(segmentsPath)
        } catch {
            file.close()
            try? fileSystem.removeFile(segment.path)
            throw error
        }
        segment.file = file
        segment.length = SegmentHeader.frameSize + frames.count
        return segment
    }

    func close() {
        file?.close()
        file = nil
    }

    /// Appends `bytes` durably (one fsync). On failure the file is cut back to its durable length.
    func append(_ bytes: [UInt8]) throws {
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
        length += bytes.count
    }

    /// Writes the footer durably and removes the checkpoint: the segment is sealed and the next
    /// append starts a new one. Returns the footer's length.
    func seal(_ summary: SegmentSummary) throws -> Int {
        let footer = SegmentFooter.encode(summary, segmentNumber: number)
        try append(footer)
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
