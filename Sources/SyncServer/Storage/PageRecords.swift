import LedgerCore

/// What a pull page (`RecordPage`) carries: plaintext records (`EncodedRecords`) or an
/// encrypted account's sealed records (`SealedRecords`). The page's rules (its bounds, what the
/// client lacks, whole stored frames sent as they are) are written once, over this.
package protocol PageRecords: Sendable {
    associatedtype View
    init()
    var count: Int { get }
    mutating func append(_ view: View)
    /// Every record of a stored frame, keeping the frame to send it as it is stored.
    mutating func append(frame: SegmentReader.Frame)
    /// Every record of a frame's record stream, checked when the frame was read.
    static func forEachChecked(in records: UnsafeRawBufferPointer, _ body: (View) -> Void)
    static func length(of view: View) -> Int
    static func device(of view: View) -> DeviceID
    /// The record's seq; nil for a device name (a page sends every name but the server's own).
    static func seq(of view: View) -> UInt64?
}

extension PageRecords {
    /// A device id no record has (ids are never all zero): the server device of a sealed log.
    package static var noDevice: DeviceID { DeviceID(rawValue: 0) }
}

extension EncodedRecords: PageRecords {
    package static func forEachChecked(in records: UnsafeRawBufferPointer, _ body: (RecordView) -> Void) {
        RecordStream.forEachValidated(in: records, body)
    }
    package static func length(of view: RecordView) -> Int { view.length }
    package static func device(of view: RecordView) -> DeviceID { view.device }
    package static func seq(of view: RecordView) -> UInt64? { view.kind == .deviceName ? nil : view.seq }
}

extension SealedRecords: PageRecords {
    package static func forEachChecked(in records: UnsafeRawBufferPointer, _ body: (SealedRecordView) -> Void) {
        // The frame's records were checked as it was read (`SegmentReader`, sealed mode).
        try? SealedRecordStream.forEach(in: records, body)
    }
    package static func length(of view: SealedRecordView) -> Int { view.length }
    package static func device(of view: SealedRecordView) -> DeviceID { view.device }
    package static func seq(of view: SealedRecordView) -> UInt64? { view.kind == .name ? nil : view.seq }
}
