import Foundation
import LedgerCore
import LedgerSync
import Testing

/// Conformance/app-chunks.jsonl (Schemas/conformance.md, Schemas/phone-app.md "The stored form"):
/// record frames as the phone app keeps them in its chunks — frames liblz4 wrote (a segment's)
/// and frames the app's own writer made (one uncompressed LZ4 block each) — with the records
/// they hold, or the refusal. Written by Tests/WebApp/support/make-app-chunks.mjs; the app's
/// reader (Tests/WebApp/appChunks.test.mjs) and Swift's `RecordFrames.Reader` must agree on
/// every line: the same records, or a refusal at the same frame (and the same record, when
/// §3 refuses a record inside sound frames).
@Suite("Conformance corpus: the app's stored chunks, read by Swift")
struct AppChunksConformanceTests {
    struct Refusal: Decodable {
        var offset: Int
        var record: Int?
    }

    struct Case: Decodable {
        var name: String
        var frames: String
        var records: [WireRecord]?
        var refused: Refusal?

        enum CodingKeys: String, CodingKey { case name = "case", frames, records, refused }
    }

    static let cases: [Case] = {
        let url = ConformanceCorpusTests.directory.appendingPathComponent("app-chunks.jsonl")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { try! JSONDecoder().decode(Case.self, from: Data($0.utf8)) }
    }()

    @Test("the corpus has frames of both writers and refusals") func corpusIsThere() {
        #expect(Self.cases.count >= 20, "Conformance/app-chunks.jsonl: \(Self.cases.count) cases")
        #expect(Self.cases.contains { $0.name.contains("liblz4") } && Self.cases.contains { $0.name.contains("(the app)") })
        #expect(Self.cases.contains { $0.refused != nil })
    }

    @Test("each case decodes to its records, or is refused where it says", arguments: cases.map(\.name))
    func decode(name: String) throws {
        let c = try #require(Self.cases.first { $0.name == name })
        let bytes = try #require(Data(base64Encoded: c.frames), "\(name): frames are not base64")
        var records: [WireRecord] = []
        do {
            try Array(bytes).withUnsafeBytes { buffer in
                try RecordFrames.Reader().forEachRecord(in: buffer) { view in records.append(WireRecord(view.record)) }
            }
        } catch let fault as RecordFrames.Fault {
            let refused = try #require(c.refused, "\(name): Swift refuses at byte \(fault.offset) (\(fault.reason)), the corpus takes it")
            #expect(fault.offset == refused.offset, "\(name): \(fault.reason)")
            #expect(fault.record == refused.record, "\(name): \(fault.reason)")
            return
        }
        #expect(c.refused == nil, "\(name): Swift takes frames the corpus refuses")
        #expect(records == c.records, "\(name)")
    }
}
