/// A record a repair salvages from damaged segments and moves between ledgers: a plaintext
/// `LedgerRecord`, or an end-to-end encrypted account's sealed record (`SealedRecord`, read by the
/// sealed reader, Schemas/segment-format.md §3.6), so that one repair serves both forms of log.
package protocol SalvageableRecord: Sendable {
    /// The form of the ledgers that hold such records (`ledger.json`'s `records`).
    static var form: LedgerRecords { get }
    /// The event's identity (a sealed run's first event's, Schemas/encryption.md §3.5); `nil`
    /// for a record that has no seq (a device name).
    var eventID: EventID? { get }
    /// The seq of the last event the record stands for: its event's, a sealed run's last.
    var lastSeq: UInt64 { get }
    /// Reads `bytes` (a whole segment file) with `reader`, appending each record read to
    /// `records`; what the reader found (its salvage policy reports faults instead of throwing).
    static func salvage(_ bytes: UnsafeRawBufferPointer, with reader: SegmentReader, into records: inout [Self]) -> SegmentReader.Outcome?
}

extension LedgerRecord: SalvageableRecord {
    package static var form: LedgerRecords { .plain }
    package var lastSeq: UInt64 { eventID?.seq ?? 0 }

    package static func salvage(_ bytes: UnsafeRawBufferPointer, with reader: SegmentReader, into records: inout [LedgerRecord]) -> SegmentReader.Outcome? {
        // The salvage policy reports faults instead of throwing, and the visitor throws nothing.
        try? reader.read(bytes, summarize: true) { view, _ in
            records.append(view.record)
            return .continue
        }
    }
}

/// One segment file read on its own, tolerating damage: what it still holds that checksums
/// vouch for, and the first fault found, if any (used by `LedgerRepair` and `SealedLedgerRepair`).
///
/// Unlike `Ledger.open`, nothing here trusts the file: it is read through `SegmentReader` with
/// the salvage policy, so the header, every frame and the footer are all checked, and a fault
/// stops the reading instead of failing it, so that the records before the fault stay usable.
package struct SalvagedSegment<Record: SalvageableRecord>: Sendable {
    package var number: UInt32
    package var path: String
    package var fileName: String { SegmentInfo.fileName(number) }
    package var header: SegmentHeader?
    /// The records that decoded with good checksums, in file order, up to the first fault.
    package var records: [Record] = []
    /// The footer's summary, if the footer itself is intact (even when frames are damaged).
    package var footer: SegmentSummary?
    /// The first fault; `nil` for an intact segment.
    package var damage: LedgerError?
    /// The newest segment's watermark's local seq (Schemas/segment-format.md §5b): the local
    /// device issued every seq up to it, so a repair must restore them all.
    package var acknowledgedLocalSeq: UInt64?

    package var isIntact: Bool { damage == nil }

    /// Reads `path`. A torn tail is tolerated only in the newest segment (opening truncates it);
    /// every other segment must be sealed with a footer that matches its frames.
    /// `watermarkRequired`: the ledger's `watermarked_from` covers this segment, so its
    /// watermark must be sound (Schemas/segment-format.md §5b, §6).
    package static func read(number: UInt32, path: String, ledgerID: [UInt8], isNewest: Bool,
                             watermarkRequired: Bool = false, fileSystem: any FileSystem) -> SalvagedSegment<Record> {
        var segment = SalvagedSegment(number: number, path: path)
        // The watermark before the bytes: a server appending meanwhile only moves both forward,
        // so the bytes read are never shorter than the watermark read.
        let watermark = isNewest ? SegmentWatermark.readNewest(of: number, segmentPath: path, required: watermarkRequired,
                                                               fileSystem: fileSystem)
                                 : .success(nil)
        let bytes: [UInt8]
        do { bytes = try fileSystem.readFile(path) } catch let error as LedgerError {
            segment.damage = error
            return segment
        } catch {
            segment.damage = LedgerError(.io, "\(error)", file: path)
            return segment
        }
        var expectation = SegmentReader.Expectation(number: number, ledgerID: ledgerID, mustBeSealed: !isNewest, records: Record.form)
        if isNewest {
            // Below the watermark, damage is damage, never a tear to tolerate.
            switch watermark {
            case .success(let mark):
                expectation.durableLength = mark?.durableLength ?? 0
                segment.acknowledgedLocalSeq = mark?.localSeq
            case .failure(let error):
                segment.damage = error
            }
        }
        let reader = SegmentReader(path: path, policy: .salvage, expectation: expectation)
        var records: [Record] = []
        bytes.withUnsafeBytes { buffer in
            segment.footer = SegmentReader.intactFooter(of: buffer, number: number)
            let outcome = Record.salvage(buffer, with: reader, into: &records)
            segment.header = outcome?.header
            segment.damage = segment.damage ?? outcome?.fault?.error
        }
        segment.records = records
        return segment
    }

    /// What the segment's checkpoint (`NNNNNNNN.seg.summary`, Schemas/segment-format.md §5a)
    /// says it held as of its last durable append: the newest segment has no footer, and its
    /// readable frames stop at the damage. `nil` without a checkpoint of this segment that decodes.
    package func checkpointedSummary(fileSystem: any FileSystem) throws -> SegmentSummary? {
        let checkpointPath = Path.join(Path.parent(of: path), ActiveSegmentCheckpoint.fileName(number))
        guard fileSystem.fileExists(checkpointPath),
              case .success(let checkpoint) = try fileSystem.readFile(checkpointPath).withUnsafeBytes({ ActiveSegmentCheckpoint.decode($0) }),
              checkpoint.segmentNumber == number else { return nil }
        return checkpoint.summary
    }

    /// The highest seq per device among the readable records.
    package var highestSeqs: [DeviceID: UInt64] {
        var highest: [DeviceID: UInt64] = [:]
        for record in records {
            guard let id = record.eventID else { continue }
            highest[id.device] = max(highest[id.device] ?? 0, record.lastSeq)
        }
        return highest
    }
}

extension SalvageableRecord {
    /// How many events the record stands for: one, a sealed run's several, none for a name.
    package var eventCount: Int { eventID.map { Int(lastSeq - $0.seq + 1) } ?? 0 }
}
