import LedgerCore

/// `verify --json`: one object (docs/ledger-cli.md, "verify"); `JSONOutput` writes it.
struct VerifyOutput: Encodable {
    var ok = true
    var segments: Int
    var sealedSegments: Int
    var frames: Int
    var events: UInt64
    var records: UInt64
    var devices: Int
    var bytesOnDisk: Int
    var rawBytes: UInt64
    /// Rounded to two decimals, as the text output prints it.
    var compressionRatio: Double
    @NullWhenAbsent var ignoredCheckpoint: String?

    enum CodingKeys: String, CodingKey {
        case ok, segments, sealedSegments = "sealed_segments", frames, events, records, devices
        case bytesOnDisk = "bytes_on_disk", rawBytes = "raw_bytes", compressionRatio = "compression_ratio"
        case ignoredCheckpoint = "ignored_checkpoint"
    }

    init(_ report: VerifyReport, ratio: Double) {
        segments = report.segments
        sealedSegments = report.sealedSegments
        frames = report.frames
        events = report.events
        records = report.records
        devices = report.devices
        bytesOnDisk = report.bytesOnDisk
        rawBytes = report.rawBytes
        compressionRatio = ratio
        ignoredCheckpoint = report.ignoredCheckpoint
    }
}
