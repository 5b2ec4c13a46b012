extension SegmentWatermark {
    /// The newest segment's watermark, checked before opening or a scan trusts a byte of the
    /// segment by it (Schemas/segment-format.md §5b, "What is damage").
    ///
    /// `required` (the ledger's `watermarked_from` covers this segment, §6): the segment was
    /// created after its watermark, whole, so a missing, short or unreadable watermark file is
    /// damage naming it, never a reason to judge the tail by its frames alone — that is how two
    /// faults (a cut tail and a lost watermark) would pass for one tear; so is one damaged slot
    /// (strict `decode`), which would otherwise fall back a generation. So is a watermark older
    /// than the segment's checkpoint: a checkpoint is written only after an append's watermark
    /// was synced, so one covering more than the watermark claims means the watermark went back.
    /// Otherwise (a segment written before that field) a missing or short file reads as none.
    /// A segment shorter than its watermark lost acknowledged bytes: corruption naming the segment.
    package static func readNewest(of number: UInt32, segmentPath: String, required: Bool,
                                   fileSystem: any FileSystem) -> Result<SegmentWatermark?, LedgerError> {
        let segmentsPath = Path.parent(of: segmentPath)
        let path = path(of: number, segmentsPath: segmentsPath)
        do {
            // The checkpoint before the watermark: a server appending meanwhile moves both
            // forward, the watermark first, so the one read later never lags the one read first.
            let checkpointed = required ? checkpointedLength(of: number, segmentsPath: segmentsPath, fileSystem: fileSystem) : nil
            guard fileSystem.fileExists(path) else {
                guard required else { return .success(nil) }
                return .failure(.corrupt("the watermark of the newest segment is missing, so which of its bytes were acknowledged is unknown; nothing was cut",
                                         file: path, offset: 0))
            }
            let bytes = try fileSystem.readFile(path)
            if bytes.count < fileSize && !required { return .success(nil) }
            let mark: SegmentWatermark
            switch decode(bytes, segmentNumber: number, strict: required) {
            case .success(let decoded): mark = decoded
            case .failure(let damage):
                return .failure(.corrupt("the durable length of the newest segment cannot be read (\(damage.reason)); nothing was cut",
                                         file: path, offset: 0))
            }
            if let checkpointed, checkpointed > mark.durableLength {
                return .failure(.corrupt("the watermark of the newest segment is stale: it says \(mark.durableLength) bytes were acknowledged, but its checkpoint was written after \(checkpointed) were; nothing was cut",
                                         file: path, offset: 0))
            }
            if let missing = mark.missingBytes(segmentLength: try fileSystem.fileSize(segmentPath), segmentPath: segmentPath) {
                return .failure(missing)
            }
            return .success(mark)
        } catch let error as LedgerError {
            return .failure(error)
        } catch {
            return .failure(LedgerError(.io, "\(error)", file: path))
        }
    }

    /// The length the newest segment's checkpoint (§5a) covered, if one of this segment reads
    /// whole; a torn, foreign or missing checkpoint tells nothing.
    private static func checkpointedLength(of number: UInt32, segmentsPath: String, fileSystem: any FileSystem) -> Int? {
        let path = Path.join(segmentsPath, ActiveSegmentCheckpoint.fileName(number))
        guard fileSystem.fileExists(path), let bytes = try? fileSystem.readFile(path),
              case .success(let checkpoint) = bytes.withUnsafeBytes({ ActiveSegmentCheckpoint.decode($0) }),
              checkpoint.segmentNumber == number
        else { return nil }
        return checkpoint.coveredLength
    }
}
