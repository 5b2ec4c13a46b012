import Foundation
import LedgerTestSupport
import Testing

/// The phone app on an end-to-end encrypted account (`server add-user NAME --encrypted`), in
/// phone-sized headless Chromium against the built server on both stores, the console read at
/// the end (Schemas/encryption.md §8, §11): the CLI makes the key and a `device link` link; the
/// app opens the link (the key in its fragment), shows the same fingerprint, syncs and reads the
/// CLI's memo; the app's edit reaches the CLI sealed and opens there. And the other way round:
/// the app makes the key and shows its recovery kit, which the CLI restores the key from.
@Suite("The phone app on an encrypted account", .serialized)
struct PhoneAppEncryptionTests {
    typealias Setup = PhoneAppBrowserTests.Setup

    /// A setup whose user `alice` is end-to-end encrypted.
    static func encrypted(_ kind: StoreKind, _ body: (Setup) async throws -> Void) async throws {
        try WebDriver.require()
        let dir = try TemporaryDirectory("phone-app-encrypted")
        let store = try await CommandLineStore.make(kind, in: dir)
        let token = try CommandLineStore.token(try await store.server("add-user", "alice", "--encrypted"))
        let server = try await store.serve(["server", "serve"])
        let browser: WebDriver
        do { browser = try await WebDriver() } catch {
            server.terminate()
            throw error
        }
        let setup = Setup(dir: dir, store: store, server: server, token: token, browser: browser, ledger: dir.sub("cli"))
        do {
            try await setup.cli("init").expectSuccess()
            try await body(setup)
            let errors = try await browser.consoleErrors()
            #expect(errors.isEmpty, "\(kind): the app's console: \(errors)")
        } catch {
            await setup.stop()
            throw error
        }
        await setup.stop()
    }

    @Test("a CLI's link carries the key: the app reads the CLI's memo and the CLI the app's edit", arguments: StoreKind.allCases)
    func linkFromTheCLI(kind: StoreKind) async throws {
        try await Self.encrypted(kind) { setup in
            let browser = setup.browser
            let secret = "暗号のメモ-" + UUID().uuidString.prefix(8)
            try await setup.cli("complete", "202758", "2014-05", "--memo", secret).expectSuccess()
            try await setup.syncCLI()
            let linked = try await setup.cli("device", "link", "--json")
            linked.expectSuccess()
            let offer = try #require(try JSONSerialization.jsonObject(with: Data(linked.stdout.utf8)) as? [String: Any])
            let url = try #require(offer["url"] as? String), fingerprint = try #require(offer["fingerprint"] as? String)
            #expect(url.contains("#pair=") && url.contains("&key="), "\(url)")

            try await browser.open(url)
            try await browser.wait("the first sync after pairing by the link", seconds: 30) { try await browser.text("sync-status") == "同期しました。" }
            #expect(try await browser.text("pair-result").contains(fingerprint), "the app shows the key's fingerprint")
            #expect(try await browser.text("kit-fingerprint").contains(fingerprint))
            #expect(try await browser.execute("return document.querySelector('[data-testid=kit-section]').hidden") as? Bool == true,
                    "a key received by a link has no kit to show here")
            try await setup.openStation(202_758, searching: "しんじゅく")
            let memo = try await browser.execute("return document.querySelector('[data-testid=station-memo]').value") as? String
            #expect(memo == secret, "the app opened the CLI's sealed memo: \(memo ?? "nil")")

            // The app's edit goes sealed; the CLI opens it.
            let odawara = try await setup.odawara()
            try await setup.openStation(odawara.id, searching: "おだわら")
            try await browser.press("station-today")
            try await browser.wait("the edit in the history") {
                (try await browser.execute("return document.querySelectorAll('[data-testid=event-saved-state]').length") as? Int ?? 0) > 0
            }
            try await setup.syncApp()
            let device = try await setup.appDevice()
            try await setup.syncCLI()
            let history = try await setup.cli("history", "\(odawara.id)", "--format", "jsonl")
            history.expectSuccess()
            #expect(history.stdout.contains(device), "the CLI opened the app's sealed edit: \(history.stdout)")

            // 別の端末を追加 on the app: the link carries the key too, with its fingerprint.
            try await browser.click("tab-sync")
            try await browser.click("device-link")
            try await browser.wait("the link") { try await browser.text("device-link-url").contains("&key=") }
            #expect(try await browser.text("device-link-key").contains(fingerprint))
            let appLink = try await browser.text("device-link-url")
            let desk = setup.dir.sub("desk")
            try await CLI.run(["init", "--ledger", desk], environment: [:]).expectSuccess()
            let joined = try await CLI.run(["device", "join", appLink, "--name", "desk", "--ledger", desk], environment: [:])
            joined.expectSuccess()
            #expect(joined.stdout.contains("fingerprint \(fingerprint)"), "\(joined.stdout)")
            let deskHistory = try await CLI.run(["history", "\(odawara.id)", "--format", "jsonl", "--ledger", desk], environment: [:])
            #expect(deskHistory.stdout.contains(device), "the app's link gave the desk the key: \(deskHistory.stdout)")
        }
    }

    @Test("the app makes the key and shows its kit until two words are re-entered; the CLI restores the key from the kit", arguments: StoreKind.allCases)
    func kitFromTheApp(kind: StoreKind) async throws {
        try await Self.encrypted(kind) { setup in
            let browser = setup.browser
            try await setup.pair()
            // After the first sync the app may show 地図 (its next step); the kit is on 同期.
            try await browser.click("tab-sync")
            try await browser.wait("the kit") {
                try await browser.execute("return !document.querySelector('[data-testid=kit-section]').hidden") as? Bool == true
            }
            let kit = try await browser.text("kit-words")
            #expect(kit.split(separator: " ").count == 16, "\(kit)")
            #expect(try await browser.execute("return !!document.querySelector('[data-testid=kit-qr] svg')") as? Bool == true)
            #expect(try await browser.text("kit-result").contains("確かめられていません"))
            let asked = try await browser.text("kit-rehearse")
            let numbers = asked.matches(of: /(\d+)番目/).compactMap { Int($0.output.1) }
            #expect(numbers.count == 2, "\(asked)")
            let words = kit.split(separator: " ").map(String.init)
            try await browser.type("kit-word-a", "XXXX")
            try await browser.type("kit-word-b", words[numbers[1] - 1])
            try await browser.click("kit-check")
            try await browser.wait("the wrong word said") { try await browser.text("kit-result").contains("一致しません") }
            try await browser.type("kit-word-a", words[numbers[0] - 1].lowercased())
            try await browser.click("kit-check")
            try await browser.wait("the kit kept") {
                try await browser.execute("return document.querySelector('[data-testid=kit-section]').hidden") as? Bool == true
            }

            // An edit of the app, sealed under its key; the CLI restores the key from the kit.
            let odawara = try await setup.odawara()
            try await setup.openStation(odawara.id, searching: "おだわら")
            try await browser.press("station-today")
            try await setup.syncApp()
            let device = try await setup.appDevice()
            let kitFile = setup.dir.sub("kit.txt")
            try (kit + "\n").write(toFile: kitFile, atomically: true, encoding: .utf8)
            try await setup.cli("encryption", "recover", "--recovery-kit", kitFile, "--server", setup.server.url, "--token", setup.token)
                .expectSuccess()
            try await setup.syncCLI()
            let history = try await setup.cli("history", "\(odawara.id)", "--format", "jsonl")
            #expect(history.stdout.contains(device), "the CLI opened the app's edit with the kit's key: \(history.stdout)")
        }
    }
}
