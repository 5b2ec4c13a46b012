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
        var held: [DeviceID: UInt64] = [:]
        let decoder = LZ4FrameDecoder()
        var position: UInt64 = 0
        for segment in segments {
            let bytes = try fileSystem.readFile(segment.path)
            var summary = SegmentSummary()
            let outcome = try bytes.withUnsafeBytes { (buffer) throws -> SegmentScanner.Outcome in
                let scanner = SegmentScanner(path: segment.path, bytes: buffer, decoder: decoder)
                return try scanner.scan(tolerateTornTail: false) { (content, frameOffset, _) throws in
                    summary.addFrame(rawBytes: content.count)
                    try Self.forEachRecord(in: content, path: segment.path, frameOffset: frameOffset) { (view) throws in
                        summary.add(view)
                        guard view.hasEventID else { return }
                        let expected = (held[view.device] ?? 0) + 1
                        guard view.seq == expected else {
                            throw LedgerError.corrupt("device \(view.device) has seq \(view.seq) where \(expected) was expected",
                                           file: segment.path, offset: frameOffset)
                        }
                        held[view.device] = view.seq
                    }
                }
            }
            guard case .clean(let header, let footerOffset) = outcome else {
                throw LedgerError.corrupt("the segment ends in a torn frame", file: segment.path, offset: bytes.count)
            }
            guard header.segmentNumber == segment.number, header.ledgerID == metadata.ledgerIDBytes,
                  header.firstRecordPosition == position
            else { throw LedgerError.corrupt("the segment header does not fit the ledger", file: segment.path, offset: 0) }
            if let footerOffset {
                let footer = bytes.withUnsafeBytes { SegmentFooter.decodeFrame(UnsafeRawBufferPointer(rebasing: $0[footerOffset...])) }
                guard let footer, footer.summary == summary else {
                    throw LedgerError.corrupt("the segment footer does not match the segment's frames", file: segment.path, offset: footerOffset)
                }
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
        report.devices = held.count
        report.ignoredCheckpoint = ignoredCheckpoint
        return report
    }
}
