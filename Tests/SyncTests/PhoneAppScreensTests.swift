import Foundation
import LedgerTestSupport
import Testing

/// Every screen of the phone app, opened and used once in phone-sized headless Chromium against
/// the built server on both stores, with the console read at the end: 地図 (its three filters),
/// 現在地 (a fix at 小田原), 検索, 駅 with its date picker and 保存, 統計 down to a station, and
/// 同期 with its storage line and both exports. An exception or `console.error` anywhere fails the test.
@Suite("Every screen of the phone app, without a console error", .serialized)
struct PhoneAppScreensTests {
    @Test("地図, 現在地, 検索, 駅 and its date picker, 統計, 同期 with its storage line and both exports", arguments: StoreKind.allCases)
    func everyScreen(kind: StoreKind) async throws {
        try await PhoneAppBrowserTests.Setup.with(kind) { setup in
            let browser = setup.browser
            try await setup.pair()

            try await browser.click("tab-map")
            for filter in ["map-show-completed", "map-show-incomplete", "map-show-all"] {
                try await browser.click(filter)
                let on = try await browser.execute("return document.querySelector('[data-testid=\(filter)]').classList.contains('on')") as? Bool
                #expect(on == true, "\(filter) is the filter shown")
            }

            let odawara = try await setup.odawara()
            try await browser.setLocation(latitude: odawara.lat, longitude: odawara.lng, origin: setup.server.url)
            try await browser.click("tab-nearby")
            try await browser.click("nearby-locate")
            try await browser.wait("the nearby list") {
                (try await browser.execute("return document.querySelectorAll('[data-testid=nearby-list] li').length") as? Int ?? 0) >= 10
            }

            try await setup.openStation(odawara.id, searching: "おだわら")
            #expect(try await browser.text("station-name").contains("小田原"))
            let years = try await browser.execute("return [...document.querySelector('[data-testid=date-year]').options].map(o => o.value)") as? [String] ?? []
            let year = try #require(years.first { $0.count == 4 && $0.hasPrefix("20") }, "the date picker's years: \(years)")
            _ = try await browser.execute("""
                const select = document.querySelector('[data-testid=date-year]');
                select.value = arguments[0];
                select.dispatchEvent(new Event('change', { bubbles: true }));
                """, [year])
            try await browser.press("station-save")
            try await browser.wait("the picked year saved") { try await browser.text("station-date").contains(year) }

            try await browser.click("tab-stats")
            try await browser.click("stats-h-operators")
            try await browser.wait("the operators") {
                (try await browser.execute("return document.querySelectorAll('[data-testid=stats-list] li').length") as? Int ?? 0) > 0
            }
            try await browser.click(css: "[data-testid=stats-list] li")
            try await browser.wait("an operator's lines") { try await browser.text("stats-path").isEmpty == false }
            try await browser.click("stats-back")

            try await browser.click("tab-sync")
            try await browser.wait("the storage line on 同期") { try await browser.text("storage-state").contains("使用") }
            let storage = try await browser.text("storage-state")
            #expect(storage.hasPrefix("保護されています") || storage.hasPrefix("保護されていません"), "\(storage)")
            try await browser.click("export-jsonl")
            try await browser.click("export-tsv")
            try await setup.syncApp()
            try await setup.syncCLI()
            let history = try await setup.cli("history", "\(odawara.id)")
            #expect(history.stdout.contains(year), "the date picked on 駅 reached the CLI: \(history.stdout)")
        }
    }
}
