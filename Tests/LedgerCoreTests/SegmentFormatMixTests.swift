import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCore

/// A ledger written before format 2 keeps working (Schemas/segment-format.md §1): its format-1
/// segments stay readable, an unsealed format-1 segment takes appends in format 1 until it is
/// sealed, and every new segment is written in format 2.
@Suite struct SegmentFormatMixTests {
    static let clock = FixedClock(milliseconds: 1_400_000_000_000)

    /// A copy of the format-1 golden ledger; with `unsealed`, its segment's footer is cut off.
    static func formatOneLedger(in dir: TemporaryDirectory, unsealed: Bool) throws -> String {
        let path = dir.sub("ledger")
        try FileManager.default.copyItem(atPath: GoldenSegmentTests.goldenV1, toPath: path)
        if unsealed {
            let segment = path + GoldenSegmentTests.segment
            let bytes = try PosixFileSystem().readFile(segment)
            let payload = bytes.withUnsafeBytes { Int($0.loadLE(UInt32.self, at: bytes.count - 8)) }
            try PosixFileSystem().truncateFile(segment, to: bytes.count - payload - 8)
        }
        return path
    }

    static let drafts = [StationEditDraft(station: 1_130_101, compDate: .day(2014, 5, 1), memo: "新しい"),
                         StationEditDraft(station: 1_130_102, compDate: .unknown)]

    static func expectReadsAndVerifies(_ path: String, formats: [UInt16], records: [LedgerRecord]) throws {
        let ledger = try Ledger.open(directory: path, clock: clock, useLock: false)
        defer { ledger.close() }
        #expect(ledger.segments.map(\.header.formatVersion) == formats)
        #expect(try ledger.allRecords() == records)
        let report = try ledger.verify()
        #expect(report.records == records.count)
    }

    @Test func aSealedFormatOneLedgerGrowsInFormatTwo() throws {
        let dir = try TemporaryDirectory("mix-sealed")
        defer { dir.remove() }
        let path = try Self.formatOneLedger(in: dir, unsealed: false)
        let ledger = try Ledger.open(directory: path, clock: Self.clock, useLock: false)
        let appended = try ledger.appendLocal(Self.drafts).map { LedgerRecord.stationEdit($0) }
        try ledger.sealActiveSegment()
        let more = try ledger.appendLocal([StationEditDraft(station: 1_130_103, compDate: .year(2015))]).map { LedgerRecord.stationEdit($0) }
        #expect(ledger.segments.map(\.header.formatVersion) == [1, 2, 2])
        ledger.close()
        try Self.expectReadsAndVerifies(path, formats: [1, 2, 2], records: GoldenLedger.records + appended + more)
    }

    @Test func anUnsealedFormatOneSegmentTakesAppendsInFormatOneUntilSealed() throws {
        let dir = try TemporaryDirectory("mix-open")
        defer { dir.remove() }
        let path = try Self.formatOneLedger(in: dir, unsealed: true)
        let ledger = try Ledger.open(directory: path, clock: Self.clock, useLock: false)
        #expect(ledger.segments.count == 1 && !ledger.segments[0].sealed)
        let before = ledger.segments[0].fileSize
        let appended = try ledger.appendLocal(Self.drafts).map { LedgerRecord.stationEdit($0) }
        #expect(ledger.segments.map(\.header.formatVersion) == [1])
        // The appended frame holds raw records (format 1), not blocks.
        var encoder = RecordEncoder()
        for record in appended { encoder.append(record) }
        let segment = try PosixFileSystem().readFile(ledger.segments[0].path)
        let decoder = LZ4FrameDecoder()
        let content = try withExtendedLifetime(decoder) {
            try segment.withUnsafeBytes { bytes -> [UInt8] in
                let frame = UnsafeRawBufferPointer(rebasing: bytes[before...])
                guard case .complete(let length, let size) = LZ4Frame.extent(of: frame) else { return [] }
                return Array(try decoder.decompress(frame: UnsafeRawBufferPointer(rebasing: frame[0..<length]), contentSize: size))
            }
        }
        #expect(content == encoder.bytes)
        try ledger.sealActiveSegment()
        let more = try ledger.appendLocal([StationEditDraft(station: 1_130_103, compDate: .year(2015))]).map { LedgerRecord.stationEdit($0) }
        #expect(ledger.segments.map(\.header.formatVersion) == [1, 2])
        ledger.close()
        try Self.expectReadsAndVerifies(path, formats: [1, 2], records: GoldenLedger.records + appended + more)
    }
}
