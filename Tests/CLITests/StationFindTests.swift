import Foundation
import LedgerTestSupport
import Testing

/// `station find` with the originals' filters and `station show`'s Wikipedia link, end to end on
/// the bundled v176 catalogue (a bare `init` imports it).
@Suite(.serialized) struct StationFindTests {
    /// 津 (JR東海) 2013-09, 多気 2013, 津 (伊勢鉄道) 2013-09-01, 津 (近鉄) date unknown, 東京 2012-05-05.
    static let completions: [(String, String)] = [
        ("201111", "2013-09"), ("201117", "2013"), ("300260", "2013-09-01"), ("301230", "unknown"), ("202919", "2012-05-05"),
    ]

    static func ledger() throws -> (TemporaryDirectory, CLIRunner) {
        let dir = try TemporaryDirectory("find")
        let cli = CLIRunner(ledger: dir.sub("l"), environment: ["ORITSUBUSHI_LANG": "", "LANG": "C.UTF-8"])
        let created = try cli.run("init", "--device", "phone")
        #expect(created.status == 0, "\(created.stderr)")
        for (station, date) in completions {
            let done = try cli.run("complete", station, date)
            #expect(done.status == 0, "\(station): \(done.stderr)")
        }
        return (dir, cli)
    }

    static func ids(_ output: String) -> [String] {
        output.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
    }

    /// Arguments → the s_ids listed, in order.
    static let finds: [([String], [String])] = [
        (["津駅", "--pref", "三重"], ["201111", "300260", "301230"]),   // a typed 駅 ends the name: not 津新町
        (["つ", "--pref", "三重", "--completed"], ["201111", "300260", "301230"]),   // a reading without --by
        (["津", "--pref", "三重"], ["201111", "300260", "301230", "301231"]),
        (["津", "--pref", "三重", "--incomplete"], ["301231"]),
        (["津", "--pref", "24", "--completed"], ["201111", "300260", "301230"]),
        (["つ", "--by", "yomi", "--pref", "三重", "--date", "2013"], ["201111", "300260"]),
        (["--completed"], ["201111", "201117", "202919", "300260", "301230"]),
        (["--pref", "三重", "--completed"], ["201111", "201117", "300260", "301230"]),
        (["--pref", "東京", "--completed"], ["202919"]),
        (["--pref", "東", "--completed"], ["202919"]),
        (["--pref", "１３", "--completed"], ["202919"]),
        (["--date", "2013"], ["201111", "201117", "300260"]),
        (["--date", "2013", "--completed"], ["201111", "201117", "300260"]),
        (["--date", "2013-09"], ["201111", "300260"]),
        (["--date", "2013-9"], ["201111", "300260"]),
        (["--date", "2013-09-01"], ["300260"]),
        (["--date", "2013-unknown"], ["201117"]),
        (["--date", "2013-09-unknown"], ["201111"]),
        (["--date", "unknown"], ["301230"]),
        (["--date", "2012-05"], ["202919"]),
        (["--date", "2012", "--pref", "三重"], []),
        (["--date", "2014"], []),
    ]

    @Test func filtersCombineWithTheTextSearch() throws {
        let (dir, cli) = try Self.ledger()
        defer { dir.remove() }
        for (arguments, expected) in Self.finds {
            let found = try cli.run(["station", "find"] + arguments)
            #expect(found.status == 0, "\(arguments): \(found.stderr)")
            #expect(Self.ids(found.stdout) == expected, "\(arguments)")
            if expected.isEmpty {
                #expect(found.stderr.contains("no station matches"), "\(arguments)")
            }
        }
        // No filter and no text: every enabled station; a prefecture's incomplete ones.
        #expect(try cli.run("station", "find").stdout.split(separator: "\n").count == 9520)
        #expect(try cli.run("station", "find", "--pref", "三重", "--incomplete").stdout.split(separator: "\n").count == 236)
        #expect(try cli.run("station", "find", "--pref", "大", "--incomplete").stdout.split(separator: "\n").count == 604)
        // The text line and JSON Lines of a filtered search.
        let text = try cli.run("station", "find", "--date", "2013-09-01")
        #expect(text.stdout == "300260  津駅  つ  伊勢鉄道  伊勢線  2013-09-01\n")
        let json = try cli.run("station", "find", "--date", "2013-09-01", "--json")
        #expect(json.stdout == "{\"station\":300260,\"name\":\"津駅\",\"yomi\":\"つ\",\"operator\":\"伊勢鉄道\",\"lines\":[\"伊勢線\"],\"enabled\":true,\"comp_date\":20130901}\n")
    }

    /// One matching rule (docs/ledger-cli.md "Finding stations"): readings in hiragana, katakana or
    /// half-width kana as STATION arguments take them; `--by line` any part of a line's name.
    static let shinjuku = ["202758", "300645", "302192", "303748", "303749", "303750", "303807", "303844", "303845"]
    static let sameRule: [([String], [String]?, Int?)] = [
        (["しんじゅく"], shinjuku, nil),
        (["シンジュク"], shinjuku, nil),
        (["シンジュク", "--by", "yomi"], shinjuku, nil),
        (["ｼﾝｼﾞｭｸ", "--by", "yomi"], shinjuku, nil),
        (["しんじゅく", "--by", "name"], [], nil),
        (["丸ノ内線", "--by", "line"], nil, 28),
        (["4号線丸ノ内線", "--by", "line"], nil, 28),
        (["丸ノ内", "--by", "line", "--prefix"], nil, 28),
        (["山手", "--by", "line"], nil, 33),   // 山手線 and every line with 山手 in its name
        (["12083", "--by", "line"], nil, 17),   // an l_id: JR東日本 山手線
    ]

    @Test func textAndLinesMatchAsStationArgumentsDo() throws {
        let (dir, cli) = try Self.ledger()
        defer { dir.remove() }
        for (arguments, ids, count) in Self.sameRule {
            let found = try cli.run(["station", "find"] + arguments)
            #expect(found.status == 0, "\(arguments): \(found.stderr)")
            if let ids { #expect(Self.ids(found.stdout) == ids, "\(arguments)") }
            if let count { #expect(Self.ids(found.stdout).count == count, "\(arguments)") }
        }
        // stats KEYs: what the qualifiers accept, reported under the codes.
        let stats: [([String], [String])] = [
            (["prefectures", "東京"], ["prefectures", "13"]),
            (["prefectures", "東京都"], ["prefectures", "13"]),
            (["prefectures", "１３"], ["prefectures", "13"]),
            (["yomi", "ツ", "ツ"], ["yomi", "つ", "つ"]),
            (["operators", "JR旅客会社", "JR東日本", "山手線"], ["operators", "1", "10102", "12083"]),
        ]
        for (typed, codes) in stats {
            let byName = try cli.run(["stats"] + typed + ["--json"])
            #expect(byName.status == 0, "\(typed): \(byName.stderr)")
            #expect(byName.stdout == (try cli.run(["stats"] + codes + ["--json"])).stdout, "\(typed)")
        }
        let ambiguous = try cli.run("stats", "operators", "私鉄")
        #expect(ambiguous.status == 65)
        #expect(ambiguous.stderr.contains("'私鉄' names 3 groups (2 大手私鉄, 3 準大手私鉄, 5 中小私鉄); give one of their keys"), "\(ambiguous.stderr)")
    }

    /// Bad filter values: exit 64 with one sentence, nothing written.
    static let refusals: [([String], String)] = [
        (["--pref", "48"], "--pref '48' is not a prefecture code (1–47) or the start of a prefecture's name"),
        (["--pref", "0"], "--pref '0' is not a prefecture code"),
        (["--pref", "大阪市"], "--pref '大阪市' is not a prefecture code"),
        (["--pref", ""], "is not a prefecture code"),
        (["--date", "2013-13"], "--date '2013-13' is not a date group; use YYYY, YYYY-MM, YYYY-MM-DD, unknown, YYYY-unknown or YYYY-MM-unknown"),
        (["--date", "2013-02-29"], "--date '2013-02-29' is not a date group"),
        (["--date", "13"], "--date '13' is not a date group"),
        (["--date", "soon"], "--date 'soon' is not a date group"),
        (["--date", "2013-09-01-unknown"], "is not a date group"),
        (["--date", "2013", "--incomplete"], "--date selects completed stations, so it cannot be combined with --incomplete"),
        (["--completed", "--incomplete"], "--completed"),
        (["--by", "yomi"], "--by, --prefix and --partial need TEXT to search for"),
        (["--partial"], "--by, --prefix and --partial need TEXT to search for"),
    ]

    @Test func badFilterValuesAreUsageErrors() throws {
        let (dir, cli) = try Self.ledger()
        defer { dir.remove() }
        _ = try cli.run("station", "find", "津")   // brings the projection up to date first
        let before = try directorySnapshot(dir.sub("l"))
        for (arguments, phrase) in Self.refusals {
            let refused = try cli.run(["station", "find"] + arguments)
            #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains(phrase), "\(arguments): \(refused.stderr)")
            #expect(refused.stdout.isEmpty, "\(arguments)")
        }
        #expect(try directorySnapshot(dir.sub("l")) == before)
    }

    /// `https://ja.wikipedia.org/wiki/` + the `wiki` column, or the name when it is empty;
    /// percent-encoded UTF-8 with spaces as `_`.
    static let links: [(String, String)] = [
        ("300260", "https://ja.wikipedia.org/wiki/%E6%B4%A5%E9%A7%85"),   // wiki empty: 津駅
        ("303491", "https://ja.wikipedia.org/wiki/%E7%BE%BD%E7%94%B0%E7%A9%BA%E6%B8%AF%E7%AC%AC3%E3%82%BF%E3%83%BC%E3%83%9F%E3%83%8A%E3%83%AB%E9%A7%85_(%E6%9D%B1%E4%BA%AC%E3%83%A2%E3%83%8E%E3%83%AC%E3%83%BC%E3%83%AB)"),
    ]

    @Test func stationShowPrintsTheWikipediaLink() throws {
        let (dir, cli) = try Self.ledger()
        defer { dir.remove() }
        for (station, url) in Self.links {
            let text = try cli.run("station", "show", station)
            #expect(text.status == 0, "\(text.stderr)")
            #expect(text.stdout.contains("\nwikipedia   \(url)\n"), "\(text.stdout)")
            #expect(try cli.run("station", "show", station, "--lang", "ja").stdout.contains("\nウィキペディア  \(url)\n"))
            let json = try cli.run("station", "show", station, "--json")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect(object["wikipedia_url"] as? String == url)
            #expect(URL(string: url)?.host == "ja.wikipedia.org")
        }
    }
}
