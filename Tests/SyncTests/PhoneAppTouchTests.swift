import Foundation
import LedgerTestSupport
import Testing

/// The phone app changes a record only when the person asked it to (Schemas/phone-app.md "A tap
/// acts once", "Edits write only what the person changed", "Today only where you are"), tried
/// with a finger (touch events over DevTools) in phone-sized headless Chromium against the built
/// server, on both stores: a tap on a map pin opens the station and presses nothing under the
/// finger; a form opened before a sync never writes back the other device's memo; at sea nothing
/// can be recorded; a second 「現在地を取得」 within seconds shows the new place.
@Suite("The phone app records only what the person asked for", .serialized)
struct PhoneAppTouchTests {
    typealias Setup = PhoneAppBrowserTests.Setup
    typealias Point = WebDriver.Point

    static let shinjuku = 202_758

    /// Opens the station through 検索, shows it on the map (centred there), and taps the pin at
    /// the centre: the station screen opens and the tap presses nothing on it.
    func openFromMap(_ setup: Setup, station id: Int, searching text: String, expecting name: String) async throws {
        let browser = setup.browser
        try await setup.openStation(id, searching: text)
        try await browser.tap("station-on-map")
        try await browser.wait("the map") { try await browser.execute("return !document.querySelector('[data-testid=screen-map]').hidden") as? Bool == true }
        let centre = try await browser.centre(of: "map-canvas")
        try await waitForPin(setup, station: id, at: centre)
        try await browser.tap(centre)
        try await browser.wait("\(name)'s screen opened from its pin") {
            let shown = try await browser.execute("return !document.querySelector('[data-testid=screen-station]').hidden") as? Bool == true
            let title = try await browser.text("station-name")
            return shown && title.contains(name)
        }
        try await Task.sleep(for: .milliseconds(700))
        let stillOpen = try await browser.execute("return !document.querySelector('[data-testid=screen-station]').hidden") as? Bool
        #expect(stillOpen == true, "the tap that opened \(name) did not press 「この駅を地図の中心に表示」 and return to the map")
    }

    /// With the map centred on the open station, pans its pin to where `button` sits on the
    /// station screen and taps it there.
    func tapPin(_ setup: Setup, station: Int, where button: String) async throws {
        let browser = setup.browser
        let target = try await browser.centre(of: button)
        try await browser.tap("station-on-map")
        try await browser.wait("the map") { try await browser.execute("return !document.querySelector('[data-testid=screen-map]').hidden") as? Bool == true }
        try await Task.sleep(for: .milliseconds(300))
        // A pin already within a tap's reach of the button is tapped where it is: a drag that
        // short is a tap itself (and would open the station before the tap under test).
        let centre = try await browser.centre(of: "map-canvas")
        if abs(centre.x - target.x) + abs(centre.y - target.y) > 12 {
            try await browser.drag(from: centre, to: target)
        }
        // The map has drawn the pin where the drag left it (its label list says where) before the tap.
        try await waitForPin(setup, station: station, at: target)
        let stillOnMap = try await browser.execute("return !document.querySelector('[data-testid=screen-map]').hidden") as? Bool
        #expect(stillOnMap == true, "a drag opened a station")
        try await browser.tap(target)
        do {
            try await browser.wait("the station screen opened from the pin under \(button)") {
                try await browser.execute("return !document.querySelector('[data-testid=screen-station]').hidden") as? Bool == true
            }
        } catch {
            let pin = try await pinPlace(setup, station: station)
            let under = try await browser.execute("""
                const e = document.elementFromPoint(arguments[0], arguments[1]);
                const c = document.querySelector('[data-testid=map-canvas]'); const r = c.getBoundingClientRect();
                return [e ? e.outerHTML.slice(0, 200) : 'nothing', `canvas ${r.left},${r.top} ${r.width}x${r.height} drawn ${c.width}x${c.height} dpr ${devicePixelRatio}`, `banner hidden ${document.querySelector('[data-testid=banner]').hidden}`, JSON.stringify(c.dataset)].join(' | ');
                """, [target.x, target.y])
            Issue.record("the tap at \(target) found no pin; the station's pin is at \(String(describing: pin)); under the finger: \(String(describing: under))")
            throw error
        }
        try await Task.sleep(for: .milliseconds(700)) // a click of the same tap would have landed by now
    }

    /// Waits until the map shows `station`'s pin within a few pixels of `point`.
    func waitForPin(_ setup: Setup, station: Int, at point: Point) async throws {
        var last: Point?
        do {
            try await setup.browser.wait("station \(station)'s pin drawn at \(point)") {
                last = try await pinPlace(setup, station: station)
                return last.map { abs($0.x - point.x) + abs($0.y - point.y) < 12 } == true
            }
        } catch {
            Issue.record("station \(station)'s pin is at \(String(describing: last)), not at \(point)")
            throw error
        }
    }

    /// Where the open station's pin is in the viewport, as the map's label list says (nil when
    /// it has no label in view).
    func pinPlace(_ setup: Setup, station: Int) async throws -> Point? {
        let place = try await setup.browser.execute("""
            const id = String(arguments[0]);
            const canvas = document.querySelector('[data-testid=map-canvas]').getBoundingClientRect();
            const label = [...document.querySelectorAll('[data-testid=map-labels] li')].find((li) => li.dataset.station === id);
            return label ? [canvas.left + Number(label.dataset.x), canvas.top + Number(label.dataset.y)] : null;
            """, [station]) as? [Double]
        guard let place, place.count == 2 else { return nil }
        return Point(x: place[0], y: place[1])
    }

    /// The events this device made, as the 同期 screen counts them (not yet sent).
    func pending(_ setup: Setup) async throws -> String {
        try await setup.browser.click("tab-sync")
        return try await setup.browser.text("pending-count")
    }

    @Test("a tap on a pin opens the station and presses nothing under the finger", arguments: StoreKind.allCases)
    func mapTaps(kind: StoreKind) async throws {
        try await Setup.with(kind) { setup in
            let browser = setup.browser
            let odawara = try await setup.odawara()
            try await setup.cli("complete", "\(Self.shinjuku)", "2014-05").expectSuccess()
            try await setup.cli("memo", "\(odawara.id)", "新幹線ホーム").expectSuccess()
            try await setup.syncCLI()
            try await setup.pair()
            try await browser.enableTouch()

            // 新宿 (completed): its pin panned to where 「未乗下車に戻す」 appears, then tapped.
            try await openFromMap(setup, station: Self.shinjuku, searching: "しんじゅく", expecting: "新宿")
            try await tapPin(setup, station: Self.shinjuku, where: "station-uncomplete")
            #expect(try await browser.text("station-date").contains("2014年5月"), "新宿 is still completed")
            #expect(try await browser.text("station-result").isEmpty, "nothing was saved")

            // 小田原 (not completed): centred, then its pin where 「今日、乗下車しました！」 appears.
            try await openFromMap(setup, station: odawara.id, searching: "おだわら", expecting: "小田原")
            try await tapPin(setup, station: odawara.id, where: "station-today")
            let diagnosis = "\(try await browser.text("station-name")): \(try await browser.text("station-date")); \(try await browser.text("station-history")); \(try await browser.text("station-result"))"
            #expect(try await browser.text("station-date") == "未乗下車", "one tap on the map recorded nothing: \(diagnosis)")
            #expect(try await pending(setup) == "0", "the map taps made no event")
            let errors = try await browser.consoleErrors()
            #expect(errors.isEmpty, "console errors: \(errors)")
        }
    }

    @Test("a form opened before a sync shows the other device's memo and a save keeps it", arguments: StoreKind.allCases)
    func staleForm(kind: StoreKind) async throws {
        try await Setup.with(kind) { setup in
            let browser = setup.browser
            let odawara = try await setup.odawara()
            try await setup.cli("memo", "\(odawara.id)", "新幹線ホーム").expectSuccess()
            try await setup.syncCLI()
            try await setup.pair()
            try await browser.enableTouch()

            // The form of 小田原 is open when another device changes its memo and the phone syncs.
            try await setup.openStation(odawara.id, searching: "おだわら")
            let name = try await browser.text("station-name")
            #expect(try await browser.execute("return document.querySelector('[data-testid=station-memo]').value") as? String == "新幹線ホーム", "\(name)")
            try await setup.cli("memo", "\(odawara.id)", "CLI: 新幹線は8番線").expectSuccess()
            try await setup.syncCLI()
            try await setup.syncApp()
            try await browser.click("tab-station")
            let memoBox = try await browser.execute("return document.querySelector('[data-testid=station-memo]').value") as? String
            #expect(memoBox == "CLI: 新幹線は8番線", "the form shows the memo the sync brought")
            #expect(try await browser.text("station-result").contains("別の端末"), "the screen says the record changed")

            // Only the date is changed and saved: the other device's memo stays.
            try await browser.execute("""
                const y = document.querySelector('[data-testid=date-year]'); y.value = '2020'; y.dispatchEvent(new Event('change'));
                """)
            try await browser.waitEnabled("station-save")
            try await browser.tap("station-save")
            try await browser.wait("the save's sentence") { try await browser.text("station-result") == "保存しました。" }
            try await setup.syncApp()
            try await setup.syncCLI()
            let shown = try await setup.cli("station", "show", "\(odawara.id)", "--json")
            shown.expectSuccess()
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            #expect(fields["memo"] as? String == "CLI: 新幹線は8番線", "the CLI's memo is kept: \(shown.stdout)")
            #expect(fields["comp_date"] as? Int == 2020_00_00, "the date the phone saved: \(shown.stdout)")
            let errors = try await browser.consoleErrors()
            #expect(errors.isEmpty, "console errors: \(errors)")
        }
    }

    @Test("at sea nothing can be recorded; a second 「現在地を取得」 within seconds shows the new place", arguments: StoreKind.allCases)
    func onlyWhereYouAre(kind: StoreKind) async throws {
        try await Setup.with(kind) { setup in
            let browser = setup.browser
            try await setup.pair()
            try await browser.enableTouch()
            let origin = setup.server.url

            // The open sea at 30.0, 135.0: the nearest station is hundreds of kilometres away.
            try await browser.setLocation(latitude: 30.0, longitude: 135.0, origin: origin)
            try await browser.click("tab-nearby")
            try await browser.tap("nearby-locate")
            try await waitForList(browser, first: try nearestByCLI(setup, 30.0, 135.0))
            #expect(try await todayHidden(browser), "nothing to record at sea")
            let said = try await browser.text("nearby-incomplete")
            #expect(said.contains("km") && said.contains("記録できる駅はありません"), "the screen says how far the nearest station is: \(said)")
            try await browser.click(css: "[data-testid=nearby-list] li:nth-child(2) .main")
            #expect(try await todayHidden(browser), "nor for another station of the list")

            // At 小田原: recorded there, then moved to 東京 and located again within 30 s.
            let odawara = try await setup.odawara()
            try await browser.setLocation(latitude: odawara.lat, longitude: odawara.lng, origin: origin)
            try await browser.tap("nearby-locate")
            try await waitForList(browser, first: try nearestByCLI(setup, odawara.lat, odawara.lng))
            #expect(try await todayHidden(browser) == false, "offered at the station")
            try await browser.waitEnabled("today-button")
            try await browser.tap("today-button")
            try await browser.wait("the saved sentence") { try await browser.text("nearby-result") == "保存しました。" }

            try await browser.setLocation(latitude: 35.681236, longitude: 139.767125, origin: origin)
            try await browser.tap("nearby-locate")
            try await waitForList(browser, first: try nearestByCLI(setup, 35.681236, 139.767125))
            #expect(try await browser.text("nearby-result").isEmpty, "小田原's confirmation is gone with 小田原")
            #expect(try await browser.text("nearby-selected").contains("小田原") == false)
            let errors = try await browser.consoleErrors()
            #expect(errors.isEmpty, "console errors: \(errors)")
        }
    }

    func todayHidden(_ browser: WebDriver) async throws -> Bool {
        try await browser.execute("return document.querySelector('[data-testid=today-button]').hidden") as? Bool == true
    }

    /// `oritsubushi nearby --at` for the station nearest a point.
    func nearestByCLI(_ setup: Setup, _ lat: Double, _ lng: Double) async throws -> Int {
        let cli = try await setup.cli("nearby", "--at", "\(lat),\(lng)", "--limit", "1", "--json")
        cli.expectSuccess()
        let first = cli.stdout.split(separator: "\n").first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return try #require(first?["station"] as? Int, "nearby: \(cli.stdout)")
    }

    func waitForList(_ browser: WebDriver, first station: Int) async throws {
        try await browser.wait("the nearby list led by station \(station)") {
            try await browser.execute("return Number(document.querySelector('[data-testid=nearby-list] li')?.dataset.station)") as? Int == station
        }
    }
}
