import Foundation
import LedgerCatalog
import LedgerCore
import LedgerGenerator
import LedgerSync
import Testing

/// The conformance corpus (Conformance/, Schemas/conformance.md): the rules the phone app
/// implements a second time in JavaScript — the record digest, the fold, the map's pins, name
/// search, nearby distances and labels, date labels and the statistics — written as inputs and
/// the Swift code's outputs. These tests regenerate every file from the Swift code and require
/// it to equal the committed one byte for byte; the app's tests (Tests/WebApp/conformance.test.mjs)
/// read the same files. After a deliberate change of a rule:
/// `ORITSUBUSHI_UPDATE_CONFORMANCE=1 swift test --filter ConformanceCorpusTests`.
@Suite("Conformance corpus: the Swift rules the phone app must reproduce")
struct ConformanceCorpusTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Conformance")
    static let snapshot: CatalogSnapshot = {
        let store = try! CatalogStore.bundled()
        defer { store.close() }
        return try! store.loadSnapshot()
    }()

    /// Compares (or, when asked, writes) one corpus file.
    static func check(_ name: String, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        let committed = try? Data(contentsOf: url)
        if ProcessInfo.processInfo.environment["ORITSUBUSHI_UPDATE_CONFORMANCE"] == "1" {
            // Never a silent pass: the files it rewrote are named, and under CI it fails.
            let underCI = ProcessInfo.processInfo.environment["CI"] == "true"
            #expect(!underCI, "ORITSUBUSHI_UPDATE_CONFORMANCE=1 under CI=true: the corpus is checked there, never rewritten",
                    sourceLocation: sourceLocation)
            guard !underCI, committed.map({ Array($0) != bytes }) ?? true else { return }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
            print("ConformanceCorpusTests: rewrote Conformance/\(name)")
            return
        }
        #expect(committed != nil, "Conformance/\(name) is missing; run ORITSUBUSHI_UPDATE_CONFORMANCE=1 swift test --filter ConformanceCorpusTests",
                sourceLocation: sourceLocation)
        #expect(committed.map { Array($0) == bytes } ?? false,
                "Conformance/\(name) differs from what the Swift code computes now: a rule changed; if on purpose, regenerate it (ORITSUBUSHI_UPDATE_CONFORMANCE=1) and make the app agree",
                sourceLocation: sourceLocation)
    }

    /// JSON Lines: one sorted-keys object per line.
    static func lines<T: Encodable>(_ values: [T]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes: [UInt8] = []
        for value in values {
            bytes += try encoder.encode(value)
            bytes.append(0x0a)
        }
        return bytes
    }

    // MARK: - The catalogue

    @Test("catalog.json is the /v1/catalog document of the bundled catalogue")
    func catalogue() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let document = Array(try encoder.encode(CatalogDocument(Self.snapshot)))
        #expect(Self.snapshot.stations.count > 9_000)
        try Self.check("catalog.json", document)
    }

    // MARK: - Digests and the fold

    struct DigestCase: Encodable {
        var record: WireRecord
        var encoding: String
        var digest: String
    }

    @Test("digests.jsonl: the canonical encoding and digest of every kind of record")
    func digests() throws {
        var random = SeededRandom(seed: 24_25)
        let records = ConformanceRecords.digestCases(&random)
        let cases = records.map { record in
            var encoder = RecordEncoder()
            encoder.append(record)
            return DigestCase(record: WireRecord(record), encoding: encoder.bytes.map { String(format: "%02x", $0) }.joined(),
                              digest: EventDigest.hex(record))
        }
        #expect(cases.count >= 20)
        try Self.check("digests.jsonl", try Self.lines(cases))
    }

    struct FoldCase: Encodable {
        struct Completion: Encodable {
            var station: UInt32
            var comp_date: UInt32
            var memo: String
        }
        var `case`: String
        var events: [WireRecord]
        var completions: [Completion]
    }

    @Test("fold.jsonl: events in, completions out (two last-writer-wins registers per station)")
    func fold() throws {
        var random = SeededRandom(seed: 2_026)
        var cases: [FoldCase] = []
        for (name, events) in ConformanceRecords.foldCases(&random) {
            var registers: [UInt32: CompletionRegister] = [:]
            for case .stationEdit(let edit) in events { registers[edit.station, default: CompletionRegister()].apply(edit) }
            let completions = registers.keys.sorted().map {
                FoldCase.Completion(station: $0, comp_date: registers[$0]!.compDate.code, memo: registers[$0]!.memo)
            }
            cases.append(FoldCase(case: name, events: events.map(WireRecord.init), completions: completions))
        }
        try Self.check("fold.jsonl", try Self.lines(cases))
    }

    // MARK: - Map, search, nearby

    struct PinCase: Encodable {
        struct Pin: Encodable { var station: UInt32; var min_zoom: Int }
        var `case`: String
        var bbox: [Int64]
        var limit: Int
        var show: String
        var completed: [UInt32]
        var zoom: Int
        var pins: [Pin]
    }

    @Test("map-pins.jsonl: viewport, limit and filter in, pins out (Schemas/map.md)")
    func mapPins() throws {
        var random = SeededRandom(seed: 9_520)
        let enabled = Self.snapshot.stations.filter(\.enabled)
        let completed = Set(enabled.map(\.id).filter { _ in random.next() % 50 == 0 })
        var cases: [PinCase] = []
        for (name, box) in ConformanceRecords.viewports {
            for limit in [100, 50, 8, 0] {
                for show in ["all", "completed", "incomplete"] {
                    let entries = enabled.filter { show == "all" || (show == "completed") == completed.contains($0.id) }
                        .map { MapIndex.Entry(id: $0.id, lat: $0.lat, lng: $0.lng, weight: $0.weight) }
                    let answer = MapIndex(entries, limit: limit).query(box)
                    cases.append(PinCase(case: name, bbox: [box.south, box.west, box.north, box.east], limit: limit, show: show,
                                         completed: completed.sorted(), zoom: answer.zoom,
                                         pins: answer.pins.map { .init(station: $0.entry.id, min_zoom: $0.minZoom) }))
                }
            }
        }
        #expect(cases.contains { !$0.pins.isEmpty && $0.limit == 100 })
        try Self.check("map-pins.jsonl", try Self.lines(cases))
    }

    struct SearchCase: Encodable {
        var text: String
        var by: String
        var partial: Bool
        var stations: [UInt32]
    }

    @Test("name-search.jsonl: typed text in, matching stations out (StationTextMatch)")
    func nameSearch() throws {
        var cases: [SearchCase] = []
        for text in ConformanceRecords.searchTexts {
            for field in StationTextMatch.Field.allCases {
                for partial in [false, true] {
                    let stations = StationTextMatch(text, field: field, partial: partial).stations(in: Self.snapshot)
                    cases.append(SearchCase(text: text, by: field.rawValue, partial: partial, stations: stations))
                }
            }
        }
        #expect(cases.first { $0.text == "しんじゅく" && $0.by == "yomi" }?.stations.isEmpty == false)
        #expect(cases.first { $0.text == "ｼﾝｼﾞｭｸ" && $0.by == "yomi" }?.stations
                == cases.first { $0.text == "しんじゅく" && $0.by == "yomi" }?.stations, "half-width katakana reads as hiragana")
        // A typed 駅 ends the name, as the apps' LIKE '津駅%' did: the three 津駅, not 津新町駅.
        #expect(cases.first { $0.text == "津駅" && $0.by == "name" && !$0.partial }?.stations == [201111, 300260, 301230])
        #expect((cases.first { $0.text == "津" && $0.by == "name" && !$0.partial }?.stations.count ?? 0) > 3)
        try Self.check("name-search.jsonl", try Self.lines(cases))
    }

    struct NearbyCase: Encodable {
        struct Hit: Encodable { var station: UInt32; var metres: Double; var label: String }
        var `case`: String
        var lat: Double
        var lng: Double
        var limit: Int
        var nearby: [Hit]
    }

    @Test("nearby.jsonl: a point in, the nearest stations with distances and labels out")
    func nearby() throws {
        let geometry = CatalogGeometry(snapshot: Self.snapshot)
        // The first point is 小田原駅's own position, where several stations share a point.
        let odawara = try #require(Self.snapshot.stations.first { $0.name.hasPrefix("小田原") && $0.enabled })
        let points = [("小田原駅", CatalogGeometry.degrees(odawara.lat), CatalogGeometry.degrees(odawara.lng), 10)] + ConformanceRecords.points
        let cases = points.map { name, lat, lng, limit in
            NearbyCase(case: name, lat: lat, lng: lng, limit: limit,
                       nearby: NearbyQuery(latitude: lat, longitude: lng, limit: limit).run(geometry).map {
                           .init(station: $0.station.id, metres: $0.metres, label: GreatCircle.label(metres: $0.metres))
                       })
        }
        #expect(cases.first?.nearby.first?.label == "すぐそば", "the first point is on a station")
        try Self.check("nearby.jsonl", try Self.lines(cases))
    }

    // MARK: - Dates and statistics

    struct DateCase: Encodable {
        var comp_date: UInt32
        var valid: Bool
        var ja: String
        var en: String
    }

    @Test("dates.jsonl: comp_date codes in, validity and both languages' labels out")
    func dates() throws {
        let cases = ConformanceRecords.dateCodes.map { code -> DateCase in
            guard let date = try? CompletionDate(code: code) else { return DateCase(comp_date: code, valid: false, ja: "", en: "") }
            return DateCase(comp_date: code, valid: true, ja: date.label(.ja), en: date.label(.en))
        }
        try Self.check("dates.jsonl", try Self.lines(cases))
    }

    struct DateGroupCase: Encodable {
        var text: String
        /// The group's comp_date codes; absent when the text is not a date group.
        var low: UInt32?
        var high: UInt32?
    }

    @Test("date-groups.jsonl: typed date texts in, the date filter's codes out (DateText, CompletionDateGroup)")
    func dateGroups() throws {
        let cases = ConformanceRecords.dateTexts.map { text -> DateGroupCase in
            let group = try? CompletionDateGroup(parsing: text)
            return DateGroupCase(text: text, low: group?.codes.lowerBound, high: group?.codes.upperBound)
        }
        #expect(cases.filter { $0.low != nil }.count >= 14, "most texts are groups")
        try Self.check("date-groups.jsonl", try Self.lines(cases))
    }

    struct StatsCase: Encodable {
        struct Row: Encodable { var key: String; var label: String; var total: Int; var completed: Int }
        var completed: [[UInt32]]
        var hierarchy: String
        var path: [String]
        var total: Int
        var done: Int
        var rows: [Row]
    }

    @Test("stats.jsonl: completions in, the four hierarchies' counts out")
    func statistics() throws {
        var random = SeededRandom(seed: 4_7)
        let stations = Self.snapshot.stations.filter(\.enabled)
        let codes: [UInt32] = [1, 20_130_000, 20_130_900, 20_130_901, 20_141_231, 19_990_000, 20_200_229]
        var completed: [[UInt32]] = []
        for station in stations where random.next() % 50 == 0 {
            completed.append([station.id, codes[Int(random.next() % UInt64(codes.count))]])
        }
        var projection = CompletionsProjection()
        for (index, pair) in completed.enumerated() {
            projection.apply(StationEdit(id: EventID(device: DeviceID(rawValue: 1), seq: UInt64(index + 1)),
                                         hlc: HybridTimestamp(milliseconds: 1_700_000_000_000 + Int64(index)), station: pair[0],
                                         compDate: try CompletionDate(code: pair[1]), memo: nil, origin: .user))
        }
        let engine = StatisticsEngine(catalog: Self.snapshot, projection: projection)
        var cases: [StatsCase] = []
        for hierarchy in StatsHierarchy.allCases {
            let root = try engine.report(hierarchy, path: [])
            var reports = [root]
            for group in (root.groups ?? []).prefix(3) {
                let child = try engine.report(hierarchy, path: [group.key])
                reports.append(child)
                if let first = child.groups?.first { reports.append(try engine.report(hierarchy, path: [group.key, first.key])) }
            }
            for report in reports {
                cases.append(StatsCase(completed: completed, hierarchy: hierarchy.rawValue, path: report.path,
                                       total: report.counts.total, done: report.counts.completed,
                                       rows: (report.groups ?? []).map { .init(key: $0.key, label: $0.label, total: $0.counts.total,
                                                                                completed: $0.counts.completed) }))
            }
        }
        try Self.check("stats.jsonl", try Self.lines(cases))
    }
}
