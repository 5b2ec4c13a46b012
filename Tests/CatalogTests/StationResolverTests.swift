import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// StationResolver and StationNameFolding against the bundled catalogue (v176): names with and
/// without 駅, readings, the ヶ/ケ/ヵ and width folding, the qualifiers and the alias table, and
/// the three outcomes (one station, several, none).
@Suite struct StationResolverTests {
    /// The bundled catalogue, imported once into a scratch ledger and held in memory.
    static let snapshot: CatalogSnapshot = {
        let dir = try! TemporaryDirectory("resolver")
        defer { dir.remove() }
        let ledger = try! Harness.createLedger(dir)
        defer { ledger.close() }
        var projection = try! ProjectionStore.load(ledger)
        _ = try! CatalogImporter.apply(try! BundledCatalog.statements(), file: BundledCatalog.fileName,
                                       version: BundledCatalog.version, to: ledger, projection: &projection)
        return try! CatalogStore.open(ledger)!.loadSnapshot()
    }()

    static let resolver = StationResolver(snapshot: snapshot)

    struct Match: CustomStringConvertible, Sendable {
        var text: String
        var qualifiers = StationQualifiers()
        var station: UInt32
        var description: String { "\(text) \(qualifiers) → \(station)" }
    }

    static let matches: [Match] = [
        Match(text: "津", qualifiers: .init(operator: "近鉄"), station: 301230),
        Match(text: "津駅", qualifiers: .init(operator: "近鉄"), station: 301230),
        Match(text: "つ", qualifiers: .init(operator: "JR東海"), station: 201111),
        Match(text: "津", qualifiers: .init(operator: "ＪＲ東海"), station: 201111),
        Match(text: "津", qualifiers: .init(operator: "jr東海"), station: 201111),
        Match(text: "津", qualifiers: .init(operator: "伊勢鉄道"), station: 300260),
        Match(text: "津", qualifiers: .init(operator: "324002"), station: 300260),
        Match(text: "津", qualifiers: .init(line: "名古屋線"), station: 301230),
        Match(text: "津", qualifiers: .init(line: "紀勢"), station: 201111),
        Match(text: "津", qualifiers: .init(operator: "伊勢", prefecture: "三重"), station: 300260),
        Match(text: "鳥羽", qualifiers: .init(operator: "JR東海"), station: 201855),
        Match(text: "鳥羽", qualifiers: .init(operator: "50110"), station: 301180),
        Match(text: "とば", qualifiers: .init(line: "志摩線"), station: 301180),
        Match(text: "新宿", qualifiers: .init(operator: "京王"), station: 300645),
        Match(text: "新宿", qualifiers: .init(operator: "小田急"), station: 302192),
        Match(text: "新宿", qualifiers: .init(operator: "JR東日本"), station: 202758),
        Match(text: "駒ヶ根", station: 200126),
        Match(text: "駒ケ根駅", station: 200126),
        Match(text: "駒ヵ根", station: 200126),
        Match(text: "こまがね", station: 200126),
        Match(text: "コマガネ", station: 200126),
        Match(text: "ｺﾏｶﾞﾈ", station: 200126),
        Match(text: " 駒ヶ根 ", station: 200126),
        Match(text: "牛ヶ原", station: 200457),
        Match(text: "牛ケ原", station: 200457),
        Match(text: "201111", station: 201111),
        Match(text: "２０１１１１", station: 201111),
        Match(text: "201111", qualifiers: .init(operator: "JR東海", prefecture: "24"), station: 201111),
        Match(text: "202864", station: 202864),          // 津軽今別駅 is disabled: by s_id it stays reachable
        Match(text: "999999", station: 999999),          // an s_id is not looked up here (CatalogSupport refuses unknown ones)
    ]

    @Test(arguments: matches)
    func resolvesOneStation(_ match: Match) throws {
        #expect(try Self.resolver.resolve(match.text, match.qualifiers) == match.station)
    }

    struct Refusal: CustomStringConvertible, Sendable {
        var text: String
        var qualifiers = StationQualifiers()
        /// What the first line of the message says.
        var sentence: String
        /// Candidate s_ids listed after it (ambiguity only).
        var candidates: [UInt32] = []
        var description: String { "\(text) \(qualifiers): \(sentence)" }
    }

    static let refusals: [Refusal] = [
        Refusal(text: "津", sentence: "津 matches 3 stations; add --operator, --line or --pref, or give the s_id",
                candidates: [201111, 300260, 301230]),
        Refusal(text: "つ", qualifiers: .init(prefecture: "三重"),
                sentence: "つ matches 3 stations; add --operator, --line or --pref, or give the s_id", candidates: [201111, 300260, 301230]),
        Refusal(text: "鳥羽駅", sentence: "鳥羽駅 matches 2 stations; add --operator, --line or --pref, or give the s_id",
                candidates: [201855, 301180]),
        Refusal(text: "津軽今別", sentence: "no enabled station is named 津軽今別; closest: "),
        Refusal(text: "津軽x", sentence: "no enabled station is named 津軽x; closest: 津軽"),
        Refusal(text: "津", qualifiers: .init(operator: "京王"), sentence: "no enabled station is named 津 with the given --operator 京王"),
        Refusal(text: "ゑゑゑ", sentence: "no enabled station is named ゑゑゑ"),
        Refusal(text: "津", qualifiers: .init(operator: "存在しない鉄道"), sentence: "no operator matches --operator 存在しない鉄道"),
        Refusal(text: "津", qualifiers: .init(line: "存在しない線"), sentence: "no line matches --line 存在しない線"),
        Refusal(text: "津", qualifiers: .init(prefecture: "48"), sentence: "--pref 48 is neither a prefecture code 1–47"),
        Refusal(text: "津", qualifiers: .init(prefecture: "ニューヨーク"), sentence: "--pref ニューヨーク is neither"),
        Refusal(text: "201111", qualifiers: .init(operator: "近鉄"), sentence: "station 201111 does not match the given --operator 近鉄"),
        Refusal(text: "99999999999", sentence: "99999999999 is not a station id"),
    ]

    @Test(arguments: refusals)
    func refusesWithOneSentence(_ refusal: Refusal) throws {
        let error = try #require(throws: LedgerError.self) { try Self.resolver.resolve(refusal.text, refusal.qualifiers) }
        #expect(error.category == .badInput)
        let lines = error.message.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix(refusal.sentence), "\(lines[0])")
        #expect(lines.dropFirst().map { UInt32($0.split(separator: " ")[0])! } == refusal.candidates)
        for line in lines.dropFirst() {
            // s_id  name  operator  lines  prefecture
            #expect(line.components(separatedBy: "  ").count == 5, "\(line)")
        }
    }

    @Test func candidateLineHasTheFiveColumns() {
        #expect(Self.resolver.candidateLine(301180) == "301180  鳥羽駅  近畿日本鉄道  鳥羽線,志摩線  三重県")
    }

    struct Folding: Sendable, CustomStringConvertible {
        var input: String
        var folded: String
        var description: String { "\(input) → \(folded)" }
    }

    @Test(arguments: [
        Folding(input: "駒ヶ根駅", folded: "駒ケ根"), Folding(input: "駒ヵ根", folded: "駒ケ根"), Folding(input: "ＪＲ東海", folded: "jr東海"),
        Folding(input: "ｹ", folded: "ケ"), Folding(input: "駅", folded: "駅"), Folding(input: "龍谷大前深草駅 ", folded: "龍谷大前深草"),
        Folding(input: "津駅駅", folded: "津駅"),
    ])
    func foldsStationNames(_ item: Folding) {
        #expect(StationNameFolding.foldStationName(item.input) == item.folded)
    }

    @Test func foldsReadingsToHiragana() {
        #expect(StationNameFolding.foldReading("ｺﾏｶﾞﾈ") == "こまがね")
        #expect(StationNameFolding.foldReading("トバ") == "とば")
        #expect(StationNameFolding.foldReading("とば") == "とば")
    }

    /// Every alias names operators that exist in the catalogue, and the operators with the most
    /// stations (all with 69 or more enabled stations) are reachable by an alias.
    @Test func aliasTableMatchesTheCatalogue() throws {
        let names = Set(Self.snapshot.operators.map(\.name))
        for (alias, operators) in OperatorAliases.table {
            for name in operators { #expect(names.contains(name), "alias \(alias): no operator \(name) in the catalogue") }
        }
        var counts: [Int64: Int] = [:]
        for s in Self.snapshot.stations where s.enabled { counts[s.operatorID, default: 0] += 1 }
        let aliased = Set(OperatorAliases.table.flatMap(\.operators))
        let largest = Self.snapshot.operators.filter { counts[$0.id, default: 0] >= 69 }
        #expect(largest.count >= 20)
        for op in largest { #expect(aliased.contains(op.name), "\(op.name) (\(counts[op.id]!) stations) has no alias") }
        // An alias wins over the partial match: 阪急 is not also 北大阪急行電鉄, 京成 not also 新京成電鉄.
        #expect(try Self.resolver.resolve("十三", .init(operator: "阪急")) == 301686)
        #expect(throws: LedgerError.self) { try Self.resolver.resolve("江坂", .init(operator: "阪急")) }
        #expect(try Self.resolver.resolve("江坂", .init(operator: "北大阪急行")) == 304745)
        for (alias, operators) in [("阪急", ["阪急電鉄"]), ("京成", ["京成電鉄"]), ("近鉄", ["近畿日本鉄道"]), ("東京メトロ", ["東京地下鉄"]), ("都営", ["東京都交通局"])] {
            #expect(OperatorAliases.operators(for: StationNameFolding.fold(alias)) == operators)
        }
    }

    @Test func prefecturesByCodeOrNamePrefix() {
        #expect(StationResolver.prefectureCodes(matching: "24") == [24])
        #expect(StationResolver.prefectureCodes(matching: "三重") == [24])
        #expect(StationResolver.prefectureCodes(matching: "三重県") == [24])
        #expect(StationResolver.prefectureCodes(matching: "京都") == [26])
        #expect(StationResolver.prefectureCodes(matching: "大") == [27, 44])
        #expect(StationResolver.prefectureCodes(matching: "０１") == [1])
        #expect(StationResolver.prefectureCodes(matching: "0") == nil)
        #expect(StationResolver.prefectureCodes(matching: "48") == nil)
        #expect(StationResolver.prefectureCodes(matching: "") == nil)
    }

    /// Seeded: any enabled station is found by its name qualified with its own operator, line and
    /// prefecture, or is listed among the candidates when even those leave several; by its
    /// reading the same; by its s_id always.
    @Test func everyEnabledStationIsReachableByName() throws {
        var random = SeededGenerator(seed: 12)
        let enabled = Self.snapshot.stations.filter(\.enabled)
        for _ in 0..<300 {
            let s = enabled.randomElement(using: &random)!
            let line = Self.snapshot.lines(of: s.id).first.map { String($0.id) }
            let qualifiers = StationQualifiers(operator: String(s.operatorID), line: line, prefecture: String(s.pref))
            for text in [s.name, String(s.name.dropLast()), s.yomi] {
                do {
                    #expect(try Self.resolver.resolve(text, qualifiers) == s.id, "\(text)")
                } catch let error as LedgerError {
                    #expect(error.message.contains("matches") && error.message.contains("\n\(s.id)  "), "\(text): \(error.message)")
                }
            }
            #expect(try Self.resolver.resolve(String(s.id)) == s.id)
        }
    }
}
