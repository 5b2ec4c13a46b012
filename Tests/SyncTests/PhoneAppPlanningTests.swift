import Foundation
import LedgerTestSupport
import NIOHTTP1
import Testing

/// Planning and recording a trip in the phone app, in phone-sized headless Chromium against the
/// built server on both stores (Schemas/phone-app.md "Deep links", "地図選択", "A line as a line",
/// "Many stations at once"): a line opened from 統計 (operator → line) and 「地図選択」 shows only
/// its stations under a chip naming it, which × clears; #/line/L_ID opens the line's screen by
/// URL and after a reload; three of its stations picked and recorded with 「まとめて記録」 reach a
/// CLI replica as three events of one commit, each with the date; 路線 search with 前方一致 and
/// 部分一致, and its 「地図選択」. An exception or `console.error` anywhere fails the test.
@Suite("Planning a trip in the phone app: 地図選択, a line's screen, まとめて記録, 路線 search", .serialized)
struct PhoneAppPlanningTests {
    typealias Setup = PhoneAppBrowserTests.Setup

    /// A line of the server's catalogue document: its operator and operator type, and its enabled
    /// stations in line order (the order of the document's `lines[].stations`).
    struct Line {
        let id: Int
        let operatorID: Int
        let type: Int
        let stations: [Int]
    }

    /// The server's catalogue document (`GET /v1/catalog`).
    static func catalog(_ setup: Setup) async throws -> [String: Any] {
        let (status, _, body) = try await testRequest(.GET, setup.server.url + "/v1/catalog", token: setup.token, json: nil)
        #expect(status == 200)
        return try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }

    /// 近鉄名古屋線: the enabled line named 名古屋線 of 近畿日本鉄道.
    static func kintetsuNagoya(_ document: [String: Any]) throws -> Line {
        let operators = try #require(document["operators"] as? [[String: Any]])
        let lines = try #require(document["lines"] as? [[String: Any]])
        let stations = try #require(document["stations"] as? [[String: Any]])
        let kintetsu = try #require(operators.first { $0["name"] as? String == "近畿日本鉄道" && $0["enabled"] as? Bool == true })
        let operatorID = try #require(kintetsu["id"] as? Int)
        let line = try #require(lines.first { $0["name"] as? String == "名古屋線" && $0["operator"] as? Int == operatorID && $0["enabled"] as? Bool == true })
        let enabled = Set(stations.filter { $0["enabled"] as? Bool == true }.compactMap { $0["id"] as? Int })
        let members = try #require(line["stations"] as? [Int]).filter { enabled.contains($0) }
        return Line(id: try #require(line["id"] as? Int), operatorID: operatorID, type: try #require(kintetsu["type"] as? Int), stations: members)
    }

    /// The enabled stations of the catalogue.
    static func enabledCount(_ document: [String: Any]) throws -> Int {
        try #require(document["stations"] as? [[String: Any]]).filter { $0["enabled"] as? Bool == true }.count
    }

    /// Waits until 統計's list has the row `li[data-key=KEY]` and taps it.
    static func tapGroup(_ browser: WebDriver, key: Int) async throws {
        let css = "[data-testid=stats-list] li[data-key=\"\(key)\"]"
        try await browser.wait("the group \(key) in 統計") {
            try await browser.execute("return !!document.querySelector(arguments[0])", [css]) as? Bool == true
        }
        try await browser.click(css: css)
    }

    static func shownStations(_ browser: WebDriver) async throws -> Int {
        let value = try await browser.execute("return document.querySelector('[data-testid=map-canvas]').dataset.shownStations ?? ''") as? String ?? ""
        return Int(value) ?? -1
    }

    static func chipHidden(_ browser: WebDriver) async throws -> Bool {
        try await browser.execute("return document.querySelector('[data-testid=map-chip]').hidden") as? Bool ?? false
    }

    static func hash(_ browser: WebDriver) async throws -> String {
        try await browser.execute("return decodeURIComponent(location.hash)") as? String ?? ""
    }

    /// Sets one of the pickers' selects as a person choosing an option does.
    static func choose(_ browser: WebDriver, _ testID: String, _ value: String) async throws {
        try await browser.execute("""
            const select = document.querySelector(arguments[0]);
            select.value = arguments[1];
            select.dispatchEvent(new Event('change', { bubbles: true }));
            """, ["[data-testid=\"\(testID)\"]", value])
    }

    @Test("a line from 統計: its screen, then 「地図選択」 shows only its stations under a chip naming it; × shows every station again",
          arguments: StoreKind.allCases)
    func lineOnTheMap(kind: StoreKind) async throws {
        try await Setup.with(kind) { setup in
            let browser = setup.browser
            try await setup.pair()
            let document = try await Self.catalog(setup)
            let line = try Self.kintetsuNagoya(document)
            let all = try Self.enabledCount(document)

            // 統計 › 全事業者 › 大手私鉄 › 近畿日本鉄道 › 名古屋線 opens the line's screen.
            try await browser.click("tab-stats")
            try await browser.click("stats-h-operators")
            try await Self.tapGroup(browser, key: line.type)
            try await Self.tapGroup(browser, key: line.operatorID)
            try await Self.tapGroup(browser, key: line.id)
            try await browser.wait("the line's screen") {
                try await browser.execute("return !document.querySelector('[data-testid=screen-line]').hidden") as? Bool == true
            }
            #expect(try await browser.text("line-name") == "名古屋線")
            #expect(try await browser.text("line-operator") == "近畿日本鉄道")
            let n = line.stations.count
            #expect(try await browser.text("line-progress") == "\(n)駅中 0駅 乗下車済・残り\(n)駅")
            let rows = try await browser.execute(
                "return [...document.querySelectorAll('[data-testid=line-stations] li')].map(li => Number(li.dataset.station))") as? [Int] ?? []
            #expect(rows == line.stations, "the line's stations in line order")
            #expect(try await Self.hash(browser) == "#/line/\(line.id)")

            // 地図選択: only the line's stations, the chip names the line, the address names the selection.
            try await browser.click(css: "[data-testid=screen-line] [data-testid=map-select]")
            try await browser.wait("the chip") { try await Self.chipHidden(browser) == false }
            #expect(try await browser.execute("return !document.querySelector('[data-testid=screen-map]').hidden") as? Bool == true)
            let chip = try await browser.text("map-chip")
            #expect(chip.contains("名古屋線") && chip.contains("近畿日本鉄道"), "the chip: \(chip)")
            #expect(try await Self.shownStations(browser) == n, "the map draws the line's \(n) stations only")
            #expect(try await Self.hash(browser) == "#/map?line=\(line.id)")
            let label = try await browser.execute("return document.querySelector('[data-testid=map-chip-clear]').getAttribute('aria-label')") as? String
            #expect(label == "絞り込みを解除")

            // Combined with 済 (none of the line is completed): nothing drawn; back to 全駅.
            try await browser.click("map-show-completed")
            #expect(try await Self.shownStations(browser) == 0)
            try await browser.click("map-show-all")
            #expect(try await Self.shownStations(browser) == n)

            // Another tab and back: the selection stays.
            try await browser.click("tab-search")
            try await browser.click("tab-map")
            #expect(try await Self.chipHidden(browser) == false)
            #expect(try await Self.shownStations(browser) == n)

            // ×: every station again.
            try await browser.click("map-chip-clear")
            try await browser.wait("the chip gone") { try await Self.chipHidden(browser) }
            #expect(try await Self.shownStations(browser) == all)
            #expect(try await Self.hash(browser) == "#/map")
        }
    }

    @Test("#/line/L_ID opens the line by URL and after a reload; three of its stations recorded at once reach the CLI with the date",
          arguments: StoreKind.allCases)
    func batchReachesTheCLI(kind: StoreKind) async throws {
        try await Setup.with(kind) { setup in
            let browser = setup.browser
            try await setup.pair()
            let line = try Self.kintetsuNagoya(try await Self.catalog(setup))
            let n = line.stations.count

            // By URL, then reloaded: the same screen.
            try await browser.open(setup.server.url + "/app/#/line/\(line.id)")
            try await browser.wait("the line's screen by URL") { try await browser.text("line-name") == "名古屋線" }
            try await browser.reload()
            try await browser.wait("the line's screen after a reload") { try await browser.text("line-name") == "名古屋線" }
            #expect(try await browser.text("line-progress") == "\(n)駅中 0駅 乗下車済・残り\(n)駅")

            // Three stations picked, one date, one tap.
            let picked = Array(line.stations.prefix(3))
            for id in picked {
                try await browser.click(css: "[data-testid=line-stations] li[data-station=\"\(id)\"] [data-testid=station-check]")
            }
            try await browser.wait("the batch bar") { try await browser.text("batch-count") == "3駅を選択中" }
            #expect(try await browser.execute("return document.querySelector('[data-testid=batch-bar]').hidden") as? Bool == false)
            try await Self.choose(browser, "batch-year", "2013")
            try await Self.choose(browser, "batch-month", "9")
            try await Self.choose(browser, "batch-day", "1")
            try await browser.press("batch-record")
            try await browser.wait("the batch's sentence") { try await browser.text("batch-result").isEmpty == false }
            #expect(try await browser.text("batch-result") == "3駅に「2013年9月1日」を記録しました。")
            #expect(try await browser.text("line-progress") == "\(n)駅中 3駅 乗下車済・残り\(n - 3)駅")
            let done = try await browser.execute(
                "return [...document.querySelectorAll('[data-testid=line-stations] li[data-done=true]')].map(li => Number(li.dataset.station))") as? [Int] ?? []
            #expect(done == picked)

            // The date search takes the originals' keywords: 2013年9月 finds the three.
            try await browser.click("tab-search")
            try await browser.type("search-date", "2013年9月")
            try await browser.wait("the three by their month") { try await browser.text("search-count") == "3駅" }

            try await setup.syncApp()
            let device = try await setup.appDevice()
            try await setup.syncCLI()
            for id in picked {
                let history = try await setup.cli("history", "\(id)")
                history.expectSuccess()
                #expect(history.stdout.contains("2013-09-01"), "station \(id) on the CLI: \(history.stdout)")
            }
            // One event per station, consecutive seqs of the app's device: one batch.
            let replay = try await setup.cli("replay", "--format", "jsonl")
            replay.expectSuccess()
            let events = replay.stdout.split(separator: "\n")
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .filter { $0["device"] as? String == device && $0["comp_date"] as? Int == 2013_09_01 }
            #expect(events.compactMap { $0["station"] as? Int }.sorted() == picked.sorted(), "\(replay.stdout)")
            let seqs = events.compactMap { $0["seq"] as? Int }.sorted()
            #expect(seqs.count == 3 && seqs.last! - seqs.first! == 2, "consecutive seqs: \(seqs)")
        }
    }

    @Test("路線 search: 前方一致 finds no line starting with 古屋, 部分一致 finds every station of the lines containing it; 「地図選択」 shows them",
          arguments: StoreKind.allCases)
    func lineSearch(kind: StoreKind) async throws {
        try await Setup.with(kind) { setup in
            let browser = setup.browser
            try await setup.pair()
            let document = try await Self.catalog(setup)
            let lines = try #require(document["lines"] as? [[String: Any]])
            let stations = try #require(document["stations"] as? [[String: Any]])
            let enabled = Set(stations.filter { $0["enabled"] as? Bool == true }.compactMap { $0["id"] as? Int })
            let expected = Set(lines.filter { ($0["name"] as? String)?.contains("古屋") == true && $0["enabled"] as? Bool == true }
                .flatMap { $0["stations"] as? [Int] ?? [] }).intersection(enabled)
            #expect(expected.count > 0 && expected.count <= 200)
            let nagoya = try Self.kintetsuNagoya(document)

            try await browser.click("tab-search")
            try await browser.click("search-type-line")
            try await browser.click("search-match-prefix")
            try await browser.type("search-input", "古屋")
            try await browser.wait("no line begins with 古屋") { try await browser.text("search-count") == "0駅" }

            try await browser.click("search-match-partial")
            try await browser.wait("the lines containing 古屋") { try await browser.text("search-count") == "\(expected.count)駅" }
            let listed = try await browser.execute(
                "return [...document.querySelectorAll('[data-testid=search-results] li')].map(li => Number(li.dataset.station))") as? [Int] ?? []
            #expect(Set(listed) == expected)
            #expect(Set(nagoya.stations).isSubset(of: Set(listed)), "近鉄名古屋線's stations are among them")

            try await browser.click(css: "[data-testid=screen-search] [data-testid=map-select]")
            try await browser.wait("the chip") { try await Self.chipHidden(browser) == false }
            let chip = try await browser.text("map-chip")
            #expect(chip.contains("路線名に「古屋」を含む"), "the chip: \(chip)")
            #expect(try await Self.shownStations(browser) == expected.count)
            #expect(try await Self.hash(browser) == "#/map?search=古屋&by=line&match=partial")
        }
    }
}
