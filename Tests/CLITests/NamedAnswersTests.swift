import Foundation
import LedgerTestSupport
import Testing

/// Every answer names the station as `station find` does (`s_id  name  operator  lines`), dates
/// print as labels and times as Japan time, in both languages (docs/ledger-cli.md "Output language"): the
/// edit commands, batches, `history`, `replay`, `conflicts`, `merge`, `stats` station lists and
/// the report, through the built executable.
@Suite(.serialized) struct NamedAnswersTests {
    static let ise = "300260  津駅  伊勢鉄道  伊勢線"
    static let kintetsu = "301230  津駅  近畿日本鉄道  名古屋線"
    static let jr = "201111  津駅  東海旅客鉄道  紀勢本線"

    static func ledger(_ dir: TemporaryDirectory, _ name: String = "l", device: String = "phone",
                       now: String = CLIRunner.pinnedNow) throws -> CLIRunner {
        let cli = CLIRunner(ledger: dir.sub(name), now: now)
        let created = try cli.run("init", "--device", device)
        #expect(created.status == 0, "\(created.stderr)")
        return cli
    }

    /// Device ids are random: `(event 3f9c…#2)` reads `(event DEV#2)`.
    static func masked(_ text: String) -> String {
        text.replacingOccurrences(of: "[0-9a-f]{16}", with: "DEV", options: .regularExpression)
    }

    /// Edit commands: arguments run on a fresh ledger, then stdout in English and in Japanese.
    static let edits: [([String], String, String)] = [
        (["complete", "津", "2013-09-01", "--operator", "伊勢"],
         "\(ise): date 2013-09-01 (event DEV#2)\n",
         "\(ise): 乗下車日 2013年9月1日 (記録 DEV#2)\n"),
        (["today", "301230", "--memo", "名古屋線で"],
         "\(kintetsu): date 2026-11-22, memo set (event DEV#2)\n",
         "\(kintetsu): 乗下車日 2026年11月22日、メモ設定 (記録 DEV#2)\n"),
        (["uncomplete", "201111"],
         "\(jr): unchanged (date none, memo empty); nothing recorded\n",
         "\(jr): 変更なし (乗下車日 未乗下車、メモなし)。記録しませんでした\n"),
        (["memo", "201111", ""],
         "\(jr): unchanged (date none, memo empty); nothing recorded\n",
         "\(jr): 変更なし (乗下車日 未乗下車、メモなし)。記録しませんでした\n"),
        (["memo", "201111", "紀勢本線"],
         "\(jr): memo set (event DEV#2)\n",
         "\(jr): メモ設定 (記録 DEV#2)\n"),
        (["complete", "--batch", "BATCH", "--dry-run"],
         "\(jr): date 2013 (would be recorded)\n\(ise): date 2014, memo set (would be recorded)\n"
            + "2 stations in the batch: 2 would be recorded, 0 unchanged; nothing was written (--dry-run)\n",
         "\(jr): 乗下車日 2013年頃 (記録予定)\n\(ise): 乗下車日 2014年頃、メモ設定 (記録予定)\n"
            + "一括記録 2駅: 2駅を記録予定、0駅は変更なし (--dry-run: 何も書き込んでいません)\n"),
        (["complete", "--batch", "BATCH"],
         "\(jr): date 2013 (event DEV#2)\n\(ise): date 2014, memo set (event DEV#3)\n"
            + "2 stations in the batch: 2 recorded, 0 unchanged\n",
         "\(jr): 乗下車日 2013年頃 (記録 DEV#2)\n\(ise): 乗下車日 2014年頃、メモ設定 (記録 DEV#3)\n"
            + "一括記録 2駅: 2駅を記録、0駅は変更なし\n"),
    ]

    @Test(arguments: edits)
    func editsNameTheStation(_ arguments: [String], _ english: String, _ japanese: String) throws {
        for (language, expected) in [("en", english), ("ja", japanese)] {
            let dir = try TemporaryDirectory("named-edit")
            defer { dir.remove() }
            let cli = try Self.ledger(dir)
            let batch = dir.sub("trip.tsv")
            try "201111\t2013\n300260\t2014\t伊勢鉄道\n".write(toFile: batch, atomically: true, encoding: .utf8)
            let result = try cli.run(arguments.map { $0 == "BATCH" ? batch : $0 } + ["--lang", language])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(Self.masked(result.stdout) == expected, "\(arguments) --lang \(language)")
        }
    }

    /// `history` starts with the station; `history` and `replay` print Japan time and the words of
    /// the language; JSON Lines keep UTC.
    @Test(arguments: [
        ("en", "2026-11-22 12:00:00 JST  phone#2  station 300260  date 2013-09-01  memo \"伊勢\"  (user)"),
        ("ja", "2026/11/22 12:00:00 JST  phone#2  駅 300260  乗下車日 2013年9月1日  メモ \"伊勢\"  (入力)"),
    ])
    func historyAndReplayInJapanTime(_ language: String, _ line: String) throws {
        let dir = try TemporaryDirectory("named-history")
        defer { dir.remove() }
        let cli = try Self.ledger(dir)
        #expect(try cli.run("complete", "300260", "2013-09-01", "--memo", "伊勢").status == 0)
        #expect(try cli.run("history", "津", "--operator", "伊勢", "--lang", language).stdout == "\(Self.ise)\n\(line)\n")
        #expect(try cli.run("replay", "--station", "300260", "--lang", language).stdout == line + "\n")
        let jsonl = try cli.run("history", "300260", "--format", "jsonl", "--lang", language).stdout
        #expect(jsonl.contains("\"time\":\"2026-11-22T03:00:00.000Z\"") && !jsonl.contains("津駅"), "\(jsonl)")
    }

    /// Two devices set different dates for 300260 without seeing each other's edit; the later
    /// one (the tablet, an hour later) wins.
    static func conflicted(_ dir: TemporaryDirectory, stations: [String] = ["300260"]) throws -> (CLIRunner, CLIRunner) {
        let phone = try ledger(dir, "phone")
        let tablet = try ledger(dir, "tablet", device: "tablet", now: "2026-11-22T13:00:00+09:00")
        let batch = dir.sub("batch.tsv")
        for (cli, year) in [(phone, "2013"), (tablet, "2014")] {
            try stations.map { "\($0)\t\(year)\n" }.joined().write(toFile: batch, atomically: true, encoding: .utf8)
            let done = try cli.run("complete", "--batch", batch)
            #expect(done.status == 0, "\(done.stderr)")
        }
        return (phone, tablet)
    }

    @Test(arguments: [
        ("en", "\(ise)  date: kept \"2014\" (tablet#2 at 2026-11-22 13:00:00 JST) over \"2013\" (phone#2 at 2026-11-22 12:00:00 JST)",
         "1 new conflict", "1 conflict"),
        ("ja", "\(ise)  乗下車日: \"2014年頃\" (tablet#2 2026/11/22 13:00:00 JST) を採用、\"2013年頃\" (phone#2 2026/11/22 12:00:00 JST) は不採用",
         "新しい競合 1件", "競合 1件"),
    ])
    func conflictsAndMergeNameTheStation(_ language: String, _ line: String, _ summary: String, _ count: String) throws {
        let dir = try TemporaryDirectory("named-conflicts")
        defer { dir.remove() }
        let (phone, _) = try Self.conflicted(dir)
        let merged = try phone.run("merge", dir.sub("tablet"), "--lang", language)
        #expect(merged.status == 0, "\(merged.stderr)")
        let lines = merged.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasSuffix(summary) && lines[1] == "  " + line, "\(merged.stdout)")
        #expect(try phone.run("conflicts", "--lang", language).stdout == "\(line)\n\(count)\n")
        // JSON: the keys it had, plus the station's name; times stay UTC.
        let json = try phone.run("conflicts", "--json", "--lang", language).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let item = try #require((object["conflicts"] as? [[String: Any]])?.first)
        #expect(Set(item.keys) == ["station", "name", "field", "winner", "loser"] && item["name"] as? String == "津駅")
        #expect((item["winner"] as? [String: Any])?["time"] as? String == "2026-11-22T04:00:00.000Z")
        #expect((item["winner"] as? [String: Any])?["value"] as? String == "2014")
    }

    /// `merge` prints at most a screenful of new conflicts (20) and sends the rest to `conflicts`.
    @Test(arguments: [("en", "  … and 5 more: run `oritsubushi conflicts`"), ("ja", "  … ほか5件: `oritsubushi conflicts` で表示")])
    func mergeListsAScreenful(_ language: String, _ more: String) throws {
        let dir = try TemporaryDirectory("named-merge")
        defer { dir.remove() }
        let find = try Self.ledger(dir, "probe").run("station", "find", "--pref", "三重")
        let stations = find.stdout.split(separator: "\n").prefix(25).map { String($0.prefix { $0 != " " }) }
        #expect(stations.count == 25, "\(find.stderr)")
        let (phone, _) = try Self.conflicted(dir, stations: stations)
        let merged = try phone.run("merge", dir.sub("tablet"), "--lang", language)
        let lines = merged.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 22 && lines.last == more, "\(merged.stdout)")
        #expect(lines.count < 21 || lines[1...20].allSatisfy { $0.hasPrefix("  ") && $0.contains("駅  ") }, "\(merged.stdout)")
        #expect(try phone.run("conflicts").stdout.split(separator: "\n").count == 26)
    }

    /// `stats` station lists: the 新宿駅 of different operators read apart, and dates are labels
    /// (`--lang en` never prints a comp_date code such as 20190500).
    @Test(arguments: [("en", "2019-05"), ("ja", "2019年5月頃")])
    func statsStationListsAreTold(_ language: String, _ label: String) throws {
        let dir = try TemporaryDirectory("named-stats")
        defer { dir.remove() }
        let cli = try Self.ledger(dir)
        let found = try cli.run("station", "find", "新宿駅", "--json").stdout.split(separator: "\n")
        // `find 新宿駅` finds the names that begin with 新宿駅: the stations named 新宿駅 itself.
        let shinjuku = found.compactMap { line -> Int? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["name"] as? String == "新宿駅" else { return nil }
            return object["station"] as? Int
        }
        #expect(shinjuku.count >= 3)
        for station in shinjuku { #expect(try cli.run("complete", String(station), "2019-05").status == 0) }
        let stats = try cli.run("stats", "yomi", "し", "しん", "--lang", language)
        #expect(stats.status == 0, "\(stats.stderr)")
        let rows = stats.stdout.split(separator: "\n").filter { $0.contains("  新宿駅  ") }
        #expect(rows.count == shinjuku.count && Set(rows).count == rows.count, "\(stats.stdout)")
        #expect(rows.allSatisfy { $0.hasPrefix(label + "  ") }, "\(rows)")
        #expect(stats.stdout.range(of: "\\b(19|20)[0-9]{6}\\b", options: .regularExpression) == nil, "\(stats.stdout)")
        let dates = try cli.run("stats", "dates", "2019", "--lang", language).stdout
        #expect(dates.contains(language == "en" ? "201905  2019-05" : "201905  2019年5月"), "\(dates)")
    }

    /// The report speaks one language: English totals in `en`, the apps' in `ja`; times JST.
    @Test(arguments: [("en", "1 of 9520 stations (0.0%)", "駅中"), ("ja", "9520駅中 1駅 0.0%", " of 9520 stations")])
    func reportInOneLanguage(_ language: String, _ total: String, _ foreign: String) throws {
        let dir = try TemporaryDirectory("named-report")
        defer { dir.remove() }
        let cli = try Self.ledger(dir)
        #expect(try cli.run("complete", "300260", "2013-09-01").status == 0)
        let page = dir.sub("report.html")
        #expect(try cli.run("report", "--output", page, "--lang", language).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains(total) && !html.contains(foreign))
        // Prefectures and operator types are named in the page's language; operators keep their
        // proper names (東京都交通局, 北海道旅客鉄道), so only the type's name is absent from the other.
        let english = ["Tokyo", "Hokkaido", "JR passenger railways"], japanese = ["東京都", "北海道", "JR旅客会社"]
        for word in language == "en" ? english : japanese { #expect(html.contains(word), "\(language): \(word)") }
        #expect(!html.contains(language == "en" ? "JR旅客会社" : "JR passenger railways"))
        #expect(html.contains(language == "en" ? "2026-11-22 12:00 JST" : "2026/11/22 12:00 JST"))
    }
}
