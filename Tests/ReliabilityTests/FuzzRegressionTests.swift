import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// Replays the fuzzing seeds (Tests/Fuzz/corpus/TARGET) and every input the fuzzer ever crashed
/// on (Tests/Fuzz/regressions/TARGET) through the harnesses' checks (SegmentFuzzing,
/// ImportFuzzing, SyncRequestFuzzing). A broken property is a test issue naming the input and
/// the harness's sentence (`FuzzCheck`), where libFuzzer trapped; a trap of the code itself
/// still stops the process, as it did under libFuzzer.
@Suite struct FuzzRegressionTests {
    /// The folders replayed below, by target: every folder of corpus/ and regressions/ is one.
    static let replayed: Set<String> = ["segment", "catalog-dump", "tsv", "sync-request"]

    /// Runs one input with violations recorded as issues of the running test.
    static func replay<T>(_ path: String, _ body: () throws -> T) rethrows -> T {
        let name = Path.lastComponent(path)
        return try FuzzCheck.$onViolation.withValue({ message in Issue.record(Comment(rawValue: "\(name): \(message)")) }) {
            try body()
        }
    }

    static let fuzzRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")

    static func inputs(_ folder: String) -> [String] {
        let directory = fuzzRoot.appendingPathComponent(folder).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().map { Path.join(directory, $0) }
    }

    /// One per test: a harness keeps a decoder, and the tests run in parallel.
    let fuzzing = SegmentFuzzing()

    @Test func theSeedCorpusIsThere() throws {
        #expect(Self.inputs("corpus/segment").count >= 10)
        #expect(Self.inputs("regressions/segment").count >= 1)
        #expect(Self.inputs("corpus/catalog-dump").count >= 3)
        #expect(Self.inputs("regressions/catalog-dump").count >= 1)
        #expect(Self.inputs("corpus/tsv").count >= 3)
        #expect(Self.inputs("regressions/tsv").count >= 1)
        #expect(Self.inputs("corpus/sync-request").count >= 3)
        // A folder added for a new harness is replayed, or this fails.
        for kind in ["corpus", "regressions"] {
            let folders = try FileManager.default.contentsOfDirectory(atPath: Self.fuzzRoot.appendingPathComponent(kind).path)
            #expect(Set(folders).isSubset(of: Self.replayed), "\(kind)/ has folders no test replays: \(Set(folders).subtracting(Self.replayed))")
        }
    }

    @Test("a broken property is a test issue, not a trap")
    func violationsAreIssues() {
        withKnownIssue {
            Self.replay("a/sample") { FuzzCheck.require(false, "the property") }
        }
    }

    @Test(arguments: inputs("corpus/segment"))
    func seed(_ path: String) throws {
        let bytes = try PosixFileSystem().readFile(path)
        let read = Self.replay(path) { fuzzing.run(bytes) }
        // Every seed is a real segment or record stream: the ledger must read all of it back.
        #expect(read > 0, "\(Path.lastComponent(path)) read nothing back")
    }

    @Test(arguments: inputs("regressions/segment"))
    func regression(_ path: String) throws {
        // A regression input must read without a crash; how much of it reads back varies.
        let bytes = try PosixFileSystem().readFile(path)
        Self.replay(path) { _ = fuzzing.run(bytes) }
    }

    @Test(arguments: inputs("corpus/catalog-dump") + inputs("regressions/catalog-dump"))
    func catalogDump(_ path: String) throws {
        let bytes = try PosixFileSystem().readFile(path)
        Self.replay(path) { ImportFuzzing.catalogDump(bytes) }
    }

    @Test(arguments: inputs("corpus/tsv") + inputs("regressions/tsv"))
    func tsv(_ path: String) throws {
        let bytes = try PosixFileSystem().readFile(path)
        Self.replay(path) { ImportFuzzing.tsv(bytes) }
    }

    @Test(arguments: inputs("corpus/sync-request") + inputs("regressions/sync-request"))
    func syncRequest(_ path: String) throws {
        let bytes = try PosixFileSystem().readFile(path)
        Self.replay(path) { SyncRequestFuzzing.run(bytes) }
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
