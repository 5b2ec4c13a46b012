import Testing
@testable import LedgerCatalog
@testable import LedgerCore

/// The text of `stats` in both languages, exactly; the JSON of the same reports is language-free
/// by construction (StatsReport+Encodable takes no language) and is checked end to end in
/// CLITests/LanguageTests.
@Suite struct StatsTableTests {
    static func c(_ total: Int, _ completed: Int) -> StatsCounts { StatsCounts(total: total, completed: completed) }

    static let prefectures = StatsReport(
        hierarchy: .prefectures, path: [], pathLabels: [], counts: c(9520, 3),
        groups: [StatsGroup(key: "1", label: "北海道", counts: c(473, 0)),
                 StatsGroup(key: "24", label: "三重県", counts: c(240, 3))],
        stations: nil)

    static let years = StatsReport(
        hierarchy: .dates, path: [], pathLabels: [], counts: c(9520, 3),
        groups: [StatsGroup(key: "2013", label: "2013年", counts: c(3, 2)),
                 StatsGroup(key: "unknown", label: "年月日不明", counts: c(3, 1)),
                 StatsGroup(key: "incomplete", label: "未乗下車", counts: c(9520, 9517))],
        stations: nil)

    static let oneYear = StatsReport(
        hierarchy: .dates, path: ["2013"], pathLabels: ["2013年"], counts: c(3, 2),
        groups: [StatsGroup(key: "201309", label: "2013年9月", counts: c(2, 1)),
                 StatsGroup(key: "201300", label: "2013年 月日不明", counts: c(2, 1))],
        stations: nil)

    static let dayList = StatsReport(
        hierarchy: .dates, path: ["2013", "201309", "20130901"], pathLabels: ["2013年", "2013年9月", "2013年9月1日"],
        counts: c(1, 1), groups: nil,
        stations: [StatsStation(station: 300260, name: "津駅", compDate: 20130901, memo: "伊勢\n鉄道")])

    static let prefectureList = StatsReport(
        hierarchy: .prefectures, path: ["24"], pathLabels: ["24 三重県"], counts: c(240, 2), groups: nil,
        stations: [StatsStation(station: 300260, name: "津駅", compDate: 20130900, memo: ""),
                   StatsStation(station: 201111, name: "津駅", compDate: 1, memo: ""),
                   StatsStation(station: 301230, name: "津駅", compDate: 0, memo: "")])

    static let tables: [(StatsReport, OutputLanguage, String)] = [
        (prefectures, .en, """
            prefectures: all
            total / completed / rate / remaining  key  label
             9520           3   0.0%        9517       (this level)
              473           0   0.0%         473  1    北海道
              240           3   1.2%         237  24   三重県
            """),
        (prefectures, .ja, """
            全都道府県
            9520駅中 3駅 0.0% 残り9517駅
            キー  名前    統計
            1     北海道  473駅中 0駅 0.0% 残り473駅
            24    三重県  240駅中 3駅 1.2% 残り237駅
            """),
        (years, .en, """
            dates: all
            stations / share / out of  key         label
                   3    0.0%     9520              (this level)
                   2   66.6%        3  2013        2013
                   1   33.3%        3  unknown     unknown
                9517   99.9%     9520  incomplete  not completed
            """),
        (years, .ja, """
            乗下車日
            9520駅中 3駅 0.0% 残り9517駅
            キー        名前        駅数  統計
            2013        2013年         2  3駅中 2駅 66.6%
            unknown     年月日不明     1  3駅中 1駅 33.3%
            incomplete  未乗下車    9517  9520駅中 9517駅 99.9%
            """),
        (oneYear, .en, """
            dates: 2013
            stations / share / out of  key     label
                   2   66.6%        3          (this level)
                   1   50.0%        2  201309  2013-09
                   1   50.0%        2  201300  2013-unknown
            """),
        (oneYear, .ja, """
            乗下車日 › 2013年
            3駅中 2駅 66.6%
            キー    名前             駅数  統計
            201309  2013年9月           1  2駅中 1駅 50.0%
            201300  2013年 月日不明     1  2駅中 1駅 50.0%
            """),
        (dayList, .en, """
            dates: 2013 › 2013-09 › 2013-09-01
            stations / share / out of
                   1  100.0%        1
            date        s_id  name  operator  lines  memo
            2013-09-01  300260  津駅  "伊勢\\n鉄道"
            """),
        (dayList, .ja, """
            乗下車日 › 2013年 › 2013年9月 › 2013年9月1日
            1駅中 1駅 100.0%
            乗下車日      s_id  駅名  事業者  路線  メモ
            2013年9月1日  300260  津駅  "伊勢\\n鉄道"
            """),
        (prefectureList, .ja, """
            全都道府県 › 24 三重県
            240駅中 2駅 0.8% 残り238駅
            乗下車日             s_id  駅名  事業者  路線  メモ
            2013年9月頃          300260  津駅
            乗下車済 (日付不明)  201111  津駅
            未乗下車             301230  津駅
            """),
    ]

    @Test(arguments: tables) func table(_ report: StatsReport, _ language: OutputLanguage, _ expected: String) {
        #expect(report.table(language) == expected)
    }

    /// English is the default, and ordinary hierarchies keep the columns they always had.
    @Test func englishIsTheDefault() {
        #expect(Self.prefectures.table() == Self.prefectures.table(.en))
        #expect(Self.years.table().contains("stations / share / out of"))
        #expect(!Self.years.table().contains("remaining"))
    }
}
