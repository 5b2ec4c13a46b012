import LedgerTestSupport
import Foundation
import Testing
@testable import LedgerCore

/// The committed golden ledgers pin the on-disk formats (Schemas/segment-format.md):
///
/// - `Fixtures/golden-v1`, format 1, written before format 2 existed: a reader must still decode
///   it exactly, and `lz4 -dc` must turn its segment into the documented raw record stream
///   (`golden-v1.records`). It can no longer be re-recorded: writers write format 2.
/// - `Fixtures/golden-v2`, format 2, which the writer must reproduce: `lz4 -dc` turns its
///   segment into the documented block stream (`golden-v2.blocks`), which decodes to the same
///   raw record stream.
///
/// Regenerate the format-2 files with `RECORD_GOLDEN=1 swift test --filter GoldenSegmentTests`
/// (the run then fails on purpose, so that a recorded fixture is always reviewed).
@Suite struct GoldenSegmentTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
    static let goldenV1 = fixtures + "/golden-v1"
    static let goldenV1Records = fixtures + "/golden-v1.records"
    static let goldenV2 = fixtures + "/golden-v2"
    static let goldenV2Blocks = fixtures + "/golden-v2.blocks"
    static let segment = "/segments/00000001.seg"

    static func stream(_ records: [LedgerRecord]) -> [UInt8] {
        var encoder = RecordEncoder()
        for r in records { encoder.append(r) }
        return encoder.bytes
    }

    @Test func recordGoldenFilesWhenAsked() throws {
        guard ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil else { return }
        try? FileManager.default.removeItem(atPath: Self.goldenV2)
        try GoldenLedger.write(to: Self.goldenV2)
        try Data(try decompressWithStockTool(Self.goldenV2 + Self.segment)).write(to: URL(fileURLWithPath: Self.goldenV2Blocks))
        Issue.record("recorded new golden files in \(Self.fixtures); review and commit them, then rerun without RECORD_GOLDEN")
    }

    /// Opens a copy of a golden ledger and checks that it reads back as `records`.
    private func expectDecodesExactly(_ golden: String, records: [LedgerRecord], format: UInt16, frames: Int) throws {
        let dir = try TemporaryDirectory("golden")
        defer { dir.remove() }
        let copy = dir.sub("ledger")
        try FileManager.default.copyItem(atPath: golden, toPath: copy)
        let ledger = try Ledger.open(directory: copy, useLock: false)
        defer { ledger.close() }
        #expect(ledger.recovery == nil)
        #expect(ledger.segments.map(\.header.formatVersion) == [format])
        #expect(try ledger.allRecords() == records)
        #expect(ledger.versionVector == [GoldenLedger.phone: UInt64(records.count - 4), GoldenLedger.tablet: 2])
        #expect(ledger.deviceNames[GoldenLedger.tablet]?.name == "タブレット")
        #expect(ledger.segments.count == 1 && ledger.segments[0].sealed)
        let report = try ledger.verify()
        #expect(report.events == records.count - 2 && report.records == records.count && report.frames == frames && report.devices == 2)
        #expect(report.rawBytes == UInt64(Self.stream(records).count), "the footer counts the raw record stream in both formats")
    }

    @Test func readerDecodesFormatOneGoldenLedgerExactly() throws {
        try expectDecodesExactly(Self.goldenV1, records: GoldenLedger.records, format: 1, frames: 5)
    }

    @Test func readerDecodesFormatTwoGoldenLedgerExactly() throws {
        try expectDecodesExactly(Self.goldenV2, records: GoldenLedger.recordsV2, format: 2, frames: 6)
    }

    @Test func formatTwoBlockStreamDecodesToTheRawRecordStream() throws {
        let blocks = try PosixFileSystem().readFile(Self.goldenV2Blocks)
        let decoder = ColumnarBlockDecoder()
        let decoded = try blocks.withUnsafeBytes { Array(try decoder.decode($0)) }
        withExtendedLifetime(decoder) {}
        #expect(decoded == Self.stream(GoldenLedger.recordsV2))
        var encoded: [UInt8] = []
        // One block per frame, frame by frame as the writer batched them.
        for batch in [0..<1, 1..<3, 3..<4, 4..<7, 7..<9, 9..<10] {
            Self.stream(Array(GoldenLedger.recordsV2[batch])).withUnsafeBytes { ColumnarBlock.encode($0, appendingTo: &encoded) }
        }
        #expect(encoded == blocks)
    }

    /// Without the `lz4` command these tests are skipped, except under CI, where they fail.
    @Test(.requires(.lz4))
    func writerReproducesFormatTwoGoldenSegment() throws {
        let dir = try TemporaryDirectory("golden-write")
        defer { dir.remove() }
        try GoldenLedger.write(to: dir.sub("ledger"))
        let written = try PosixFileSystem().readFile(dir.sub("ledger") + Self.segment)
        let golden = try PosixFileSystem().readFile(Self.goldenV2 + Self.segment)
        // Same header and footer; the frames may differ only if liblz4's compressor changed, so
        // compare the decompressed streams, not the compressed bytes.
        #expect(Array(written.prefix(SegmentHeader.frameSize)) == Array(golden.prefix(SegmentHeader.frameSize)))
        #expect(written[SegmentHeader.frameSize - 36] == 2, "the header says format 2")
        #expect(try decompressWithStockTool(dir.sub("ledger") + Self.segment) == (try PosixFileSystem().readFile(Self.goldenV2Blocks)))
    }

    @Test(.requires(.lz4))
    func stockLZ4ToolDecodesGoldenSegmentsToTheirDocumentedStreams() throws {
        let v1 = try decompressWithStockTool(Self.goldenV1 + Self.segment)
        #expect(v1 == Self.stream(GoldenLedger.records))
        #expect(v1 == (try PosixFileSystem().readFile(Self.goldenV1Records)))
        #expect(try decompressWithStockTool(Self.goldenV2 + Self.segment) == (try PosixFileSystem().readFile(Self.goldenV2Blocks)))
    }

    private func decompressWithStockTool(_ path: String) throws -> [UInt8] {
        let lz4 = try #require(TestComponent.lz4Tool)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lz4)
        process.arguments = ["-dc", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return Array(data)
    }
}
