import LedgerCore

/// `verify --json`: one object (docs/ledger-cli.md, "verify"); `JSONOutput` writes it.
struct VerifyOutput: Encodable {
    var ok = true
    var segments, sealedSegments, frames: Int
    var events, records: UInt64
    var devices, bytesOnDisk: Int
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
        (segments, sealedSegments, frames) = (report.segments, report.sealedSegments, report.frames)
        (events, records, devices) = (report.events, report.records, report.devices)
        (bytesOnDisk, rawBytes, compressionRatio) = (report.bytesOnDisk, report.rawBytes, ratio)
        ignoredCheckpoint = report.ignoredCheckpoint
    }
}
