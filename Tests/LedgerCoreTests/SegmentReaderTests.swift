import LedgerTestSupport
import Testing
@testable import LedgerCore

/// `SegmentReader` under each policy, table-driven over the kinds of fault: strict throws every
/// fault as corruption naming the file and offset; tolerating a torn tail turns exactly the faults
/// at the tail of a segment that may be open into a tear; salvage never throws and reports the
/// fault (or the tear) after handing out the records before it.
@Suite struct SegmentReaderTests {
    static let path = "segments/00000001.seg"

    /// Segment 1 of a fresh ledger: the device name, then three batches (four frames), unsealed
    /// and sealed, plus the ledger id and the records in order.
    struct Subject {
        var open: [UInt8]
        var sealed: [UInt8]
        var ledgerID: [UInt8]
        var records: [LedgerRecord]
        /// The offset of every data frame.
        var frameOffsets: [Int]
    }

    static let subject: Subject = {
        let fileSystem = CrashableFileSystem()
        let ledger = try! Ledger.create(directory: "/l", deviceName: "reader", fileSystem: fileSystem,
                                        clock: FixedClock(milliseconds: 1_700_000_000_000), useLock: false)
        var offsets = [SegmentHeader.frameSize]
        for batch in 0..<3 {
            offsets.append(ledger.segments[0].fileSize)
            try! ledger.appendLocal((1...5).map { StationEditDraft(station: UInt32(batch * 10 + $0), compDate: .year(2000 + $0)) })
        }
        let segment = ledger.segments[0].path
        let open = try! fileSystem.readFile(segment)
        try! ledger.sealActiveSegment()
        let sealed = try! fileSystem.readFile(segment)
        let records = try! ledger.allRecords()
        return Subject(open: open, sealed: sealed, ledgerID: ledger.metadata.ledgerIDBytes, records: records, frameOffsets: offsets)
    }()

    /// One damaged segment and the fault it must be read as.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: @Sendable () -> [UInt8]
        var number: UInt32 = 1
        var otherLedger = false
        var position: UInt64? = 0
        var mustBeSealed = false
        var kind: SegmentFault.Kind
        var offset: @Sendable () -> Int
        /// Whether the fault is a torn write when the segment may be open.
        var atTail = false
        /// How many records come before the fault.
        var recordsBefore: @Sendable () -> Int = { 0 }

        var testDescription: String { name }
    }

    static func flipped(_ bytes: [UInt8], at offset: Int) -> [UInt8] {
        var copy = bytes
        copy[offset] ^= 0x5A
        return copy
    }

    static let cases: [Case] = {
        let s = subject
        let lastFrame = s.frameOffsets.last!
        let footerOffset = s.open.count
        return [
            Case(name: "header cut off", bytes: { Array(s.open.prefix(30)) }, kind: .headerCutOff, offset: { 0 }, atTail: true),
            Case(name: "header checksum", bytes: { flipped(s.open, at: 30) },
                 kind: .headerMalformed("the segment header checksum does not match"), offset: { 0 }),
            Case(name: "header of another segment", bytes: { s.open }, number: 2, position: nil,
                 kind: .wrongNumber(1), offset: { 0 }),
            Case(name: "header of another ledger", bytes: { s.open }, otherLedger: true, kind: .otherLedger, offset: { 0 }),
            Case(name: "header at another position", bytes: { s.open }, position: 9,
                 kind: .wrongPosition(found: 0, expected: 9), offset: { 0 }),
            Case(name: "last frame cut off", bytes: { Array(s.open.dropLast(3)) }, kind: .frameCutOff,
                 offset: { lastFrame }, atTail: true, recordsBefore: { 11 }),
            Case(name: "first frame damaged, frames follow", bytes: { flipped(s.open, at: s.frameOffsets[1] + 20) },
                 kind: .frameMalformed("an LZ4 frame fails its checksum (ERROR_blockChecksum_invalid)"),
                 offset: { s.frameOffsets[1] }, recordsBefore: { 1 }),
            Case(name: "last frame damaged", bytes: { flipped(s.open, at: lastFrame + 20) },
                 kind: .frameMalformed("an LZ4 frame fails its checksum (ERROR_blockChecksum_invalid)"),
                 offset: { lastFrame }, atTail: true, recordsBefore: { 11 }),
            Case(name: "unknown frame magic at the tail", bytes: { s.open + [1, 2, 3, 4, 5] },
                 kind: .frameMalformed("unknown frame magic"), offset: { footerOffset }, atTail: true, recordsBefore: { 16 }),
            Case(name: "malformed record (format 1)", bytes: {
                     var bytes = SegmentHeader(segmentNumber: 1, ledgerID: s.ledgerID, firstRecordPosition: 0, formatVersion: 1).encoded()
                     [UInt8](repeating: 0xEE, count: 40).withUnsafeBytes { LZ4Frame.compress($0, appendingTo: &bytes) }
                     return bytes
                 }, kind: .recordMalformed(contentOffset: 0, reason: "a record runs past its frame"), offset: { SegmentHeader.frameSize }),
            Case(name: "malformed block (format 2)", bytes: {
                     var bytes = SegmentHeader(segmentNumber: 1, ledgerID: s.ledgerID, firstRecordPosition: 0, formatVersion: 2).encoded()
                     [UInt8](repeating: 0xEE, count: 60).withUnsafeBytes { LZ4Frame.compress($0, appendingTo: &bytes) }
                     return bytes
                 }, kind: .blockMalformed(contentOffset: 0, reason: "a block does not start with ORB2"), offset: { SegmentHeader.frameSize }),
            Case(name: "malformed record in a well-formed block (format 2)", bytes: {
                     // A station edit of station 0: the block decodes, the record check refuses it.
                     var records = RecordEncoder()
                     records.append(StationEdit(id: EventID(device: DeviceID(rawValue: 9), seq: 1), hlc: HybridTimestamp(rawValue: 1 << 16),
                                                station: 0, compDate: .unknown, memo: nil, origin: .user))
                     var block: [UInt8] = []
                     records.bytes.withUnsafeBytes { ColumnarBlock.encode($0, appendingTo: &block) }
                     var bytes = SegmentHeader(segmentNumber: 1, ledgerID: s.ledgerID, firstRecordPosition: 0, formatVersion: 2).encoded()
                     block.withUnsafeBytes { LZ4Frame.compress($0, appendingTo: &bytes) }
                     return bytes
                 }, kind: .recordMalformed(contentOffset: 0, reason: "a station edit has a zero device, seq or station"),
                 offset: { SegmentHeader.frameSize }),
            Case(name: "footer damaged", bytes: { flipped(s.sealed, at: footerOffset + 20) }, kind: .footerDamaged,
                 offset: { footerOffset }, atTail: true, recordsBefore: { 16 }),
            Case(name: "bytes after the footer", bytes: { s.sealed + [0] }, kind: .bytesAfterFooter,
                 offset: { s.sealed.count }, recordsBefore: { 16 }),
            Case(name: "footer of other frames", bytes: { s.open + SegmentFooter.encode(SegmentSummary(), segmentNumber: 1) },
                 kind: .footerMismatch, offset: { footerOffset }, recordsBefore: { 16 }),
            Case(name: "not sealed", bytes: { s.open }, mustBeSealed: true, kind: .notSealed,
                 offset: { s.open.count }, recordsBefore: { 16 }),
        ]
    }()

    func reader(_ c: Case, _ policy: SegmentReader.Policy) -> SegmentReader {
        let ledgerID = c.otherLedger ? [UInt8](repeating: 7, count: 16) : Self.subject.ledgerID
        return SegmentReader(path: Self.path, policy: policy,
                             expectation: .init(number: c.number, ledgerID: ledgerID, firstRecordPosition: c.position,
                                                mustBeSealed: c.mustBeSealed))
    }

    @Test(arguments: cases)
    func strictThrowsEveryFault(_ c: Case) throws {
        let error = #expect(throws: LedgerError.self) {
            _ = try c.bytes().withUnsafeBytes { try reader(c, .strict).read($0, summarize: true) }
        }
        let expected = SegmentFault(c.kind, file: Self.path, offset: c.offset())
        #expect(error?.category == .corruption)
        #expect(error?.message == expected.message)
        #expect(error?.file == Self.path && error?.offset == c.offset())
    }

    @Test(arguments: cases)
    func tolerateTornTailCutsOnlyTheTail(_ c: Case) throws {
        let expected = SegmentFault(c.kind, file: Self.path, offset: c.offset())
        if c.atTail && !c.mustBeSealed {
            let outcome = try c.bytes().withUnsafeBytes { try reader(c, .tolerateTornTail).read($0, summarize: true) }
            #expect(outcome.tear == expected)
            #expect(outcome.fault == nil)
        } else {
            let error = #expect(throws: LedgerError.self) {
                _ = try c.bytes().withUnsafeBytes { try reader(c, .tolerateTornTail).read($0, summarize: true) }
            }
            #expect(error?.message == expected.message && error?.offset == c.offset())
        }
    }

    @Test(arguments: cases)
    func salvageReportsTheFaultAfterTheRecordsBeforeIt(_ c: Case) throws {
        var records: [LedgerRecord] = []
        let outcome = try c.bytes().withUnsafeBytes {
            try reader(c, .salvage).read($0, summarize: true) { view, _ in
                records.append(view.record)
                return .continue
            }
        }
        let expected = SegmentFault(c.kind, file: Self.path, offset: c.offset())
        #expect((c.atTail && !c.mustBeSealed ? outcome.tear : outcome.fault) == expected)
        #expect(records.count == c.recordsBefore())
        #expect(records == Array(Self.subject.records.prefix(records.count)))
    }

    @Test func anIntactSegmentReadsCleanlyUnderEveryPolicy() throws {
        for policy in [SegmentReader.Policy.strict, .tolerateTornTail, .salvage] {
            let reader = SegmentReader(path: Self.path, policy: policy,
                                       expectation: .init(number: 1, ledgerID: Self.subject.ledgerID, firstRecordPosition: 0,
                                                          mustBeSealed: true))
            var records: [LedgerRecord] = []
            let outcome = try Self.subject.sealed.withUnsafeBytes {
                try reader.read($0, summarize: true) { view, _ in
                    records.append(view.record)
                    return .continue
                }
            }
            #expect(outcome.tear == nil && outcome.fault == nil && !outcome.stopped)
            #expect(outcome.footerOffset == Self.subject.open.count && outcome.footer == outcome.summary)
            #expect(records == Self.subject.records)
        }
    }

    @Test func aVisitorStopsTheReadWithoutAnError() throws {
        let reader = SegmentReader(path: Self.path, policy: .strict,
                                   expectation: .init(number: 1, ledgerID: Self.subject.ledgerID, mustBeSealed: false))
        var seen = 0
        let outcome = try Self.subject.sealed.withUnsafeBytes {
            try reader.read($0) { _, _ in
                seen += 1
                return seen == 7 ? .stop : .continue
            }
        }
        #expect(outcome.stopped && seen == 7)
    }
}
