import Foundation
import LedgerTestSupport
import NIOHTTP1
import Testing

/// Raster tiles (Schemas/map.md "Raster tiles") in phone-sized headless Chromium against the
/// built server started with `--tiles` naming a tile server of the test's own on loopback
/// (LoopbackTileServer), on both stores, the console read throughout: the policy of /app/ admits
/// that origin in img-src and connect-src only; 地図 asks for the tiles covering its view, each
/// once, draws them under the lines and shows their credit beside GSHHG's; 設定's 地図タイル turns
/// them off and on; reloaded, the tiles come from the offline cache with no request; with the tile
/// server gone and the phone offline, the kept tiles are drawn, a place never seen shows the base
/// map, and nothing about tiles reaches the console. Without `--tiles` the map asks for none.
@Suite("The phone app's raster tiles: asked for, drawn, credited, kept for offline use", .serialized)
struct PhoneAppTilesTests {
    typealias Setup = PhoneAppBrowserTests.Setup

    /// What the canvas says of its last frame's tiles (data-tiles-*, ui/mapTiles.js).
    struct Drawn: CustomStringConvertible {
        let state: String
        let range: String
        let wanted: Int
        let drawn: Int
        let cached: Int
        let fetched: Int

        /// On, and every tile covering the view drawn.
        var complete: Bool { state == "on" && wanted > 0 && drawn == wanted }
        var description: String { "\(state) \(range): \(drawn)/\(wanted) drawn, \(cached) cached, \(fetched) fetched" }
    }

    func drawn(_ browser: WebDriver) async throws -> Drawn? {
        let values = try await browser.execute("""
            const d = document.querySelector('[data-testid=map-canvas]').dataset;
            return [d.tiles ?? '', d.tilesRange ?? '', d.tilesWanted ?? '', d.tilesDrawn ?? '', d.tilesCached ?? '', d.tilesFetched ?? ''];
            """) as? [String] ?? []
        guard values.count == 6 else { return nil }
        return Drawn(state: values[0], range: values[1], wanted: Int(values[2]) ?? 0, drawn: Int(values[3]) ?? 0,
                     cached: Int(values[4]) ?? 0, fetched: Int(values[5]) ?? 0)
    }

    /// The tiles a data-tiles-range names (`z/x0-x1/y0-y1`), as the tile server's paths.
    static func paths(_ range: String) -> [String] {
        let parts = range.split(separator: "/").map { $0.split(separator: "-").compactMap { Int($0) } }
        guard parts.count == 3, parts[0].count == 1, parts[1].count == 2, parts[2].count == 2 else { return [] }
        let z = parts[0][0]
        return (parts[2][0]...parts[2][1]).flatMap { y in (parts[1][0]...parts[1][1]).map { x in "/\(z)/\(x)/\(y).png" } }
    }

    func hidden(_ browser: WebDriver, _ testID: String) async throws -> Bool? {
        try await browser.execute("return document.querySelector(arguments[0]).hidden", ["[data-testid=\"\(testID)\"]"]) as? Bool
    }

    /// Whether the canvas pixel at (x, y) is the tiles' colour.
    func isTile(_ browser: WebDriver, x: Double, y: Double) async throws -> Bool {
        let rgb = try await PhoneAppMapTests().pixel(browser, x: x, y: y)
        return rgb.count == 3 && zip(rgb, LoopbackTileServer.colour).allSatisfy { abs($0 - $1) <= 6 }
    }

    @Test("asked for, drawn and credited; 地図タイル off and on; kept, and drawn offline with the tile server gone",
          arguments: StoreKind.allCases)
    func drawnCreditedAndKept(kind: StoreKind) async throws {
        let tiles = try await LoopbackTileServer.start()
        do {
            let serving = ["--tiles", tiles.template, "--tiles-attribution", "テスト地図"]
            try await Setup.with(kind, serving: serving, expecting: ["net::ERR_INTERNET_DISCONNECTED"]) { setup in
                try await online(setup, tiles)
                try await offline(setup, tiles)
            }
        } catch {
            await tiles.stop()
            throw error
        }
        await tiles.stop()
    }

    /// The policy, the first tiles, the credit and the setting, then a reload that asks for no tile.
    func online(_ setup: Setup, _ tiles: LoopbackTileServer) async throws {
        let browser = setup.browser
        let (status, headers, _) = try await testRequest(.GET, setup.server.url + "/app/", token: nil, json: nil)
        #expect(status == 200)
        let csp = try #require(headers["Content-Security-Policy"].first)
        #expect(ServeTilesTests.sources(csp, "img-src") == ["'self'", "data:", tiles.origin], "\(csp)")
        #expect(ServeTilesTests.sources(csp, "connect-src") == ["'self'", tiles.origin], "\(csp)")
        #expect(csp.components(separatedBy: tiles.origin).count == 3, "the tile origin in those two directives only: \(csp)")

        try await setup.pair()
        try await browser.click("tab-map")
        try await browser.wait("every tile of the view drawn") { try await drawn(browser)?.complete == true }
        let first = try #require(try await drawn(browser))
        #expect(first.fetched >= first.wanted && first.cached == 0, "\(first)")
        let view = Self.paths(first.range)
        #expect(view.count == first.wanted, "\(first)")
        let asked = tiles.requests()
        for path in view { #expect(asked[path] == 1, "\(path) asked for once: \(asked)") }
        // Drawn under the lines: a corner of the view, far from Japan's lines, is the tiles' colour.
        #expect(try await isTile(browser, x: 3, y: 3), "the view's corner is a tile")
        #expect(try await browser.text("map-tiles-attribution") == "テスト地図")
        #expect(try await hidden(browser, "map-tiles-attribution") == false)
        #expect(try await browser.text("map-attribution").contains("GSHHG"), "the base map keeps its credit")

        // 設定's 地図タイル: off, the map has no tile and no tile credit; on, both are back.
        try await browser.click("tab-sync")
        try await browser.click("settings-tiles-off")
        try await browser.wait("the setting saved") { try await browser.text("settings-result") == "設定を保存しました。" }
        try await browser.click("tab-map")
        try await browser.wait("the tiles off") { try await drawn(browser)?.state == "off" }
        #expect(try await hidden(browser, "map-tiles-attribution") == true)
        #expect(try await isTile(browser, x: 3, y: 3) == false, "the base map's corner, not a tile")
        try await browser.click("tab-sync")
        try await browser.click("settings-tiles-on")
        try await browser.click("tab-map")
        try await browser.wait("the tiles on again") { try await drawn(browser)?.complete == true }
        let errors = try await browser.consoleErrors()
        #expect(errors.isEmpty, "\(setup.store.kind) online: \(errors)")

        // Reloaded: the service worker serves the app and the tiles come from the offline cache.
        let before = tiles.requests()
        try await browser.reload()
        try await browser.wait("the service worker controlling the page") {
            try await browser.execute("return !!navigator.serviceWorker.controller") as? Bool == true
        }
        try await browser.click("tab-map")
        try await browser.wait("the tiles drawn again") { try await drawn(browser)?.complete == true }
        let again = try #require(try await drawn(browser))
        #expect(again.range == first.range && again.cached >= again.wanted && again.fetched == 0, "\(again)")
        #expect(tiles.requests() == before, "no tile asked for again")
    }

    /// The tile server gone and the phone offline: kept tiles drawn, a place never seen left to the
    /// base map with no request, and nothing about tiles on the console.
    func offline(_ setup: Setup, _ tiles: LoopbackTileServer) async throws {
        let browser = setup.browser
        let seen = try #require(try await drawn(browser))
        await tiles.stop()
        try await browser.setOffline(true)
        try await browser.reload()
        try await browser.wait("the app offline") { try await browser.text("sync-device").isEmpty == false }
        try await browser.click("tab-map")
        try await browser.wait("the kept tiles drawn offline") { try await drawn(browser)?.complete == true }
        let kept = try #require(try await drawn(browser))
        #expect(kept.range == seen.range && kept.cached >= kept.wanted && kept.fetched == 0, "\(kept)")
        #expect(try await isTile(browser, x: 3, y: 3), "the kept tile at the view's corner")

        // Dragged twice 300 px east, past any tile's width: tiles never seen are not there.
        try await browser.enableTouch()
        let from = try await browser.centre(of: "map-canvas")
        for _ in 0..<2 { try await browser.drag(from: WebDriver.Point(x: from.x - 150, y: from.y), to: WebDriver.Point(x: from.x + 150, y: from.y)) }
        try await browser.wait("the view moved to other tiles") { try await drawn(browser).map { $0.range != seen.range } == true }
        try await Task.sleep(for: .milliseconds(500))
        let away = try #require(try await drawn(browser))
        #expect(away.drawn < away.wanted, "a place never seen shows the base map: \(away)")
        // And back: the kept tiles again.
        for _ in 0..<2 { try await browser.drag(from: WebDriver.Point(x: from.x + 150, y: from.y), to: WebDriver.Point(x: from.x - 150, y: from.y)) }
        try await browser.wait("the seen tiles drawn again") { try await drawn(browser).map { $0.range == seen.range && $0.complete } == true }

        let errors = try await browser.consoleErrors()
        #expect(!errors.contains { $0.contains(tiles.origin) }, "no tile request on the console: \(errors)")
        let others = errors.filter { !($0.contains("Failed to load resource") && $0.contains("net::ERR_INTERNET_DISCONNECTED")) }
        #expect(others.isEmpty, "\(setup.store.kind) offline: \(others)")
    }

    @Test("without --tiles: no tile, no credit, no 地図タイル, and a quiet console", arguments: StoreKind.allCases)
    func withoutTiles(kind: StoreKind) async throws {
        try await Setup.with(kind) { setup in
            let browser = setup.browser
            try await setup.pair()
            try await browser.click("tab-map")
            try await browser.wait("the map drawn") { try await browser.execute("return !!document.querySelector('[data-testid=map-canvas]').dataset.centerLat") as? Bool == true }
            // The offer (config.json) is read after the first frame: give it the time to arrive.
            try await Task.sleep(for: .seconds(1))
            try await browser.click("tab-sync")
            try await browser.click("tab-map")
            #expect(try await drawn(browser)?.state == "off")
            #expect(try await hidden(browser, "map-tiles-attribution") == true)
            #expect(try await hidden(browser, "settings-tiles") == true)
            #expect(try await isTile(browser, x: 3, y: 3) == false)
        }
    }
}
