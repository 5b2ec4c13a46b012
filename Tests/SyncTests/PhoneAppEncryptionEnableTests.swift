import Foundation
import LedgerTestSupport
import NIOHTTP1
import Testing

/// The phone app turns its plaintext account end-to-end encrypted (Schemas/encryption.md §9,
/// docs/phone-app.md), in phone-sized headless Chromium against the built server on both stores,
/// the console read at the end: 同期's 「暗号化を有効にする」 converts the account with the app's
/// and a CLI's memos in it; the server says it is encrypted and keeps no byte of either memo; the
/// kit appears with its QR code and passes the rehearsal; the app goes on syncing sealed; and a
/// CLI device given the kit reads the app's memo.
@Suite("The phone app turns its account encrypted", .serialized)
struct PhoneAppEncryptionEnableTests {
    @Test("「暗号化を有効にする」 converts the account; the kit restores the app's memo on a CLI device", arguments: StoreKind.allCases)
    func enableFromTheApp(kind: StoreKind) async throws {
        try await PhoneAppBrowserTests.Setup.with(kind) { setup in
            let browser = setup.browser
            let cliMemo = "端末のメモ-" + UUID().uuidString.prefix(8), appMemo = "電話のメモ-" + UUID().uuidString.prefix(8)
            try await setup.cli("complete", "202758", "2014-05", "--memo", cliMemo).expectSuccess()
            try await setup.syncCLI()
            try await setup.pair()

            // A few edits in the app, one with a memo, synced as plaintext.
            let odawara = try await setup.odawara()
            try await setup.openStation(odawara.id, searching: "おだわら")
            try await browser.press("station-today")
            try await browser.type("station-memo", appMemo)
            try await browser.press("station-save")
            try await browser.wait("the memo saved") { try await browser.text("station-result").isEmpty == false }
            try await setup.syncApp()
            #expect(try await Self.accountEncrypted(setup) == false)
            #expect(EncryptedSyncTests.contains(try await EncryptedSyncTests.storedBytes(setup.store), appMemo),
                    "the check can fail: the plaintext account holds the memo's bytes")

            try await browser.wait("「暗号化を有効にする」 on the plaintext account") {
                try await browser.execute("return !document.querySelector('[data-testid=encrypt-section]').hidden") as? Bool == true
            }
            #expect(try await browser.text("encrypt-start") == "暗号化を有効にする")
            try await browser.click("encrypt-start")
            try await browser.wait("the account encrypted", seconds: 60) {
                try await browser.text("encrypt-result").contains("暗号化されました")
            }
            #expect(try await Self.accountEncrypted(setup) == true, "the server says the account is encrypted")
            #expect(try await browser.execute("return document.querySelector('[data-testid=encrypt-section]').hidden") as? Bool == true)
            let stored = try await EncryptedSyncTests.storedBytes(setup.store)
            #expect(!EncryptedSyncTests.contains(stored, appMemo) && !EncryptedSyncTests.contains(stored, cliMemo),
                    "no byte of either memo is left on the server")

            // The kit of the key made here, with its QR code; the rehearsal with the right words.
            try await browser.wait("the kit") {
                try await browser.execute("return !document.querySelector('[data-testid=kit-section]').hidden") as? Bool == true
            }
            let kit = try await browser.text("kit-words")
            let words = kit.split(separator: " ").map(String.init)
            #expect(words.count == 16, "\(kit)")
            #expect(try await browser.execute("return !!document.querySelector('[data-testid=kit-qr] svg')") as? Bool == true)
            #expect(try await browser.text("kit-warning").contains("データは二度と読めなくなります"))
            let numbers = try await browser.text("kit-rehearse").matches(of: /(\d+)番目/).compactMap { Int($0.output.1) }
            #expect(numbers.count == 2)
            try await browser.type("kit-word-a", words[numbers[0] - 1])
            try await browser.type("kit-word-b", words[numbers[1] - 1])
            try await browser.click("kit-check")
            try await browser.wait("the kit kept") {
                try await browser.execute("return document.querySelector('[data-testid=kit-section]').hidden") as? Bool == true
            }

            // The app syncs sealed from now on: a memo written after the conversion reaches the server.
            let laterMemo = "後のメモ-" + UUID().uuidString.prefix(8)
            try await setup.openStation(odawara.id, searching: "おだわら")
            try await browser.type("station-memo", laterMemo)
            try await browser.press("station-save")
            try await browser.wait("the later memo saved") { try await browser.text("station-result").isEmpty == false }
            try await setup.syncApp()
            #expect(try await browser.text("sync-error").isEmpty)
            #expect(!EncryptedSyncTests.contains(try await EncryptedSyncTests.storedBytes(setup.store), laterMemo), "sent sealed")

            // A CLI device given the kit reads the app's memo and the CLI's.
            let spare = setup.dir.sub("spare")
            try await CLI.run(["init", "--ledger", spare], environment: [:]).expectSuccess()
            let spareToken = try CommandLineStore.token(try await setup.store.server("add-token", "alice"))
            let kitFile = setup.dir.sub("kit.txt")
            try (kit + "\n").write(toFile: kitFile, atomically: true, encoding: .utf8)
            try await CLI.run(["encryption", "recover", "--recovery-kit", kitFile, "--server", setup.server.url, "--token", spareToken,
                               "--ledger", spare], environment: [:]).expectSuccess()
            try await CLI.run(["sync", "--server", setup.server.url, "--token", spareToken, "--ledger", spare], environment: [:])
                .expectSuccess()
            let device = try await setup.appDevice()
            let history = try await CLI.run(["history", "\(odawara.id)", "--format", "jsonl", "--ledger", spare], environment: [:])
            #expect(history.stdout.contains(appMemo) && history.stdout.contains(laterMemo) && history.stdout.contains(device),
                    "the app's memos, opened with the kit's key: \(history.stdout)")
            let other = try await CLI.run(["history", "202758", "--ledger", spare], environment: [:])
            #expect(other.stdout.contains(cliMemo), "\(other.stdout)")
        }
    }

    /// GET /v1/account's `encrypted`.
    static func accountEncrypted(_ setup: PhoneAppBrowserTests.Setup) async throws -> Bool? {
        let (status, account) = try await AccountsFixture.call(.GET, setup.server.url + "/v1/account", token: setup.token)
        #expect(status == 200)
        return account["encrypted"] as? Bool
    }
}
