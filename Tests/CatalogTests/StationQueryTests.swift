import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// The pure rules behind `station find --date/--completed/--incomplete`, the date labels of
/// `--lang`, and the Wikipedia link of `station show`.
@Suite struct StationQueryTests {
    /// `--date` text → the comp_date codes it selects (iOS CompletionDateGroup, Schemas/domain-rules.md §5).
    static let groups: [(String, ClosedRange<UInt32>)] = [
        ("2013", 20130000...20131231),
        ("2013-09", 20130900...20130931),
        ("2013-9", 20130900...20130931),
        ("2013-09-01", 20130901...20130901),
        ("2012-02-29", 20120229...20120229),
        ("unknown", 1...1),
        ("UNKNOWN", 1...1),
        ("2013-unknown", 20130000...20130000),
        ("2013-09-unknown", 20130900...20130900),
        ("1900", 19000000...19001231),
    ]

    @Test(arguments: groups) func dateGroupCodes(_ text: String, _ codes: ClosedRange<UInt32>) throws {
        #expect(try CompletionDateGroup(parsing: text).codes == codes)
    }

    static let badGroups = ["", "13", "20130901", "2013-13", "2013-00", "2013-02-30", "2013-02-29", "1899",
                            "2013-09-01-unknown", "unknown-2013", "2013-", "-09", "2013/09", "soon", "2013-unknown-01",
                            "２０１３／０９", "2013-123"]  // full-width digits and dashes are read (DateText); a slash is not

    @Test(arguments: badGroups) func badDateGroupsAreRefused(_ text: String) {
        #expect(throws: CompletionDateGroupError(text: text)) { try CompletionDateGroup(parsing: text) }
        #expect(CompletionDateGroupError(text: text).description.hasPrefix("--date '\(text)' is not a date group; use YYYY"))
    }

    /// A year covers every date inside it, fuzzy or not; the `unknown` forms only their own code.
    @Test func yearCoversFuzzyAndExactDatesButUnknownFormsDoNot() throws {
        let codes: [UInt32] = [0, 1, 20120000, 20130000, 20130100, 20130900, 20130901, 20131231, 20140000]
        func selected(_ text: String) throws -> [UInt32] {
            let group = try CompletionDateGroup(parsing: text)
            return codes.filter(group.contains)
        }
        #expect(try selected("2013") == [20130000, 20130100, 20130900, 20130901, 20131231])
        #expect(try selected("2013-09") == [20130900, 20130901])
        #expect(try selected("2013-unknown") == [20130000])
        #expect(try selected("2013-09-unknown") == [20130900])
        #expect(try selected("unknown") == [1])
    }

    @Test func completionFiltersCombineWithTheDate() throws {
        let codes: [UInt32] = [0, 1, 20130000, 20130901]
        func pass(_ query: StationQuery) -> [UInt32] { codes.filter { query.accepts(compDate: $0) } }
        #expect(pass(StationQuery()) == codes)
        #expect(pass(StationQuery(completion: .completed)) == [1, 20130000, 20130901])
        #expect(pass(StationQuery(completion: .incomplete)) == [0])
        #expect(pass(StationQuery(dateGroup: try CompletionDateGroup(parsing: "2013"), completion: .completed)) == [20130000, 20130901])
    }

    /// Every comp_date form in both languages, as the apps label them (Schemas/domain-rules.md §4).
    static let labels: [(CompletionDate, String, String)] = [
        (.notCompleted, "未乗下車", "none"),
        (.unknown, "乗下車済 (日付不明)", "unknown"),
        (.year(2013), "2013年頃", "2013"),
        (.month(2013, 9), "2013年9月頃", "2013-09"),
        (.day(2013, 9, 1), "2013年9月1日", "2013-09-01"),
        (.day(1987, 12, 31), "1987年12月31日", "1987-12-31"),
    ]

    @Test(arguments: labels) func dateLabels(_ date: CompletionDate, _ ja: String, _ en: String) {
        #expect(date.label(.ja) == ja)
        #expect(date.label(.en) == en)
    }

    @Test(arguments: [("ja_JP.UTF-8", OutputLanguage.ja), ("ja", .ja), ("C.UTF-8", .en), ("en_US.UTF-8", .en), ("", .en)])
    func languageFromLANG(_ lang: String, _ expected: OutputLanguage) {
        #expect(OutputLanguage.fromLocale(lang) == expected)
    }

    @Test func noLANGMeansEnglish() {
        #expect(OutputLanguage.fromLocale(nil) == .en)
    }

    static func station(name: String, wiki: String) -> CatalogStation {
        CatalogStation(id: 1, name: name, yomi: "", wiki: wiki, pref: 24, address: "", lat: 0, lng: 0, operatorID: 1,
                       enabled: true, weight: 13)
    }

    /// The `wiki` column, or the name when it is empty; percent-encoded UTF-8, spaces as `_`.
    static let links: [(String, String, String)] = [
        ("津駅", "", "https://ja.wikipedia.org/wiki/%E6%B4%A5%E9%A7%85"),
        ("龍谷大前深草駅 ", "", "https://ja.wikipedia.org/wiki/%E9%BE%8D%E8%B0%B7%E5%A4%A7%E5%89%8D%E6%B7%B1%E8%8D%89%E9%A7%85"),
        ("羽田空港第３ターミナル駅", "羽田空港第3ターミナル駅 (東京モノレール)",
         "https://ja.wikipedia.org/wiki/%E7%BE%BD%E7%94%B0%E7%A9%BA%E6%B8%AF%E7%AC%AC3%E3%82%BF%E3%83%BC%E3%83%9F%E3%83%8A%E3%83%AB%E9%A7%85_(%E6%9D%B1%E4%BA%AC%E3%83%A2%E3%83%8E%E3%83%AC%E3%83%BC%E3%83%AB)"),
        ("A駅", "JR_A&B?#%", "https://ja.wikipedia.org/wiki/JR_A%26B%3F%23%25"),
    ]

    @Test(arguments: links) func wikipediaLink(_ name: String, _ wiki: String, _ url: String) {
        #expect(Self.station(name: name, wiki: wiki).wikipediaURL == url)
    }
}
