import LedgerCore
import LedgerTestSupport

/// A ledger on a `CrashableFileSystem` with one sealed segment of 4 events and a newest segment
/// of one append per entry of `batches` (single events and batches), for the tests that cut and
/// flip the newest segment (`TornTailTests`, `DurablePrefixTests`).
struct NewestSegmentLedger {
    let fileSystem: CrashableFileSystem
    /// The newest segment's path.
    let path: String
    /// Every frame boundary of the newest segment (its header's end first), with the number of
    /// events held up to there.
    let boundaries: [(offset: Int, events: UInt64)]

    init(batches: [UInt64], sealNewest: Bool = false) throws {
        fileSystem = CrashableFileSystem()
        let ledger = try Ledger.create(directory: Workload.directory, deviceName: HarnessEvents.deviceName,
                                       fileSystem: fileSystem, clock: Workload.clock, useLock: false)
        defer { ledger.close() }
        var held: UInt64 = 0
        func append(_ count: UInt64) throws {
            _ = try ledger.appendLocal((held + 1...held + count).map(HarnessEvents.draft(seq:)))
            held += count
        }
        try append(4)
        try ledger.sealActiveSegment()
        path = Path.join(ledger.segmentsPath, SegmentInfo.fileName(2))
        var boundaries: [(offset: Int, events: UInt64)] = []
        for count in batches {
            try append(count)
            if boundaries.isEmpty { boundaries.append((SegmentHeader.frameSize, held - count)) }
            boundaries.append((try fileSystem.fileSize(path), held))
        }
        if sealNewest {
            try ledger.sealActiveSegment()
            boundaries.append((try fileSystem.fileSize(path), boundaries.last!.events))
        }
        self.boundaries = boundaries
    }
}
