import LedgerCore

/// The one version of the tool, and what `--version` prints with it: the segment formats this
/// build reads and writes (Schemas/segment-format.md §1), which decide whether two builds can
/// share a ledger.
enum Version {
    /// The release this build is; CHANGELOG.md lists what changed since.
    static let number = "0.1.0"

    static var text: String {
        let readable = SegmentHeader.readableFormatVersions.map(String.init).joined(separator: ", ")
        return "oritsubushi \(number) (segments: reads formats \(readable); writes format \(SegmentHeader.currentFormatVersion))"
    }
}
