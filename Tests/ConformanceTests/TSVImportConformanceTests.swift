import Foundation
import LedgerCatalog
import LedgerCore
import LedgerSync
import Testing

/// Conformance/tsv-import.jsonl, the one corpus file written by hand (Schemas/conformance.md):
/// each case's file read by `OritsubushiTSV.parse` and planned by `CompletionImporter.plan` as
/// `import oritsubushi-tsv --skip-invalid` does, against what the phone app's importer must do
/// (Tests/WebApp/tsvImport.test.mjs reads the same file). Refusals are compared by line only:
/// their reason codes are the app's.
@Suite("Conformance corpus: the oritsubushi-tsv import, both sides")
struct TSVImportConformanceTests {
    struct Case: Decodable {
        var name: String
        var tsv: String?
        var tsvHex: String?
        var catalog: [UInt32]?
        var device: String
        var now: Int64
        var held: [WireRecord]?
        var earlier: String?
        var rows: [Row]
        var refused: [Refusal]
        var events: [Event]
        var validRows: Int
        var unknownDates: [Int]
        var clamped: Int

        enum CodingKeys: String, CodingKey {
            case name = "case", tsv, tsvHex = "tsv_hex", catalog, device, now, held, earlier, rows, refused, events
            case validRows = "valid_rows", unknownDates = "unknown_dates", clamped
        }
    }

    struct Row: Decodable, Equatable {
        var line: Int, station: UInt32, compDate: UInt32, updateDate: Int64, memo: String
        enum CodingKeys: String, CodingKey {
            case line, station, memo, compDate = "comp_date", updateDate = "update_date"
        }
    }

    struct Refusal: Decodable { var line: Int }

    struct Event: Decodable, Equatable {
        var station: UInt32, compDate: UInt32?, memo: String?, ms: Int64
        enum CodingKeys: String, CodingKey { case station, memo, ms, compDate = "comp_date" }
    }

    static let cases: [Case] = {
        let url = ConformanceCorpusTests.directory.appendingPathComponent("tsv-import.jsonl")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { try! JSONDecoder().decode(Case.self, from: Data($0.utf8)) }
    }()

    @Test("the corpus has the cases the app is held to") func corpusIsThere() {
        #expect(Self.cases.count >= 10, "Conformance/tsv-import.jsonl: \(Self.cases.count) cases")
    }

    @Test("each case reads and plans as the app's importer says", arguments: cases.map(\.name))
    func plansAsTheCorpusSays(name: String) throws {
        let c = try #require(Self.cases.first { $0.name == name })
        let device = try #require(DeviceID(hex: c.device))
        let catalog = try c.catalog.map { _ in try CatalogStore.bundled() }
        defer { catalog?.close() }
        let today = CalendarDay(tokyoDateOfUnixMilliseconds: c.now)
        var projection = CompletionsProjection()
        for record in c.held ?? [] {
            if case .stationEdit(let edit) = try record.record() { projection.apply(edit) }
        }
        var nextSeq: UInt64 = 1
        var refusedLines: [Int] = []
        if let earlier = c.earlier {
            let plan = try Self.plan(Array(earlier.utf8), catalog, projection, device, nextSeq, today, c.now) { _ in }
            for draft in plan.drafts {
                projection.apply(StationEdit(id: EventID(device: device, seq: nextSeq), hlc: draft.hlc!, station: draft.station,
                                             compDate: draft.compDate, memo: draft.memo, origin: draft.origin))
                nextSeq += 1
            }
        }
        let bytes = try c.tsvHex.map(Self.bytes(hex:)) ?? Array((c.tsv ?? "").utf8)
        var rows: [CompletionRow] = []
        let plan = try Self.plan(bytes, catalog, projection, device, nextSeq, today, c.now, rows: &rows) { refusedLines.append($0) }
        #expect(rows.map { Row(line: $0.line, station: $0.station, compDate: $0.compDate, updateDate: $0.updateDate, memo: $0.memo) } == c.rows,
                "\(name): rows")
        #expect(refusedLines.sorted() == c.refused.map(\.line).sorted(), "\(name): refused lines")
        let events = plan.drafts.map {
            Event(station: $0.station, compDate: $0.compDate?.code, memo: $0.memo, ms: $0.hlc?.milliseconds ?? -1)
        }
        #expect(events == c.events, "\(name): events")
        #expect(plan.validRows == c.validRows && plan.clampedToImportTime == c.clamped, "\(name): counts")
        #expect(plan.unknownDates.map(\.line) == c.unknownDates, "\(name): unknown dates")
    }

    private static func plan(_ bytes: [UInt8], _ catalog: CatalogStore?, _ projection: CompletionsProjection, _ device: DeviceID,
                             _ nextSeq: UInt64, _ today: CalendarDay, _ now: Int64,
                             refused: @escaping (Int) -> Void) throws -> CompletionImportPlan {
        var rows: [CompletionRow] = []
        return try plan(bytes, catalog, projection, device, nextSeq, today, now, rows: &rows, refused: refused)
    }

    private static func plan(_ bytes: [UInt8], _ catalog: CatalogStore?, _ projection: CompletionsProjection, _ device: DeviceID,
                             _ nextSeq: UInt64, _ today: CalendarDay, _ now: Int64, rows: inout [CompletionRow],
                             refused: (Int) -> Void) throws -> CompletionImportPlan {
        rows = try OritsubushiTSV.parse(bytes, file: "corpus") { refused($0.line ?? 0) }
        return try CompletionImporter.plan(for: rows, file: "corpus", catalog: catalog, projection: projection, device: device,
                                           nextSeq: nextSeq, today: today, nowMilliseconds: now) { refused($0.line ?? 0) }
    }

    private static func bytes(hex: String) throws -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(try #require(UInt8(hex[index..<next], radix: 16)))
            index = next
        }
        return out
    }
}
