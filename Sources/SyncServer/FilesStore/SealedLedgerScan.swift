import LedgerCore
import LedgerSync

/// An encrypted account's sealed ledger read without its lock (`StoredLedgerScan`'s sealed
/// half, for `server users`, `verify` and `export` while `serve` holds it): every segment read
/// on its own with every frame checked as §3.6 and segment-format.md §5 say, seq continuity
/// across segments, the newest segment's watermark honoured; a torn tail (a push being written)
/// is left for its owner. Nothing is written.
enum SealedLedgerScan {
    /// The sealed records before the first damage, and that damage.
    static func read(directory: String, metadata: LedgerMetadata, fileSystem: any FileSystem) throws -> (SealedRecords, LedgerError?) {
        let segmentsPath = Path.join(directory, Ledger.segmentsDirectory)
        let numbers = try SegmentInfo.numbers(in: segmentsPath, fileSystem: fileSystem)
        var records = SealedRecords()
        var continuity = SeqContinuity()
        var position: UInt64 = 0
        for (index, number) in numbers.enumerated() {
            let path = Path.join(segmentsPath, SegmentInfo.fileName(number))
            guard number == UInt32(index + 1) else {
                let missing = Path.join(segmentsPath, SegmentInfo.fileName(UInt32(index + 1)))
                return (records, SegmentFault(.missing(segment: UInt32(index + 1)), file: missing, offset: 0).error)
            }
            let isNewest = index == numbers.count - 1
            var expectation = SegmentReader.Expectation(number: number, ledgerID: metadata.ledgerIDBytes, firstRecordPosition: position,
                                                        mustBeSealed: !isNewest, records: .sealed)
            if isNewest {
                // Below the watermark, damage is damage, never a tear.
                switch SegmentWatermark.readNewest(of: number, segmentPath: path, required: metadata.requiresWatermark(number),
                                                   fileSystem: fileSystem) {
                case .success(let mark): expectation.durableLength = mark?.durableLength ?? 0
                case .failure(let error): return (records, error)
                }
            }
            let bytes = try fileSystem.readFile(path)
            var gap: LedgerError?
            let outcome = try bytes.withUnsafeBytes { buffer in
                try SegmentReader(path: path, policy: .salvage, expectation: expectation).read(buffer, summarize: true, frameDone: { frame in
                    try SealedRecordStream.forEach(in: frame.records) { view in
                        if gap == nil, let found = continuity.accept(view) {
                            gap = .corrupt(found.message(), file: path, offset: frame.offset)
                        }
                    }
                    guard gap == nil else { return .stop }
                    records.append(validated: frame.records, count: frame.count)
                    return .continue
                })
            }
            if let damage = gap ?? outcome.fault?.error { return (records, damage) }
            position += UInt64(outcome.recordsRead)
        }
        return (records, nil)
    }
}
