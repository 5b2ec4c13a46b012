import LedgerTestSupport
import Foundation
import Testing
@testable import LedgerCore

/// The committed golden ledger (Fixtures/golden) pins the on-disk format: a reader must decode it
/// exactly, and `lz4 -dc` must turn its segment into the documented raw record stream.
/// Regenerate with `RECORD_GOLDEN=1 swift test --filter GoldenSegmentTests` (the run then fails
/// on purpose, so that a recorded fixture is always reviewed).
@Suite struct GoldenSegmentTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path
    static let goldenLedger = fixtures + "/golden"
    static let goldenSegment = goldenLedger + "/segments/00000001.seg"
    static let goldenRecords = fixtures + "/golden.records"

    static var expectedStream: [UInt8] {
        var encoder = RecordEncoder()
        for r in GoldenLedger.records { encoder.append(r) }
        return encoder.bytes
    }

    @Test func recordGoldenFilesWhenAsked() throws {
        guard ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil else { return }
        try? FileManager.default.removeItem(atPath: Self.goldenLedger)
        try GoldenLedger.write(to: Self.goldenLedger)
        try Data(Self.expectedStream).write(to: URL(fileURLWithPath: Self.goldenRecords))
        Issue.record("recorded new golden files in \(Self.fixtures); review and commit them, then rerun without RECORD_GOLDEN")
    }

    @Test func readerDecodesGoldenLedgerExactly() throws {
        let dir = try TemporaryDirectory("golden")
        defer { dir.remove() }
        let copy = dir.sub("ledger")
        try FileManager.default.copyItem(atPath: Self.goldenLedger, toPath: copy)
        let ledger = try Ledger.open(directory: copy, useLock: false)
        defer { ledger.close() }
        #expect(ledger.recovery == nil)
        #expect(try ledger.allRecords() == GoldenLedger.records)
        #expect(ledger.versionVector == [GoldenLedger.phone: 5, GoldenLedger.tablet: 2])
        #expect(ledger.deviceNames[GoldenLedger.tablet]?.name == "タブレット")
        #expect(ledger.segments.count == 1 && ledger.segments[0].sealed)
        let report = try ledger.verify()
        #expect(report.events == 7 && report.records == 9 && report.frames == 5 && report.devices == 2)
    }

    static let lz4Tool = ["/usr/bin/lz4", "/usr/local/bin/lz4", "/bin/lz4"].first(where: FileManager.default.isExecutableFile(atPath:))
    /// Without the `lz4` command these tests are skipped, except under CI, where they fail.
    static let canRunLZ4 = lz4Tool != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    @Test(.enabled(if: canRunLZ4, "needs the lz4 command (Debian package lz4)"))
    func writerReproducesGoldenRecordStream() throws {
        let dir = try TemporaryDirectory("golden-write")
        defer { dir.remove() }
        try GoldenLedger.write(to: dir.sub("ledger"))
        let written = try PosixFileSystem().readFile(dir.sub("ledger/segments/00000001.seg"))
        let golden = try PosixFileSystem().readFile(Self.goldenSegment)
        // Same header and footer; the frames may differ only if liblz4's compressor changed, so
        // compare the decompressed streams, not the compressed bytes.
        #expect(Array(written.prefix(SegmentHeader.frameSize)) == Array(golden.prefix(SegmentHeader.frameSize)))
        #expect(try decompressWithStockTool(dir.sub("ledger/segments/00000001.seg")) == Self.expectedStream)
    }

    @Test(.enabled(if: canRunLZ4, "needs the lz4 command (Debian package lz4)"))
    func stockLZ4ToolDecodesGoldenSegmentToDocumentedStream() throws {
        let stream = try decompressWithStockTool(Self.goldenSegment)
        #expect(stream == Self.expectedStream)
        #expect(stream == Array(try Data(contentsOf: URL(fileURLWithPath: Self.goldenRecords))))
    }

    private func decompressWithStockTool(_ path: String) throws -> [UInt8] {
        guard let lz4 = Self.lz4Tool else {
            throw LedgerError(.missingLedger, "the lz4 command is missing: install Debian's lz4 package")
        }
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
