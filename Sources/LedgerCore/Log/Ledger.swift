/// An append-only ledger directory: `ledger.json`, `LOCK` and `segments/NNNNNNNN.seg`
/// (Schemas/segment-format.md).
///
/// Opening takes the single-writer lock, reads the header and footer of every sealed segment
/// (never their frames), scans only the newest unsealed segment, and truncates a torn tail there.
/// So opening costs time proportional to one segment, not to the log.
///
/// This file holds the log's state; creating, opening, appending and reading are in
/// `Ledger+Create`, `+Open`, `+Append` and `+Read`. Every segment is read through
/// `SegmentReader`, and the newest one written through `ActiveSegment`.
package final class Ledger {
    package static let segmentsDirectory = "segments"
    /// A segment is sealed once it reaches this size; it is never modified afterwards.
    package static let defaultRollThreshold = 32 << 20

    package let directory: String
    package internal(set) var metadata: LedgerMetadata
    package let fileSystem: any FileSystem
    package let clock: any WallClock
    package var rollThreshold = Ledger.defaultRollThreshold

    package internal(set) var segments: [SegmentInfo] = []
    /// Highest seq held per device; seqs are contiguous from 1, so this is the version vector.
    package internal(set) var versionVector: [DeviceID: UInt64] = [:]
    package internal(set) var deviceNames: [DeviceID: DeviceNameRecord] = [:]
    /// The hybrid logical clock: the largest hlc of any record held.
    package internal(set) var lastHLC = HybridTimestamp.zero
    /// Set when opening truncated a torn write.
    package internal(set) var recovery: RecoveryReport?
    /// Set when opening found the newest segment's checkpoint unusable (damaged, or of another
    /// segment) and scanned the segment instead.
    package internal(set) var ignoredCheckpoint: String?
    /// Whether opening had to scan the newest segment's frames (no usable checkpoint).
    package internal(set) var scannedNewestSegment = false

    private var lock: LedgerLock?
    /// How this process holds the ledger: `.shared` (a reader) never writes the log, nor
    /// anything else in the directory except what `LedgerLock.saveToken` guards.
    package var lockMode: LedgerLock.Request.Mode? { lock?.mode }
    /// The newest segment while it is unsealed (appends go there).
    var active: ActiveSegment?
    /// The newest segment's watermark as opening read it.
    var newestWatermark: SegmentWatermark?
    /// Frame starts met so far, so that a read from a position starts near it.
    var frameIndex = FrameIndex()
    let decoder = LZ4FrameDecoder()
    let blockDecoder = ColumnarBlockDecoder()
    let blockEncoder = ColumnarBlockEncoder()

    package var localDevice: DeviceID { metadata.deviceID }
    /// Whether the segments hold sealed records (an encrypted account's, on the server).
    package var holdsSealedRecords: Bool { metadata.recordForm == .sealed }
    package var segmentsPath: String { Path.join(directory, Self.segmentsDirectory) }
    package var recordCount: UInt64 { segments.last?.endPosition ?? 0 }
    package var eventCount: UInt64 { segments.reduce(0) { $0 + $1.summary.eventCount } }
    package var bytesOnDisk: Int { segments.reduce(0) { $0 + $1.fileSize } }

    init(directory: String, metadata: LedgerMetadata, fileSystem: any FileSystem, clock: any WallClock, lock: LedgerLock?) {
        (self.directory, self.metadata, self.fileSystem, self.clock, self.lock) = (directory, metadata, fileSystem, clock, lock)
    }

    deinit { close() }

    package func close() {
        active?.close()
        lock?.release()
        lock = nil
    }

    /// What a segment of this ledger numbered `number` must be.
    func expectation(of number: UInt32, firstRecordPosition: UInt64?, mustBeSealed: Bool) -> SegmentReader.Expectation {
        .init(number: number, ledgerID: metadata.ledgerIDBytes, firstRecordPosition: firstRecordPosition, mustBeSealed: mustBeSealed,
              records: metadata.recordForm)
    }

    /// Advances the clock past a received hlc without appending (used when a peer's events
    /// are seen).
    package func observe(_ hlc: HybridTimestamp) {
        lastHLC = max(lastHLC, hlc)
    }

    /// The hlc the next local event would get.
    package func nextLocalHLC() -> HybridTimestamp {
        .next(after: lastHLC, wallClock: clock.nowMilliseconds())
    }
}
