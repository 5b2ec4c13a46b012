import LedgerCore

/// One segment file read on its own, tolerating damage: what it still holds that checksums
/// vouch for, and the first fault found, if any (used by `LedgerRepair`).
///
/// Unlike `Ledger.open`, nothing here trusts the file: the header, every frame and the footer are
/// all checked, and a fault stops the reading instead of failing it, so that the records before
/// the fault stay usable.
package struct SalvagedSegment: Sendable {
    package var number: UInt32
    package var path: String
    package var fileName: String { SegmentInfo.fileName(number) }
    package var header: SegmentHeader?
    /// The records that decoded with good checksums, in file order, up to the first fault.
    package var records: [LedgerRecord] = []
    /// The footer's summary, if the footer itself is intact (even when frames are damaged).
    package var footer: SegmentSummary?
    /// The first fault; `nil` for an intact segment.
    package var damage: LedgerError?

    package var isIntact: Bool { damage == nil }

    /// Reads `path`. A torn tail is tolerated only in the newest segment (opening truncates it);
    /// every other segment must be sealed with a footer that matches its frames.
    package static func read(number: UInt32, path: String, ledgerID: [UInt8], isNewest: Bool,
                             fileSystem: any FileSystem) -> SalvagedSegment {
        var segment = SalvagedSegment(number: number, path: path)
        let bytes: [UInt8]
        do { bytes = try fileSystem.readFile(path) } catch let error as LedgerError {
            segment.damage = error
            return segment
        } catch {
            segment.damage = LedgerError(.io, "\(error)", file: path)
            return segment
        }
        bytes.withUnsafeBytes { buffer in
            if case .sealed(let summary, let footerNumber, _) = SegmentFooter.decodeTrailing(buffer), footerNumber == number {
                segment.footer = summary
            }
            if case .success(let header) = SegmentHeader.decode(buffer) { segment.header = header }
            segment.damage = segment.scan(buffer, ledgerID: ledgerID, isNewest: isNewest)
        }
        return segment
    }

    /// Collects the records and returns the first fault.
    private mutating func scan(_ buffer: UnsafeRawBufferPointer, ledgerID: [UInt8], isNewest: Bool) -> LedgerError? {
        var summary = SegmentSummary()
        var collected: [LedgerRecord] = []
        let outcome: SegmentScanner.Outcome
        do {
            outcome = try SegmentScanner(path: path, bytes: buffer, decoder: LZ4FrameDecoder())
                .scan(tolerateTornTail: isNewest) { content, frameOffset, _ in
                    do {
                        try RecordStream.forEach(in: content) { view in
                            summary.add(view)
                            collected.append(view.record)
                        }
                    } catch let fault as RecordStream.Fault {
                        throw LedgerError.corrupt("a record at content offset \(fault.offset) of the frame is malformed: \(fault.reason)",
                                                  file: path, offset: frameOffset)
                    }
                    summary.addFrame(rawBytes: content.count)
                }
        } catch let error as LedgerError {
            records = collected
            return error
        } catch {
            records = collected
            return LedgerError(.corruption, "\(error)", file: path, offset: 0)
        }
        records = collected
        let header: SegmentHeader?
        switch outcome {
        case .clean(let h, let footerOffset):
            header = h
            if footerOffset != nil {
                guard footer == summary else {
                    return .corrupt("the segment footer does not match the segment's frames", file: path, offset: footerOffset!)
                }
            } else if !isNewest {
                return .corrupt("a segment other than the newest is not sealed", file: path, offset: buffer.count)
            }
        case .torn(let h, _, _):
            header = h
        }
        guard let header else { return nil }
        guard header.segmentNumber == number else {
            return .corrupt("the segment header says it is segment \(header.segmentNumber)", file: path, offset: 0)
        }
        guard header.ledgerID == ledgerID else {
            return .corrupt("the segment belongs to another ledger", file: path, offset: 0)
        }
        return nil
    }

    /// The highest seq per device among the readable records.
    package var highestSeqs: [DeviceID: UInt64] {
        var highest: [DeviceID: UInt64] = [:]
        for record in records {
            guard let id = record.eventID else { continue }
            highest[id.device] = max(highest[id.device] ?? 0, id.seq)
        }
        return highest
    }
}
