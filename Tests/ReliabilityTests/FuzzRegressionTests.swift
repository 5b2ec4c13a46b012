import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// Replays the fuzzing seeds (Tests/Fuzz/corpus/TARGET) and every input the fuzzer ever crashed
/// on (Tests/Fuzz/regressions/TARGET) through the harnesses' checks (SegmentFuzzing,
/// ImportFuzzing, SyncRequestFuzzing): a regression traps here exactly as it did under libFuzzer.
@Suite struct FuzzRegressionTests {
    static let fuzzRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    static func inputs(_ folder: String) -> [String] {
        let directory = fuzzRoot.appendingPathComponent(folder).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().map { Path.join(directory, $0) }
    }

    /// One per test: a harness keeps a decoder, and the tests run in parallel.
    let fuzzing = SegmentFuzzing()

    @Test func theSeedCorpusIsThere() {
        #expect(Self.inputs("corpus/segment").count >= 10)
        #expect(Self.inputs("regressions/segment").count >= 1)
        #expect(Self.inputs("corpus/catalog-dump").count >= 3)
        #expect(Self.inputs("corpus/tsv").count >= 3)
        #expect(Self.inputs("corpus/sync-request").count >= 3)
    }

    @Test(arguments: inputs("corpus/segment"))
    func seed(_ path: String) throws {
        let bytes = try PosixFileSystem().readFile(path)
        let read = fuzzing.run(bytes)
        // Every seed is a real segment or record stream: the ledger must read all of it back.
        #expect(read > 0, "\(Path.lastComponent(path)) read nothing back")
    }

    @Test(arguments: inputs("regressions/segment"))
    func regression(_ path: String) throws {
        // A regression input must read without a crash; how much of it reads back varies.
        _ = fuzzing.run(try PosixFileSystem().readFile(path))
    }

    @Test(arguments: inputs("corpus/catalog-dump") + inputs("regressions/catalog-dump"))
    func catalogDump(_ path: String) throws {
        ImportFuzzing.catalogDump(try PosixFileSystem().readFile(path))
    }

    @Test(arguments: inputs("corpus/tsv") + inputs("regressions/tsv"))
    func tsv(_ path: String) throws {
        ImportFuzzing.tsv(try PosixFileSystem().readFile(path))
    }

    @Test(arguments: inputs("corpus/sync-request") + inputs("regressions/sync-request"))
    func syncRequest(_ path: String) throws {
        SyncRequestFuzzing.run(try PosixFileSystem().readFile(path))
    }

    /// The first crash libFuzzer found: a catalogue version record with non-zero reserved bytes
    /// was accepted, so a read handed out a record that does not re-encode to its own bytes.
    @Test func catalogueVersionRecordsMustHaveZeroReservedBytes() throws {
        var encoder = RecordEncoder()
        encoder.append(CatalogVersionEvent(id: EventID(device: DeviceID(rawValue: 7), seq: 1), hlc: .zero, version: 176))
        var bytes = encoder.bytes
        try bytes.withUnsafeBytes { content in try RecordStream.forEach(in: content) { _ in } }
        bytes[bytes.count - 1] = 1
        #expect(throws: RecordStream.Fault.self) {
            try bytes.withUnsafeBytes { content in try RecordStream.forEach(in: content) { _ in } }
        }
    }
}
