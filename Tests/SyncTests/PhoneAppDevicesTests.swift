import Foundation
import LedgerTestSupport
import Testing

/// The phone app's own devices in phone-sized headless Chromium against the built server, on
/// both stores, the console read at the end: where an edit is (this device, then the server), the
/// 端末 list, 別の端末を追加 joined by the CLI, revoking that device from the app, and ログアウト.
@Suite("The phone app's devices", .serialized)
struct PhoneAppDevicesTests {
    @Test("an edit is said saved here, then on the server; a link joins the CLI; the app revokes it and signs itself out",
          arguments: StoreKind.allCases)
    func devices(kind: StoreKind) async throws {
        try await PhoneAppBrowserTests.Setup.with(kind, expecting: ["status of 401"]) { setup in
            let browser = setup.browser
            try await setup.pair()

            // An edit on 駅: on this device first, on the server once a push acknowledged it.
            let odawara = try await setup.odawara()
            try await setup.openStation(odawara.id, searching: "おだわら")
            try await browser.press("station-today")
            try await browser.wait("the edit in the history") {
                (try await browser.execute("return document.querySelectorAll('[data-testid=event-saved-state]').length") as? Int ?? 0) > 0
            }
            let before = try await browser.execute(
                "return [...document.querySelectorAll('[data-testid=event-saved-state]')].map(e => e.textContent)") as? [String] ?? []
            #expect(before.contains("この端末に保存済み"), "before the sync: \(before)")
            try await setup.syncApp()
            try await setup.openStation(odawara.id, searching: "おだわら")
            let after = try await browser.execute(
                "return [...document.querySelectorAll('[data-testid=event-saved-state]')].map(e => e.textContent)") as? [String] ?? []
            #expect(!after.isEmpty && after.allSatisfy { $0 == "サーバーに保存済み" }, "after the sync: \(after)")

            // 別の端末を追加: a link, its code and a QR code; the CLI joins with the link.
            try await browser.click("tab-sync")
            try await browser.click("device-link")
            try await browser.wait("the link") { try await browser.text("device-link-url").hasPrefix(setup.server.url + "/app/#pair=") }
            let link = try await browser.text("device-link-url")
            #expect(try await browser.text("device-link-code").firstMatch(of: /^[0-9A-Z]{4}-[0-9A-Z]{4}$/) != nil)
            #expect(try await browser.execute("return !!document.querySelector('[data-testid=device-link-qr] svg')") as? Bool == true)
            let desk = setup.dir.sub("desk")
            let joined = try await CLI.run(["device", "join", link, "--name", "desk", "--ledger", desk], environment: [:])
            joined.expectSuccess()

            // The 端末 list shows the three devices; the app revokes the desk.
            try await browser.click("tab-map")
            try await browser.click("tab-sync")
            try await browser.wait("three devices") {
                (try await browser.execute("return document.querySelectorAll('[data-testid=device-item]').length") as? Int ?? 0) == 3
            }
            let deskID = try #require(try await browser.execute("""
                return [...document.querySelectorAll('[data-testid=device-item]')]
                  .find(e => e.querySelector('[data-testid=device-name]')?.textContent === 'desk')?.dataset.device ?? null
                """) as? String, "the desk in the list")
            try await browser.click(css: "[data-testid=device-item][data-device=\"\(deskID)\"] [data-testid=device-revoke]")
            try await browser.click("device-revoke-confirm")
            try await browser.wait("two devices") {
                (try await browser.execute("return document.querySelectorAll('[data-testid=device-item]').length") as? Int ?? 0) == 2
            }
            let refused = try await CLI.run(["sync", "--ledger", desk], environment: [:])
            #expect(refused.status == 77 && refused.stderr.contains("signed out"), "\(refused.stderr)")

            // ログアウト: the pairing form comes back and the server lists the phone no more.
            try await browser.click("sign-out")
            try await browser.click("sign-out-confirm")
            try await browser.wait("the pairing form again") {
                try await browser.execute("return !document.querySelector('[data-testid=pair-section]').hidden") as? Bool == true
            }
            let listed = try await CLI.run(["device", "list", "--json", "--server", setup.server.url, "--token", setup.token,
                                            "--ledger", setup.ledger], environment: [:])
            listed.expectSuccess()
            #expect(listed.stdout.split(separator: "\n").count == 1, "only the CLI's token is left: \(listed.stdout)")
        }
    }
}
