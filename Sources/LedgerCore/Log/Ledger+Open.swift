extension Ledger {
    /// Opens an existing ledger, taking its lock (`request`: exclusive to write, shared to only
    /// read) and recovering a torn tail. A reader that meets a torn tail, which only a writer
    /// may cut, opens the ledger again as a writer for that.
    package static func open(
        directory: String, fileSystem: any FileSystem = PosixFileSystem(),
        clock: any WallClock = SystemClock(), useLock: Bool = true, lock request: LedgerLock.Request = .exclusive,
        records: LedgerRecords = .plain
    ) throws -> Ledger {
        let (metadata, lock) = try LedgerMetadata.readAndLock(directory: directory, fileSystem: fileSystem, useLock: useLock,
                                                              request: request, records: records)
        let ledger = Ledger(directory: directory, metadata: metadata, fileSystem: fileSystem, clock: clock, lock: lock)
        do {
            try ledger.load()
        } catch is RecoveryNeedsWriter {
            ledger.close()
            var writer = request
            writer.mode = .exclusive
            return try open(directory: directory, fileSystem: fileSystem, clock: clock, useLock: useLock, lock: writer, records: records)
        }
        return ledger
    }

    /// Every sealed segment from its header and footer; the newest from its checkpoint, or else
    /// by a scan that cuts a torn tail away.
    private func load() throws {
        let numbers = try SegmentInfo.numbers(in: segmentsPath, fileSystem: fileSystem)
        var continuity = SeqContinuity()
        for (index, number) in numbers.enumerated() {
            let path = Path.join(segmentsPath, SegmentInfo.fileName(number))
            guard number == UInt32(index + 1) else {
                let missing = UInt32(index + 1)
                throw SegmentFault(.missing(segment: missing), file: Path.join(segmentsPath, SegmentInfo.fileName(missing)), offset: 0).error
            }
            let isNewest = index == numbers.count - 1
            var expected = expectation(of: number, firstRecordPosition: recordCount, mustBeSealed: !isNewest)
            if isNewest {
                newestWatermark = try readWatermark(of: number, segmentPath: path)
                expected.durableLength = newestWatermark?.durableLength ?? 0
            }
            if let info = try SegmentReader.readSeal(path: path, expectation: expected, fileSystem: fileSystem) {
                try account(info, &continuity)
                continue
            }
            let (fromCheckpoint, ignored) = try ActiveSegment.fromCheckpoint(
                path: path, expectation: expected, segmentsPath: segmentsPath, fileSystem: fileSystem)
            ignoredCheckpoint = ignored
            if let info = try fromCheckpoint ?? recoverNewestSegment(path: path, expectation: expected) {
                try account(info, &continuity)
            }
        }
        versionVector = continuity.versionVector
        if let newest = segments.last, !newest.sealed {
            let segment = ActiveSegment(number: newest.number, length: newest.fileSize, watermark: newestWatermark,
                                        segmentsPath: segmentsPath, fileSystem: fileSystem)
            active = segment
            try recordIntactTail(of: segment)
        }
    }

    /// The newest segment's watermark (Schemas/segment-format.md §5b), `nil` for a segment
    /// written before watermarks; for one the ledger's `watermarked_from` covers, a missing,
    /// short, damaged or stale watermark is corruption naming it, and nothing is cut (§6).
    private func readWatermark(of number: UInt32, segmentPath: String) throws -> SegmentWatermark? {
        try SegmentWatermark.readNewest(of: number, segmentPath: segmentPath, required: metadata.requiresWatermark(number),
                                        fileSystem: fileSystem).get()
    }

    /// Frames past the watermark that read back intact (an append that crashed after its data
    /// sync, or a segment written before watermarks) are recorded as durable now, before any
    /// reader can hand them on: from here a flipped byte in them is damage, not a tear. A reader
    /// opens the ledger again as a writer for it, unless the directory cannot be written at all.
    private func recordIntactTail(of segment: ActiveSegment) throws {
        let length = segments[segments.count - 1].fileSize
        guard (segment.watermark?.durableLength ?? -1) < length else { return }
        if lockMode == .shared {
            guard isWritable(segmentsPath) && isWritable(segment.path) else { return }
            throw RecoveryNeedsWriter()
        }
        try segment.recordDurable(length: length, localSeq: versionVector[localDevice] ?? 0)
    }

    /// Scans the newest, unsealed segment and cuts a torn tail away (`TornTailRecovery`).
    /// Returns `nil` if the segment held nothing usable and was moved aside whole.
    private func recoverNewestSegment(path: String, expectation: SegmentReader.Expectation) throws -> SegmentInfo? {
        scannedNewestSegment = true
        let bytes = try fileSystem.readFile(path)
        let reader = SegmentReader(path: path, policy: .tolerateTornTail, expectation: expectation, decoder: decoder, blockDecoder: blockDecoder)
        let outcome = try bytes.withUnsafeBytes { try reader.read($0, summarize: true) }
        var size = bytes.count
        if let tear = outcome.tear {
            if lockMode == .shared { throw RecoveryNeedsWriter() }
            let cut = try TornTailRecovery.cut(tear, bytes: bytes, segmentNumber: expectation.number,
                                               segmentsPath: segmentsPath, fileSystem: fileSystem)
            recovery = cut.report
            guard cut.segmentRemains else { return nil }
            size = tear.offset
        }
        guard let header = outcome.header else { return nil }
        return SegmentInfo(number: expectation.number, path: path, header: header, summary: outcome.summary,
                           sealed: outcome.footerOffset != nil, fileSize: size)
    }

    /// Folds a segment's summary into the ledger state, checking that every device's seqs
    /// continue where the previous segments left them.
    private func account(_ info: SegmentInfo, _ continuity: inout SeqContinuity) throws {
        for range in info.summary.deviceRanges {
            if let gap = continuity.accept(device: range.device, first: range.firstSeq, last: range.lastSeq) {
                throw LedgerError.corrupt(gap.message(), file: info.path, offset: 0)
            }
        }
        for name in info.summary.deviceNames where name.hlc >= (deviceNames[name.device]?.hlc ?? .zero) {
            deviceNames[name.device] = name
        }
        if !info.summary.isEmpty { lastHLC = max(lastHLC, info.summary.maxHLC) }
        segments.append(info)
    }
}

/// A reader (shared lock) found a torn tail to cut, or an intact tail to record as durable:
/// both are writes, so the ledger is opened again under the exclusive lock.
struct RecoveryNeedsWriter: Error {}
