/// Cuts a torn write off the tail of the newest segment when a ledger is opened, after saving
/// the torn bytes to `NNNNNNNN.seg.<offset>.torn` (Schemas/segment-format.md §5): a crash in
/// the middle of an append leaves at most one partial batch, which was never acknowledged.
enum TornTailRecovery {
    /// Saves `bytes[tear.offset...]` aside durably, removes the segment's checkpoint, then cuts
    /// the segment back to `tear.offset`, or removes it if not even its header was written.
    /// Returns what was done and whether the segment is still there.
    static func cut(_ tear: SegmentFault, bytes: [UInt8], segmentNumber: UInt32, segmentsPath: String,
                    fileSystem: any FileSystem) throws -> (report: RecoveryReport, segmentRemains: Bool) {
        let path = tear.file
        let offset = tear.offset
        let saved = path + ".\(offset).torn"
        if fileSystem.fileExists(saved) { try fileSystem.removeFile(saved) }
        let file = try fileSystem.openForAppend(saved, create: true)
        try bytes[offset...].withUnsafeBytes { (torn) throws in try file.write(torn) }
        try file.sync()
        file.close()
        try fileSystem.syncDirectory(segmentsPath)
        let report = RecoveryReport(segment: path, offset: offset, removedBytes: bytes.count - offset,
                                    savedTo: saved, reason: tear.tearReason)
        ActiveSegment.removeCheckpoint(of: segmentNumber, segmentsPath: segmentsPath, fileSystem: fileSystem)
        guard offset > 0 else {
            try fileSystem.removeFile(path)
            try fileSystem.syncDirectory(segmentsPath)
            return (report, false)
        }
        try fileSystem.truncateFile(path, to: offset)
        return (report, true)
    }
}
