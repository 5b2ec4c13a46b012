import Foundation
import LedgerTestSupport
import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// One matching rule everywhere (docs/ledger-cli.md "Finding stations"): `station find`'s text and line
/// search and the keys of `stats` read what STATION arguments and their qualifiers read
/// (`StationTextMatch`, `StationNameFolding`), on the small catalogue of CountingSetTests.
@Suite struct OneMatchingRuleTests {
    static func catalogue(_ dir: TemporaryDirectory) throws -> (Ledger, CatalogStore) {
        let file = dir.sub("derived.sql")
        try CountingSetTests.dump.write(toFile: file, atomically: true, encoding: .utf8)
        let ledger = try Harness.createLedger(dir)
        try Harness.importCatalog(ledger, file: file, version: 200)
        return (ledger, try #require(try CatalogStore.open(ledgerDirectory: ledger.directory)))
    }

    /// (text, field, partial) → the enabled stations found.
    static let finds: [(String, CatalogStore.SearchField, Bool, [UInt32])] = [
        ("いい", .any, false, [102]),
        ("イイ", .any, false, [102]),
        ("ｲｲ", .yomi, false, [102]),
        ("イイ", .name, false, []),           // a name search reads no readings
        ("いい駅", .name, false, [102]),
        ("い", .any, false, [102, 103]),
        ("う", .any, true, [103, 104]),
        ("え駅", .name, true, [104]),         // a typed 駅 ends the name: names ending in え (as LIKE '%え駅%')
        ("え", .name, true, [104, 201]),
        ("ウエエキ", .any, false, []),
        ("%", .any, true, []),
        ("本線", .line, false, [101, 102]),   // any part of an enabled line's name; 105 is disabled
        ("甲", .line, false, [101, 102]),     // 甲支線 is disabled
        ("１１", .line, false, [101, 102]),   // an l_id, full-width too
        ("乙線", .line, true, [201, 202]),
        ("丁", .line, false, []),
    ]

    @Test(arguments: finds) func stationFind(_ text: String, _ field: CatalogStore.SearchField, _ partial: Bool, _ ids: [UInt32]) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (ledger, store) = try Self.catalogue(dir)
        defer { ledger.close() }
        #expect(try store.find(text, by: field, partial: partial, includeDisabled: false) == ids)
    }

    /// (hierarchy, keys as typed) → the keys as the report spells them.
    static let keys: [(StatsHierarchy, [String], [String])] = [
        (.prefectures, ["13"], ["13"]),
        (.prefectures, ["東京"], ["13"]),
        (.prefectures, ["東京都"], ["13"]),
        (.prefectures, ["三重"], ["24"]),
        (.prefectures, ["２４"], ["24"]),
        (.yomi, ["イ", "イイ"], ["い", "いい"]),
        (.yomi, ["ｲ"], ["い"]),
        (.yomi, ["あ"], ["あ"]),
        (.operators, ["JR旅客会社", "甲"], ["1", "1"]),
        (.operators, ["1", "甲鉄道", "本線"], ["1", "1", "11"]),
        (.operators, ["私鉄", "乙"], ["2", "2"]),
        (.operators, ["2", "2", "21"], ["2", "2", "21"]),
    ]

    @Test(arguments: keys) func statsKeys(_ hierarchy: StatsHierarchy, _ typed: [String], _ canonical: [String]) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (ledger, store) = try Self.catalogue(dir)
        defer { ledger.close() }
        let engine = StatisticsEngine(catalog: try store.loadSnapshot(), projection: CompletionsProjection())
        let typedReport = try engine.report(hierarchy, path: typed)
        #expect(typedReport.path == canonical)
        #expect(typedReport == (try engine.report(hierarchy, path: canonical)))
    }

    /// Keys naming no group with countable stations: refused with one sentence (exit 65).
    static let refusals: [(StatsHierarchy, [String], String)] = [
        (.prefectures, ["大阪"], "'大阪' is not a prefecture code or name with countable stations in this catalogue"),
        (.prefectures, ["48"], "'48' is not a prefecture code or name"),
        (.operators, ["2", "丙"], "'丙' is not an operator of type 2"),   // disabled operator
        (.operators, ["1", "1", "支線"], "'支線' is not a line of operator 1"),   // disabled line
        (.yomi, ["サ"], "'さ' is not a first kana"),
    ]

    @Test(arguments: refusals) func badStatsKeys(_ hierarchy: StatsHierarchy, _ typed: [String], _ message: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let (ledger, store) = try Self.catalogue(dir)
        defer { ledger.close() }
        let engine = StatisticsEngine(catalog: try store.loadSnapshot(), projection: CompletionsProjection())
        let error = #expect(throws: LedgerError.self) { try engine.report(hierarchy, path: typed) }
        #expect(error?.description.hasPrefix(message) == true, "\(error?.description ?? "")")
        #expect(error?.category == .badInput)
    }
}
