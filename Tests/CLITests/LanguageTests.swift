import Foundation
import LedgerTestSupport
import Testing

/// `--lang ja|en`, `ORITSUBUSHI_LANG` and `LANG`: the human-readable output of stats, station
/// show/find, history, replay and the edit commands in both languages, exactly; JSON and JSON Lines never change.
@Suite(.serialized) struct LanguageTests {
    static func ledger() throws -> (TemporaryDirectory, CLIRunner) {
        let dir = try TemporaryDirectory("lang")
        let cli = CLIRunner(ledger: dir.sub("l"))
        let created = try cli.run("init", "--device", "phone")
        #expect(created.status == 0, "\(created.stderr)")
        for arguments in [["complete", "300260", "2013-09-01", "--memo", "伊勢鉄道の津"], ["complete", "301230", "unknown"],
                          ["complete", "201117", "2013"]] {
            let done = try cli.run(arguments)
            #expect(done.status == 0, "\(arguments): \(done.stderr)")
        }
        return (dir, cli)
    }

    static let showEnglish = """
        station     300260 津駅 (つ)
        operator    324002 伊勢鉄道 (中小私鉄)
        prefecture  24 三重県, 津市羽所町700
        lines       32400201 伊勢線
        wikipedia   https://ja.wikipedia.org/wiki/%E6%B4%A5%E9%A7%85
        completion  2013-09-01 (comp_date 20130901)
        memo        "伊勢鉄道の津"
        updated     2026-11-22 12:00:00 JST (update_date 1795316400)
        history     1 event

        """

    static let showJapanese = """
        駅              300260 津駅 (つ)
        事業者          324002 伊勢鉄道 (中小私鉄)
        都道府県        24 三重県, 津市羽所町700
        路線            32400201 伊勢線
        ウィキペディア  https://ja.wikipedia.org/wiki/%E6%B4%A5%E9%A7%85
        乗下車          2013年9月1日 (comp_date 20130901)
        メモ            "伊勢鉄道の津"
        最終更新日時    2026/11/22 12:00:00 JST (update_date 1795316400)
        履歴            1件

        """

    /// Which language wins: the flag, then ORITSUBUSHI_LANG, then LANG (ja… → ja), else en.
    static let selection: [([String], [String: String], Bool)] = [
        ([], [:], false),
        ([], ["LANG": "ja_JP.UTF-8"], true),
        ([], ["LANG": "ja"], true),
        ([], ["LANG": "en_US.UTF-8"], false),
        ([], ["LANG": "C.UTF-8"], false),
        ([], ["ORITSUBUSHI_LANG": "ja"], true),
        ([], ["ORITSUBUSHI_LANG": "en", "LANG": "ja_JP.UTF-8"], false),
        ([], ["ORITSUBUSHI_LANG": "", "LANG": "ja_JP.UTF-8"], true),
        (["--lang", "ja"], ["LANG": "C.UTF-8"], true),
        (["--lang", "en"], ["ORITSUBUSHI_LANG": "ja", "LANG": "ja_JP.UTF-8"], false),
        (["--lang", "ja"], ["ORITSUBUSHI_LANG": "en"], true),
    ]

    @Test func theFlagThenTheVariableThenLANG() throws {
        let (dir, cli) = try Self.ledger()
        defer { dir.remove() }
        for (arguments, environment, japanese) in Self.selection {
            let shown = try cli.run(["station", "show", "300260"] + arguments, environment: environment)
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(shown.stdout == (japanese ? Self.showJapanese : Self.showEnglish), "\(arguments) \(environment)")
        }
    }

    /// Command → (English, Japanese) stdout, exactly.
    static let outputs: [([String], String, String)] = [
        (["stats", "dates"], """
            dates: all
            stations / share / out of  key         label
                   3    0.0%     9520              (this level)
                   2   66.6%        3  2013        2013
                   1   33.3%        3  unknown     unknown
                9517   99.9%     9520  incomplete  not completed

            """, """
            乗下車日
            9520駅中 3駅 0.0% 残り9517駅
            キー        名前        駅数  統計
            2013        2013年         2  3駅中 2駅 66.6%
            unknown     年月日不明     1  3駅中 1駅 33.3%
            incomplete  未乗下車    9517  9520駅中 9517駅 99.9%

            """),
        (["stats", "dates", "2013"], """
            dates: 2013
            stations / share / out of  key     label
                   2   66.6%        3          (this level)
                   1   50.0%        2  201309  2013-09
                   1   50.0%        2  201300  2013-unknown

            """, """
            乗下車日 › 2013年
            3駅中 2駅 66.6%
            キー    名前             駅数  統計
            201309  2013年9月           1  2駅中 1駅 50.0%
            201300  2013年 月日不明     1  2駅中 1駅 50.0%

            """),
        (["stats", "dates", "2013", "201300"], """
            dates: 2013 › 2013-unknown
            stations / share / out of
                   1   50.0%        2
            date  s_id  name  operator  lines  memo
            2013  201117  多気駅  東海旅客鉄道  紀勢本線,参宮線

            """, """
            乗下車日 › 2013年 › 2013年 月日不明
            2駅中 1駅 50.0%
            乗下車日  s_id  駅名  事業者  路線  メモ
            2013年頃  201117  多気駅  東海旅客鉄道  紀勢本線,参宮線

            """),
        (["station", "find", "津駅", "--pref", "三重", "--completed"], """
            300260  津駅  つ  伊勢鉄道  伊勢線  2013-09-01
            301230  津駅  つ  近畿日本鉄道  名古屋線  unknown

            """, """
            300260  津駅  つ  伊勢鉄道  伊勢線  2013年9月1日
            301230  津駅  つ  近畿日本鉄道  名古屋線  乗下車済 (日付不明)

            """),
        (["station", "find", "津駅", "--incomplete", "--pref", "三重"], """
            201111  津駅  つ  東海旅客鉄道  紀勢本線  none

            """, """
            201111  津駅  つ  東海旅客鉄道  紀勢本線  未乗下車

            """),
        // 津 finds 津新町 too; 津駅 does not (a typed 駅 ends the name, as the apps' LIKE did).
        (["station", "find", "津", "--incomplete", "--pref", "三重"], """
            201111  津駅  つ  東海旅客鉄道  紀勢本線  none
            301231  津新町駅  つしんまち  近畿日本鉄道  名古屋線  none

            """, """
            201111  津駅  つ  東海旅客鉄道  紀勢本線  未乗下車
            301231  津新町駅  つしんまち  近畿日本鉄道  名古屋線  未乗下車

            """),
    ]

    @Test func humanOutputInBothLanguages() throws {
        let (dir, cli) = try Self.ledger()
        defer { dir.remove() }
        for (arguments, english, japanese) in Self.outputs {
            let en = try cli.run(arguments + ["--lang", "en"])
            #expect(en.status == 0, "\(arguments): \(en.stderr)")
            #expect(en.stdout == english, "\(arguments)")
            #expect(try cli.run(arguments).stdout == english, "\(arguments): English is the default")
            #expect(try cli.run(arguments + ["--lang", "ja"]).stdout == japanese, "\(arguments)")
        }
        // Ordinary hierarchies: the apps' N駅中 M駅 R.r% 残りK駅 per row and as the header.
        let prefectures = try cli.run("stats", "prefectures", "--lang", "ja").stdout
        #expect(prefectures.hasPrefix("全都道府県\n9520駅中 3駅 0.0% 残り9517駅\nキー  名前      統計\n1     北海道    473駅中 0駅 0.0% 残り473駅\n"))
        #expect(prefectures.contains("\n24    三重県    240駅中 3駅 1.2% 残り237駅\n"))
        #expect(try cli.run("stats", "prefectures").stdout.contains("\n  240           3   1.2%         237  24   三重県\n"))
        // history and replay print dates as the apps do in ja.
        let history = try cli.run("history", "300260", "--lang", "ja").stdout
        #expect(history.contains("  駅 300260  乗下車日 2013年9月1日  メモ \"伊勢鉄道の津\"  (入力)\n"), "\(history)")
        #expect(try cli.run("history", "300260").stdout.contains("  date 2013-09-01  "))
        #expect(try cli.run("replay", "--lang", "ja").stdout.contains("  駅 301230  乗下車日 乗下車済 (日付不明)  (入力)\n"))
        #expect(try cli.run("uncomplete", "301230").status == 0)
        #expect(try cli.run("history", "301230", "--lang", "ja").stdout.contains("  乗下車日 未乗下車  (入力)\n"))
    }

    /// JSON and JSON Lines are byte-identical whatever the language.
    static let machineOutputs: [[String]] = [
        ["stats", "prefectures", "--json"], ["stats", "dates", "--json"], ["stats", "dates", "2013", "--json"],
        ["stats", "dates", "incomplete", "--json"], ["station", "show", "300260", "--json"],
        ["station", "find", "津", "--json"], ["station", "find", "--date", "2013", "--json"],
        ["history", "300260", "--format", "jsonl"], ["replay", "--format", "jsonl"],
    ]

    @Test func jsonNeverChangesWithTheLanguage() throws {
        let (dir, cli) = try Self.ledger()
        defer { dir.remove() }
        for arguments in Self.machineOutputs {
            let english = try cli.run(arguments + ["--lang", "en"])
            #expect(english.status == 0, "\(arguments): \(english.stderr)")
            #expect(!english.stdout.isEmpty)
            #expect(try cli.run(arguments + ["--lang", "ja"]).stdout == english.stdout, "\(arguments)")
            #expect(try cli.run(arguments, environment: ["LANG": "ja_JP.UTF-8"]).stdout == english.stdout, "\(arguments)")
            #expect(try cli.run(arguments, environment: ["ORITSUBUSHI_LANG": "ja"]).stdout == english.stdout, "\(arguments)")
        }
    }

    /// The edit commands echo what they recorded, the station named as `station find` does and
    /// the words and date in the chosen language (NamedAnswersTests has the full lines).
    @Test(arguments: [
        (["complete", "202758", "2013-09", "--lang", "ja"], "202758  ", ": 乗下車日 2013年9月頃 (記録 "),
        (["complete", "202758", "2013-09", "--lang", "en"], "202758  ", ": date 2013-09 (event "),
        (["complete", "300260", "2013-09-01", "--lang", "ja"], "300260  津駅  伊勢鉄道  伊勢線",
         ": 変更なし (乗下車日 2013年9月1日、メモは指定どおり)。記録しませんでした\n"),
        (["today", "202924", "--lang", "ja"], "202924  ", ": 乗下車日 2026年11月22日 (記録 "),
        (["uncomplete", "201117", "--lang", "ja"], "201117  多気駅  東海旅客鉄道  紀勢本線,参宮線", ": 乗下車日 未乗下車 (記録 "),
    ])
    func editCommandsEchoDatesInTheLanguage(arguments: [String], station: String, expected: String) throws {
        let (dir, cli) = try Self.ledger()
        defer { dir.remove() }
        let result = try cli.run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(result.stdout.hasPrefix(station) && result.stdout.contains(expected), "\(arguments): \(result.stdout)")
    }

    @Test func unknownLanguagesAreUsageErrors() throws {
        let (dir, cli) = try Self.ledger()
        defer { dir.remove() }
        let before = try directorySnapshot(dir.sub("l"))
        for arguments in [["stats", "dates"], ["station", "show", "300260"], ["station", "find", "津"], ["history", "300260"], ["replay"],
                          ["sync", "--server", "http://127.0.0.1:9"], ["import", "oritsubushi-tsv", "missing.tsv"]] {
            let flag = try cli.run(arguments + ["--lang", "fr"])
            #expect(flag.status == 64, "\(arguments): \(flag.stderr)")
            #expect(flag.stderr.contains("--lang"), "\(flag.stderr)")
            let variable = try cli.run(arguments, environment: ["ORITSUBUSHI_LANG": "japanese"])
            #expect(variable.status == 64, "\(arguments): \(variable.stderr)")
            #expect(variable.stderr.contains("ORITSUBUSHI_LANG='japanese' is not a language; use ja or en"), "\(variable.stderr)")
        }
        #expect(try directorySnapshot(dir.sub("l")) == before)
    }
}
