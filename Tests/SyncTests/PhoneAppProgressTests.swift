import Foundation
import LedgerTestSupport
import Testing

/// The phone app's progress features in phone-sized headless Chromium against the built server,
/// on both stores: after pairing it goes to 地図 and says what to do; the last station of 近鉄's
/// 天理線 recorded in the app (the CLI recorded the other three) is said as a milestone and listed
/// under 統計; 乗下車駅数の推移 has the progress report's numbers; 統計's path reads in names; a
/// fix as coarse as iOS's approximate location offers candidates instead of one nearest station;
/// 設定 keeps a pin limit and switches the language. The console is read at the end.
@Suite("The phone app's progress, milestones, approximate position and settings", .serialized)
struct PhoneAppProgressTests {
    /// 近畿日本鉄道 天理線 (l_id 5011007): 平端, 二階堂, 前栽, 天理, all enabled in the bundled v176.
    static let tenriLine = (hirahata: 301_091, nikaido: 301_173, senzai: 301_174, tenri: 301_175)

    @Test("a completed line is said and listed; the chart is the report's; candidates for a coarse fix; settings",
          arguments: StoreKind.allCases)
    func progress(kind: StoreKind) async throws {
        try await PhoneAppBrowserTests.Setup.with(kind) { setup in
            let browser = setup.browser
            let line = Self.tenriLine
            // Three of the line's four stations on the CLI, in two years (one with its month unknown).
            try await setup.cli("complete", "\(line.hirahata)", "2014-05").expectSuccess()
            try await setup.cli("complete", "\(line.nikaido)", "2016-08").expectSuccess()
            try await setup.cli("complete", "\(line.senzai)", "2016").expectSuccess()
            try await setup.syncCLI()

            // Pairing ends on 地図 with one sentence on what to do there.
            try await setup.pair()
            #expect(try await browser.execute("return !document.querySelector('[data-testid=screen-map]').hidden") as? Bool == true,
                    "地図 after pairing")
            let nextStep = try await browser.text("next-step")
            #expect(nextStep.contains("地図の駅をタップ"), "\(nextStep)")
            #expect(try await milestoneShown(browser) == false, "records that arrived by sync are no milestone")

            // The last station, recorded in the app: the line is completed, and said so.
            try await setup.openStation(line.tenri, searching: "てんり")
            try await browser.press("station-today")
            try await browser.wait("the milestone") { try await milestoneShown(browser) }
            let said = try await browser.text("milestone")
            #expect(said == "近畿日本鉄道 天理線を制覇しました！", "the milestone: \(said)")

            try await browser.click("tab-stats")
            try await browser.wait("the completed line on 統計") { try await browser.text("stats-completed").contains("近畿日本鉄道 天理線") }
            let listed = try await browser.execute(
                "return [...document.querySelectorAll('[data-testid=stats-completed] li')].map(li => li.dataset.kind + ' ' + li.dataset.id)") as? [String] ?? []
            #expect(listed == ["line 5011007"], "only the line is completed: \(listed)")

            // 乗下車駅数の推移: four stations in all, and per year the progress report's numbers.
            let total = try await browser.execute("return document.querySelector('[data-testid=stats-progress-chart]').dataset.total") as? String
            #expect(total == "4", "the last running total: \(total ?? "nil")")
            let appYears = try await browser.execute("""
                return [...document.querySelectorAll('[data-testid=stats-progress-chart] rect.year')]
                  .map(r => r.dataset.year + ': ' + r.dataset.count + ' / ' + r.dataset.running)
                """) as? [String] ?? []
            try await setup.syncApp()
            try await setup.syncCLI()
            let reportFile = setup.dir.sub("report.html")
            try await setup.cli("report", "--output", reportFile, "--lang", "ja").expectSuccess()
            let html = try String(contentsOfFile: reportFile, encoding: .utf8)
            let title = try Regex("<title>([0-9]{4}): ([0-9]+) / ([0-9]+)</title>", as: (Substring, Substring, Substring, Substring).self)
            let reportYears = html.matches(of: title).map { "\($0.output.1): \($0.output.2) / \($0.output.3)" }
            #expect(!reportYears.isEmpty && appYears == reportYears, "the app's years \(appYears) are the report's \(reportYears)")
            #expect(appYears.first == "2014: 1 / 1" && appYears.contains("2016: 2 / 3"), "\(appYears)")

            // 統計's path in names, never keys (back on 統計: the syncs above went through 同期).
            try await browser.click("tab-stats")
            try await browser.click("stats-h-operators")
            try await browser.click(css: "[data-testid=stats-list] li[data-key=\"2\"]")
            try await browser.wait("大手私鉄's operators") { try await browser.text("stats-path") == "大手私鉄" }
            try await browser.click(css: "[data-testid=stats-list] li[data-key=\"50110\"]")
            try await browser.wait("近鉄's lines") { try await browser.text("stats-path") == "大手私鉄 › 近畿日本鉄道" }
            try await browser.click("stats-back")
            try await browser.click("stats-back")

            // A fix 3 km wide at 新宿: no one nearest station, but candidates, and nothing chosen.
            try await browser.setLocation(latitude: 35.6900, longitude: 139.7000, origin: setup.server.url, accuracy: 3000)
            try await browser.click("tab-nearby")
            try await browser.click("nearby-locate")
            try await browser.wait("the candidates") {
                try await browser.execute("return !document.querySelector('[data-testid=nearby-candidates]').hidden") as? Bool == true
            }
            let sentence = try await browser.text("nearby-candidates")
            #expect(sentence.contains("位置がおおよそ（精度 約3 km）のため、最寄り駅を1つに決められません。候補："), "\(sentence)")
            let candidates = try await browser.execute(
                "return document.querySelectorAll('[data-testid=nearby-candidates] button[data-station]').length") as? Int ?? 0
            #expect(candidates >= 2, "\(sentence)")
            #expect(try await browser.text("nearby-selected") == "駅を選んでください。", "no station chosen for the person")
            #expect(try await browser.execute("return document.querySelector('[data-testid=today-button]').hidden") as? Bool == true)
            // A good fix at 小田原 names it again.
            let odawara = try await setup.odawara()
            try await browser.setLocation(latitude: odawara.lat, longitude: odawara.lng, origin: setup.server.url)
            try await browser.click("nearby-locate")
            try await browser.wait("小田原 chosen") { try await browser.text("nearby-selected").contains("小田原") }
            #expect(try await browser.execute("return document.querySelector('[data-testid=nearby-candidates]').hidden") as? Bool == true)

            // 設定: a pin limit kept, then English and back.
            try await browser.click("tab-sync")
            _ = try await browser.execute("""
                const select = document.querySelector('[data-testid=settings-pin-limit]');
                select.value = '300';
                select.dispatchEvent(new Event('change', { bubbles: true }));
                """)
            try await browser.wait("the pin limit saved") { try await browser.text("settings-result") == "設定を保存しました。" }
            try await browser.click("settings-language-en")
            try await browser.wait("the app in English") { try await browser.text("tab-map") == "Map" }
            #expect(try await browser.execute("return !document.querySelector('[data-testid=screen-sync]').hidden") as? Bool == true,
                    "back on Sync after the language changed")
            #expect(try await browser.execute("return document.querySelector('[data-testid=settings-pin-limit]').value") as? String == "300")
            let status = try await browser.text("sync-status")
            #expect(!status.isEmpty && !status.contains("同期"), "the status line in English: \(status)")
            try await browser.click("settings-language-ja")
            try await browser.wait("the app in Japanese") { try await browser.text("tab-map") == "地図" }
        }
    }

    func milestoneShown(_ browser: WebDriver) async throws -> Bool {
        try await browser.execute("return !document.querySelector('[data-testid=milestone]').hidden") as? Bool == true
    }
}
