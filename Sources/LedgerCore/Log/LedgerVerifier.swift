/// Reads every frame of every segment, checks every checksum, the headers and footers against
/// the frames, and the seq continuity of every device (Schemas/segment-format.md §5).
package struct VerifyReport: Sendable, Equatable {
    package var segments = 0
    package var sealedSegments = 0
    package var frames = 0
    package var records: UInt64 = 0
    package var events: UInt64 = 0
    package var devices = 0
    package var bytesOnDisk = 0
    package var rawBytes: UInt64 = 0
    /// Set when opening could not use the newest segment's checkpoint (it scanned the segment
    /// instead; the next append rewrites the checkpoint).
    package var ignoredCheckpoint: String?

    package var compressionRatio: Double { bytesOnDisk == 0 ? 0 : Double(rawBytes) / Double(bytesOnDisk) }
}

extension Ledger {
    package func verify() throws -> VerifyReport {
        var report = VerifyReport()
        var continuity = SeqContinuity()
        var position: UInt64 = 0
        for segment in segments {
            let bytes = try fileSystem.readFile(segment.path)
            let reader = SegmentReader(path: segment.path, policy: .strict,
                                       expectation: expectation(of: segment.number, firstRecordPosition: position, mustBeSealed: false),
                                       decoder: decoder, blockDecoder: blockDecoder)
            // The closure captures nothing reference-counted (it runs once per record): a gap
            // stops the read and is thrown here.
            var gapFound: (message: String, offset: Int)?
            let sealed = holdsSealedRecords
            let outcome = try bytes.withUnsafeBytes { (buffer) throws in
                try reader.read(buffer, summarize: true, { (view, frameOffset) -> RecordIteration in
                    if view.hasEventID, let gap = continuity.accept(device: view.device, seq: view.seq) {
                        gapFound = (gap.message(), frameOffset)
                        return .stop
                    }
                    return .continue
                }, frameDone: { frame in
                    // A sealed ledger's records reach no visitor (`SegmentReader.Expectation.records`).
                    guard sealed else { return .continue }
                    try SealedRecordStream.forEach(in: frame.records) { view in
                        if gapFound == nil, let gap = continuity.accept(view) {
                            gapFound = (gap.message(), frame.offset)
                        }
                    }
                    return gapFound == nil ? .continue : .stop
                })
            }
            if let gapFound { throw LedgerError.corrupt(gapFound.message, file: segment.path, offset: gapFound.offset) }
            let summary = outcome.summary
            if outcome.footerOffset != nil {
                report.sealedSegments += 1
            } else if segment.summary != summary {
                // Opening took this summary from the checkpoint instead of scanning.
                throw LedgerError.corrupt("the newest segment's checkpoint does not match its frames (delete the checkpoint file to make opening scan the segment)",
                                          file: Path.join(segmentsPath, ActiveSegmentCheckpoint.fileName(segment.number)), offset: 0)
            }
            position += summary.recordCount
            report.segments += 1
            report.frames += Int(summary.frameCount)
            report.records += summary.recordCount
            report.events += summary.eventCount
            report.rawBytes += summary.rawBytes
            report.bytesOnDisk += bytes.count
        }
        report.devices = continuity.versionVector.count
        report.ignoredCheckpoint = ignoredCheckpoint
        return report
    }
}
