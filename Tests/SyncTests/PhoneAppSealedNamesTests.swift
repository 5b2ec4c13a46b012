import Foundation
import LedgerTestSupport
import Testing

/// The phone app's device names on an end-to-end encrypted account (Schemas/encryption.md §8,
/// "Device names"), in headless Chromium against the built server on both stores, the console
/// read at the end: a CLI device with a distinctive name makes the key at its sync; the app pairs
/// by its link under a distinctive name of its own and syncs, naming itself sealed; neither name
/// is anywhere in the server's data, the app's 同期 lists the CLI's name opened with the key, and
/// `device list` the app's.
@Suite("The phone app's device names on an encrypted account", .serialized)
struct PhoneAppSealedNamesTests {
    @Test("no device name in the clear on the server; the app and the CLI open each other's", arguments: StoreKind.allCases)
    func sealedNames(kind: StoreKind) async throws {
        try await PhoneAppEncryptionTests.encrypted(kind) { setup in
            let browser = setup.browser
            let deskName = "desk-" + UUID().uuidString.prefix(8), appName = "はなの電話-" + UUID().uuidString.prefix(8)
            let desk = setup.dir.sub("desk")
            try await CLI.run(["init", "--device", deskName, "--ledger", desk], environment: [:]).expectSuccess()
            try await CLI.run(["sync", "--server", setup.server.url, "--token", setup.token, "--ledger", desk], environment: [:]).expectSuccess()
            let linked = try await CLI.run(["device", "link", "--json", "--ledger", desk], environment: [:])
            linked.expectSuccess()
            let offer = try #require(try JSONSerialization.jsonObject(with: Data(linked.stdout.utf8)) as? [String: Any])
            let url = try #require(offer["url"] as? String)
            let fragment = try #require(url.firstRange(of: "#pair=").map { String(url[$0.lowerBound...]) }, "\(url)")

            // The app opened first, its name typed, then the link's fragment: it pairs under that name.
            try await browser.open(setup.server.url + "/app/")
            try await browser.wait("the pairing form", seconds: 30) {
                try await browser.execute("const e = document.querySelector('[data-testid=pair-name]'); return !!e && e.offsetParent !== null") as? Bool == true
            }
            try await browser.type("pair-name", appName)
            _ = try await browser.execute("location.hash = arguments[0]; return null;", [fragment])
            try await browser.wait("the first sync after pairing by the link", seconds: 30) { try await browser.text("sync-status") == "同期しました。" }
            try await setup.syncApp()
            try await CLI.run(["sync", "--ledger", desk], environment: [:]).expectSuccess()

            let stored = try await EncryptedSyncTests.storedBytes(setup.store)
            let (deskStored, appStored) = (EncryptedSyncTests.contains(stored, deskName), EncryptedSyncTests.contains(stored, appName))
            #expect(!deskStored && !appStored, "\(kind): no device name is stored in the clear")

            try await browser.click("tab-sync")
            let shownNames = "return [...document.querySelectorAll('[data-testid=device-name]')].map(e => e.textContent)"
            do {
                try await browser.wait("both names opened in the app's device list") {
                    let names = try await browser.execute(shownNames) as? [String] ?? []
                    return names.contains(deskName) && names.contains(appName)
                }
            } catch {
                Issue.record("\(kind): the app's device list: \(try await browser.execute(shownNames) ?? "nil")")
                throw error
            }
            let listed = try await CLI.run(["device", "list", "--ledger", desk], environment: [:])
            listed.expectSuccess()
            #expect(listed.stdout.contains(appName) && listed.stdout.contains(deskName) && !listed.stdout.contains("sealed:"),
                    "\(kind): device list opens the app's name: \(listed.stdout)")
        }
    }
}
