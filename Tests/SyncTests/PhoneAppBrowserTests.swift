import Foundation
import LedgerTestSupport
import NIOHTTP1
import Testing

/// The phone app as a station-hunter uses it, in phone-sized headless Chromium over WebDriver,
/// against the built `oritsubushi server serve` on loopback, on both stores: pair with a code,
/// record a station on the platform with no network, and the event reaches a CLI replica
/// through the server; edits go both ways and converge; a cleared phone pairs again and gets
/// everything back; a revoked token signs the device out and keeps its unsent edits.
@Suite("The phone app in headless Chromium against the real server", .serialized)
struct PhoneAppBrowserTests {
    /// One user, a running server, a paired app and a CLI replica of the same user.
    struct Setup {
        let dir: TemporaryDirectory
        let store: CommandLineStore
        let server: ServerProcess
        let token: String
        let browser: WebDriver
        let ledger: String

        /// Runs `body` with a fresh setup, stopping the browser and the server however it ends;
        /// `serving` is added to `server serve`'s arguments (e.g. `--tiles URL_TEMPLATE`).
        /// The console is read at the end: any error or uncaught exception fails the test, except
        /// the browser's own line for a request that failed the way the test made it fail
        /// (`expecting`: e.g. `net::ERR_INTERNET_DISCONNECTED` offline, `status of 401` revoked).
        static func with(_ kind: StoreKind, serving: [String] = [], expecting failedRequests: [String] = [],
                         _ body: (Setup) async throws -> Void) async throws {
            let setup = try await make(kind, serving: serving)
            do {
                try await body(setup)
                let errors = try await setup.browser.consoleErrors().filter { line in
                    !(line.contains("Failed to load resource") && failedRequests.contains { line.contains($0) })
                }
                #expect(errors.isEmpty, "\(kind): the app's console: \(errors)")
            } catch {
                await setup.stop()
                throw error
            }
            await setup.stop()
        }

        static func make(_ kind: StoreKind, serving: [String] = []) async throws -> Setup {
            try WebDriver.require()
            let dir = try TemporaryDirectory("phone-app")
            let store = try await CommandLineStore.make(kind, in: dir)
            let token = try await store.addUser("alice")
            let server = try await store.serve(["server", "serve"] + serving)
            let browser = try await WebDriver()
            let setup = Setup(dir: dir, store: store, server: server, token: token, browser: browser, ledger: dir.sub("cli"))
            try await setup.cli("init").expectSuccess()
            return setup
        }

        func stop() async {
            await browser.quit()
            server.terminate()
            dir.remove()
        }

        func cli(_ arguments: String...) async throws -> CLI.Result {
            try await CLI.run(arguments + ["--ledger", ledger], environment: [:])
        }

        func syncCLI() async throws {
            try await CLI.run(["sync", "--server", server.url, "--token", token, "--ledger", ledger], environment: [:]).expectSuccess()
        }

        /// `server pair alice` and the link opened: the app exchanges the code by itself (no tap)
        /// and syncs. Waits until that first sync.
        func pair() async throws {
            let printed = try await store.server("pair", "alice", "--url", server.url)
            printed.expectSuccess()
            let link = try #require(printed.stdout.split(separator: "\n").last.map(String.init))
            try await browser.open(link)
            // The first open loads the app and its catalogue, then syncs: within 30 s.
            try await browser.wait("the first sync after pairing", seconds: 30) { try await browser.text("sync-status") == "同期しました。" }
            #expect(try await browser.text("pair-result").contains("alice"), "the pairing's sentence names the user")
        }

        /// The app's device id, as the 同期 screen shows it.
        func appDevice() async throws -> String {
            let text = try await browser.text("sync-device")
            return try #require(text.firstMatch(of: /[0-9a-f]{16}/).map { String($0.output) }, "sync-device: \(text)")
        }

        func syncApp() async throws {
            try await browser.click("tab-sync")
            try await browser.click("sync-now")
            try await browser.wait("a successful sync") {
                let status = try await browser.text("sync-status"), pending = try await browser.text("pending-count")
                return status == "同期しました。" && pending == "0"
            }
        }

        /// On the open station's screen, a memo saved in the app; then another written on the CLI
        /// replica, before either device has synced the other's: two concurrent edits.
        func writeMemos(_ station: Int, inApp app: String, onCLI other: String) async throws {
            try await browser.type("station-memo", app)
            try await browser.press("station-save")
            try await browser.wait("the memo saved") { try await browser.text("station-result").isEmpty == false }
            try await cli("memo", "\(station)", other).expectSuccess()
        }

        /// Opens a station's screen through 検索.
        func openStation(_ id: Int, searching text: String) async throws {
            try await browser.click("tab-search")
            try await browser.type("search-input", text)
            try await browser.wait("station \(id) in the search results") {
                try await browser.execute("return !!document.querySelector('[data-testid=search-results] li[data-station=\"\(id)\"]')") as? Bool == true
            }
            try await browser.click(css: "[data-testid=search-results] li[data-station=\"\(id)\"]")
            try await browser.wait("station \(id)'s screen") { try await browser.text("station-name").isEmpty == false }
        }

        /// 小田原駅's position from the server's catalogue document.
        func odawara() async throws -> (id: Int, lat: Double, lng: Double) {
            let (status, _, body) = try await testRequest(.GET, server.url + "/v1/catalog", token: token, json: nil)
            #expect(status == 200)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
            let stations = try #require(document["stations"] as? [[String: Any]])
            let station = try #require(stations.first { ($0["name"] as? String) == "小田原駅" && ($0["enabled"] as? Bool) == true })
            return (station["id"] as! Int, Double(station["lat"] as! Int) / 1e6, Double(station["lng"] as! Int) / 1e6)
        }
    }

    @Test("pair, record at 小田原 with no network, reload, sync: the CLI replica holds the event under the app's device id",
          arguments: StoreKind.allCases)
    func recordOfflineReachesTheCLI(kind: StoreKind) async throws {
        try await Setup.with(kind, expecting: ["net::ERR_INTERNET_DISCONNECTED"]) { setup in
        let browser = setup.browser
        try await setup.pair()
        // The service worker controls the page from the next load: then the app opens offline.
        try await browser.reload()
        try await browser.wait("the service worker controlling the page") {
            try await browser.execute("return !!navigator.serviceWorker.controller") as? Bool == true
        }

        let station = try await setup.odawara()
        try await browser.setLocation(latitude: station.lat, longitude: station.lng, origin: setup.server.url)
        try await browser.setOffline(true)
        try await browser.click("tab-nearby")
        try await browser.click("nearby-locate")
        try await browser.wait("the nearby list") {
            (try await browser.execute("return document.querySelectorAll('[data-testid=nearby-list] li').length") as? Int ?? 0) >= 10
        }
        let listed = try await browser.execute(
            "return [...document.querySelectorAll('[data-testid=nearby-list] li')].map(li => Number(li.dataset.station))") as? [Int] ?? []
        let cli = try await setup.cli("nearby", "--at", "\(station.lat),\(station.lng)", "--limit", "\(listed.count)", "--json")
        cli.expectSuccess()
        let expected = cli.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["station"] as? Int
        }
        #expect(listed == expected, "the app's nearest stations are `oritsubushi nearby --at`'s")

        let chosen = try #require(listed.first)
        let offered = try await browser.execute("return document.querySelector('[data-testid=today-button]').hidden") as? Bool
        #expect(offered == false, "the today button is offered for an incomplete station")
        try await browser.press("today-button")
        try await browser.wait("the edit saved on the device") { try await browser.text("nearby-result").isEmpty == false }
        let refused = try await browser.execute("return document.querySelector('[data-testid=nearby-result]').classList.contains('bad')") as? Bool
        let result = try await browser.text("nearby-result")
        #expect(refused == false, "\(result)")
        // Completed now: the button is offered only while the station is not.
        let hidden = try await browser.execute("return document.querySelector('[data-testid=today-button]').hidden") as? Bool
        #expect(hidden == true)

        // Reloaded with no network: the app opens from the service worker and the edit is still there.
        try await browser.reload()
        try await browser.wait("the app offline") { try await browser.text("sync-device").isEmpty == false }
        try await browser.click("tab-sync")
        try await browser.wait("one event waiting to be sent") { try await browser.text("pending-count") == "1" }

        try await browser.setOffline(false)
        try await setup.syncApp()
        let device = try await setup.appDevice()
        try await setup.syncCLI()
        let replay = try await setup.cli("replay", "--format", "jsonl")
        replay.expectSuccess()
        let events = replay.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(events.contains { $0["device"] as? String == device && $0["station"] as? Int == chosen },
                "the CLI replica holds the app's event: \(replay.stdout)")
        }
    }

    @Test("an edit on the CLI appears in the app; concurrent memos converge to one value on both", arguments: StoreKind.allCases)
    func editsGoBothWaysAndConverge(kind: StoreKind) async throws {
        try await Setup.with(kind) { setup in
        let browser = setup.browser
        try await setup.cli("complete", "202758", "2014-05").expectSuccess()
        try await setup.syncCLI()
        try await setup.pair()
        try await setup.openStation(202_758, searching: "しんじゅく")
        let date = try await browser.text("station-date")
        #expect(date.contains("2014年5月"), "the CLI's edit: \(date)")

        // Both write a memo for the station before either syncs.
        try await setup.writeMemos(202_758, inApp: "アプリのメモ", onCLI: "CLIのメモ")
        try await setup.syncApp()
        try await setup.syncCLI()
        try await setup.syncApp()

        let shown = try await setup.cli("station", "show", "202758", "--json")
        shown.expectSuccess()
        let cliMemo = (try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])?["memo"] as? String
        try await setup.openStation(202_758, searching: "新宿")
        let appMemo = try await browser.execute("return document.querySelector('[data-testid=station-memo]').value") as? String
        #expect(cliMemo != nil && cliMemo == appMemo, "CLI \(cliMemo ?? "nil") vs app \(appMemo ?? "nil")")
        #expect(["アプリのメモ", "CLIのメモ"].contains(appMemo ?? ""))
        }
    }

    @Test("site data cleared: the app says so, pairs again and gets everything back; a revoked token signs it out and keeps its edits",
          arguments: StoreKind.allCases)
    func clearedAndRevoked(kind: StoreKind) async throws {
        try await Setup.with(kind, expecting: ["status of 401"]) { setup in
        let browser = setup.browser
        try await setup.cli("complete", "202758", "2014-05").expectSuccess()
        try await setup.syncCLI()
        try await setup.pair()

        try await browser.cdp("Storage.clearDataForOrigin", ["origin": setup.server.url, "storageTypes": "all"])
        try await browser.reload()
        try await browser.click("tab-sync")
        try await browser.wait("the app saying it is not paired") { try await browser.text("sync-status").contains("ペアリングされていません") }
        try await setup.pair()
        try await setup.openStation(202_758, searching: "新宿")
        let restored = try await browser.text("station-date")
        #expect(restored.contains("2014年5月"), "everything came back from the server: \(restored)")

        _ = try await setup.store.server("revoke-token", "alice")
        try await browser.type("station-memo", "失効後のメモ")
        try await browser.press("station-save")
        try await browser.click("tab-sync")
        try await browser.click("sync-now")
        try await browser.wait("the signed-out sentence") { try await browser.text("sync-error").contains("サインアウトされています") }
        let pending = try await browser.text("pending-count")
        let status = try await browser.text("sync-status")
        #expect(pending == "1", "the unsent edit is kept")
        #expect(status.contains("ペアリングされていません"), "\(status)")
        }
    }
}
