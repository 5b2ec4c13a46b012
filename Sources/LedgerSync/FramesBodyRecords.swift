import LedgerCore

/// Which records a frames body holds: a plaintext account's (kinds 1–4) or an end-to-end
/// encrypted account's sealed ones (kinds 5 and 6). A stream holds one or the other, never both
/// (Schemas/segment-format.md §3, §3.6).
package enum RecordForm: Sendable, Equatable {
    case plaintext
    case sealed

    /// The form of the record a reader of `expected` records refused with `reason`, when that is
    /// why it refused it: the record is of the other form. The readers' sentences are those
    /// segment-format.md §3.6 fixes ("a plaintext record (kind N) where only sealed records may
    /// be", "a sealed record (kind N) where only plaintext records may be").
    init?(misplacedIn expected: RecordForm, reason: String) {
        switch expected {
        case .sealed:
            guard reason.hasPrefix("a plaintext record (kind "), reason.hasSuffix(") where only sealed records may be") else { return nil }
            self = .plaintext
        case .plaintext:
            guard reason.hasPrefix("a sealed record (kind "), reason.hasSuffix(") where only plaintext records may be") else { return nil }
            self = .sealed
        }
    }
}

/// The records of a frames body, of either form: what `FramesBody` encodes and decodes, with one
/// decoding for both (only the reader's record walk differs).
package protocol FramesBodyRecords: Sendable {
    /// The view the reader hands out of one record.
    associatedtype View

    static var form: RecordForm { get }
    /// About how many bytes a record takes, to reserve room for a declared count.
    static var typicalRecordBytes: Int { get }
    /// Walks every record of `frames` with `reader`, checked as this form's reader checks them;
    /// returns how many records each frame holds.
    static func forEach(in frames: UnsafeRawBufferPointer, reader: RecordFrames.Reader,
                        _ visit: (View) throws -> Void) throws -> [Int]

    /// The length of one record, as its raw record stream holds it.
    static func length(of view: View) -> Int

    init()
    var bytes: [UInt8] { get }
    var count: Int { get }
    var frames: RecordFrames.Received? { get }
    mutating func reserve(bytes: Int)
    mutating func append(_ view: View)
    mutating func keep(readFrom frames: RecordFrames.Received)
}

extension EncodedRecords: FramesBodyRecords {
    package static var form: RecordForm { .plaintext }
    package static var typicalRecordBytes: Int { 64 }

    package static func forEach(in frames: UnsafeRawBufferPointer, reader: RecordFrames.Reader,
                                _ visit: (RecordView) throws -> Void) throws -> [Int] {
        try reader.forEachRecord(in: frames, visit)
    }

    package static func length(of view: RecordView) -> Int { view.length }
}

extension SealedRecords: FramesBodyRecords {
    package static var form: RecordForm { .sealed }
    /// A sealed station edit without a memo: 4 + 32 + 64 + 16 bytes (encryption.md §3.4).
    package static var typicalRecordBytes: Int { 116 }

    package static func forEach(in frames: UnsafeRawBufferPointer, reader: RecordFrames.Reader,
                                _ visit: (SealedRecordView) throws -> Void) throws -> [Int] {
        try reader.forEachSealedRecord(in: frames, visit)
    }

    package static func length(of view: SealedRecordView) -> Int { view.length }
}
