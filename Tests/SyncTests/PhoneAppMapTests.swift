import Foundation
import LedgerTestSupport
import Testing

/// 地図 in phone-sized headless Chromium against the built server, on both stores, the console
/// read at the end: standing at 東京駅 with the location allowed, the map opens centred there with
/// the marker 「現在位置」; a drag takes it away and 「現在位置に移動」 brings it back; the base map
/// names its sources (GSHHG, and japanmap for the prefecture borders) and the server serves their
/// licence files; the names written at that zoom include 東京, 渋谷, 池袋 and 上野; a completed
/// station's pin is green on the canvas and one not completed red. Without permission the map
/// opens as before, and the locate button says why in one sentence.
@Suite("The phone app's map: where I am, the base map, the colours and the names", .serialized)
struct PhoneAppMapTests {
    typealias Setup = PhoneAppBrowserTests.Setup

    static let tokyo = (lat: 35.681236, lng: 139.767125)
    /// 池袋駅 of JR East: a landmark at a zoom showing Tokyo, alone at its point.
    static let ikebukuro = 204_602

    /// The view's centre as the canvas carries it (data-center-lat, data-center-lng).
    func centre(_ browser: WebDriver) async throws -> (lat: Double, lng: Double)? {
        let values = try await browser.execute("""
            const c = document.querySelector('[data-testid=map-canvas]');
            return [c.dataset.centerLat ?? '', c.dataset.centerLng ?? ''];
            """) as? [String] ?? []
        guard values.count == 2, let lat = Double(values[0]), let lng = Double(values[1]) else { return nil }
        return (lat, lng)
    }

    func near(_ a: (lat: Double, lng: Double)?, _ b: (lat: Double, lng: Double), within degrees: Double) -> Bool {
        guard let a else { return false }
        return abs(a.lat - b.lat) <= degrees && abs(a.lng - b.lng) <= degrees
    }

    /// The red, green and blue of the canvas pixel under a point in CSS pixels of the canvas.
    func pixel(_ browser: WebDriver, x: Double, y: Double) async throws -> [Int] {
        try await browser.execute("""
            const c = document.querySelector('[data-testid=map-canvas]');
            const k = c.width / c.getBoundingClientRect().width;
            const d = c.getContext('2d').getImageData(Math.round(arguments[0] * k), Math.round(arguments[1] * k), 1, 1).data;
            return [d[0], d[1], d[2]];
            """, [x, y]) as? [Int] ?? []
    }

    /// The first 2,000 characters of a file at `path` relative to the attribution's link (its
    /// licence file, geo/LICENSE.txt), fetched by the page; empty when the server has no such file.
    func licenceHead(_ browser: WebDriver, _ path: String = "LICENSE.txt") async throws -> String {
        try await browser.execute("""
            const x = new XMLHttpRequest();
            x.open('GET', new URL(arguments[0], document.querySelector('[data-testid=map-attribution]').href).href, false);
            x.send();
            return x.status === 200 ? x.responseText.slice(0, 2000) : '';
            """, [path]) as? String ?? ""
    }

    /// The names the map writes (the offscreen list map-labels): name → (state, x, y).
    func labels(_ browser: WebDriver) async throws -> [Int: (text: String, state: String, x: Double, y: Double)] {
        let rows = try await browser.execute("""
            return [...document.querySelectorAll('[data-testid=map-labels] li')]
              .map(li => [li.dataset.station, li.textContent, li.dataset.state, li.dataset.x, li.dataset.y]);
            """) as? [[String]] ?? []
        var out: [Int: (text: String, state: String, x: Double, y: Double)] = [:]
        for row in rows where row.count == 5 {
            if let id = Int(row[0]), let x = Double(row[3]), let y = Double(row[4]) { out[id] = (row[1], row[2], x, y) }
        }
        return out
    }

    @Test("at 東京駅: opens there with 「現在位置」, recentres on 「現在位置に移動」, names the hubs, green for completed and red for not",
          arguments: StoreKind.allCases)
    func whereIAm(kind: StoreKind) async throws {
        try await Setup.with(kind) { setup in
            let browser = setup.browser
            try await setup.cli("complete", "\(Self.ikebukuro)", "2014-05").expectSuccess()
            try await setup.syncCLI()
            try await setup.pair()
            try await browser.enableTouch()

            // Standing at 東京駅 with the location allowed: the map opens there.
            try await browser.setLocation(latitude: Self.tokyo.lat, longitude: Self.tokyo.lng, origin: setup.server.url)
            try await browser.click("tab-map")
            try await browser.wait("the marker of the position") {
                try await browser.execute("return !document.querySelector('[data-testid=map-position]').hidden") as? Bool == true
            }
            try await browser.wait("the map centred on the position") { near(try await centre(browser), Self.tokyo, within: 0.0005) }
            let marker = try await browser.execute("return document.querySelector('[data-testid=map-position]').getAttribute('aria-label')") as? String
            #expect(marker == "現在位置")
            let button = try await browser.execute("return document.querySelector('[data-testid=map-locate]').getAttribute('aria-label')") as? String
            #expect(button == "現在位置に移動")

            // The base map and its sources: GSHHG's coast, japanmap's prefecture borders.
            let attribution = try await browser.text("map-attribution")
            #expect(attribution.contains("GSHHG"), "\(attribution)")
            #expect(attribution.contains("japanmap") && attribution.contains("Apache-2.0"), "the borders' source is credited: \(attribution)")
            let licence = try await licenceHead(browser)
            #expect(licence.contains("GSHHG") && licence.contains("Lesser General Public License"), "\(licence.prefix(300))")
            #expect(licence.contains("japanmap") && licence.contains("LICENSE-japanmap.txt"), "\(licence.prefix(300))")
            let bordersLicence = try await licenceHead(browser, "LICENSE-japanmap.txt")
            #expect(bordersLicence.contains("japanmap 0.6.0") && bordersLicence.contains("Apache License"), "\(bordersLicence.prefix(300))")

            // At this zoom Tokyo's hubs are named pins: 池袋 (completed) green, 東京 (not) red.
            try await Task.sleep(for: .milliseconds(300))
            let named = try await labels(browser)
            let texts = named.values.map(\.text)
            for hub in ["東京駅", "渋谷駅", "池袋駅", "上野駅"] {
                #expect(texts.contains { $0.hasPrefix(hub) }, "\(hub) is named on the map: \(texts.sorted())")
            }
            let ikebukuro = try #require(named[Self.ikebukuro], "池袋 among the names: \(texts.sorted())")
            #expect(ikebukuro.state == "all" && ikebukuro.text.contains("乗下車済"), "\(ikebukuro)")
            let green = try await pixel(browser, x: ikebukuro.x - 2, y: ikebukuro.y)
            #expect(green.count == 3 && green[1] > green[0] + 40 && green[1] > green[2] + 40, "池袋's pin is green: \(green)")
            let tokyoPin = try #require(named.first { $0.value.text.hasPrefix("東京駅") }?.value)
            #expect(tokyoPin.state == "none")
            // The marker (a DOM element) is over 東京's pin; the canvas under it is the pin's.
            let red = try await pixel(browser, x: tokyoPin.x - 2, y: tokyoPin.y)
            #expect(red.count == 3 && red[0] > red[1] + 60 && red[0] > red[2] + 60, "東京's pin is red: \(red)")

            // Dragged away, then 「現在位置に移動」 brings the map back to the position.
            let from = try await browser.centre(of: "map-canvas")
            try await browser.drag(from: from, to: WebDriver.Point(x: from.x - 100, y: from.y - 220))
            try await browser.wait("the map moved") { !near(try await centre(browser), Self.tokyo, within: 0.01) }
            try await browser.tap("map-locate")
            try await browser.wait("the map centred on the position again") { near(try await centre(browser), Self.tokyo, within: 0.0005) }
            let stillMap = try await browser.execute("return !document.querySelector('[data-testid=screen-map]').hidden") as? Bool
            #expect(stillMap == true, "the tap on the button opened no station")
        }
    }

    @Test("without permission the map opens as before and 「現在位置に移動」 says why", arguments: StoreKind.allCases)
    func withoutPermission(kind: StoreKind) async throws {
        try await Setup.with(kind) { setup in
            let browser = setup.browser
            try await setup.pair()
            try await browser.cdp("Browser.setPermission", [
                "permission": ["name": "geolocation"], "setting": "denied", "origin": setup.server.url,
            ])
            try await browser.click("tab-map")
            try await browser.wait("the map drawn") { try await centre(browser) != nil }
            let hidden = try await browser.execute("return document.querySelector('[data-testid=map-position]').hidden") as? Bool
            #expect(hidden == true, "no marker without a position")
            try await browser.click("map-locate")
            try await browser.wait("the button's sentence") { try await browser.text("map-locate-status").isEmpty == false }
            let said = try await browser.text("map-locate-status")
            #expect(said.contains("位置情報の利用が許可されていない") && said.hasSuffix("。"), "\(said)")
            let count = said.filter { $0 == "。" }.count
            #expect(count == 1, "one sentence: \(said)")
        }
    }
}
