import Foundation
import LedgerTestSupport
import Testing

/// A sync a person can follow (Schemas/phone-app.md "A server that cannot be reached",
/// "Conflicts"), in phone-sized headless Chromium against the built server, on both stores, the
/// console read at the end: a server stopped under a phone that has a network is said as a server
/// that cannot be reached (never 「オフラインです」), once; an edit made meanwhile is この端末に保存済み
/// and, once the server is back on its port with its data, reaches it by the app's own retries,
/// without 今すぐ同期. A memo edited at once on the phone and on a CLI replica of the same user is
/// marked in 駅's history, and 「競合を解決（現在の値を残す）」 settles it on the CLI replica too.
@Suite("The phone app's sync a person can follow", .serialized)
struct PhoneAppFollowTests {
    typealias Setup = PhoneAppBrowserTests.Setup

    static let shinjuku = 202_758
    static let unreachable = "サーバーに接続できません。しばらくしてから自動で再試行します。"
    /// How long the app's retries may take to reach the server once it is back: the retry
    /// schedule's waits (retrySchedule.js) are at most 5, 10, 20 and 40 s after the first four
    /// failures, and the server is started again about 15 to 20 s after the first, before the
    /// fourth failure or just after it.
    static let retryBound: Double = 90

    /// The saved-state marks of 駅's history (この端末に保存済み, サーバーに保存済み), newest first.
    func savedStates(_ browser: WebDriver) async throws -> [String] {
        try await browser.execute(
            "return [...document.querySelectorAll('[data-testid=station-history] [data-testid=event-saved-state]')].map(e => e.textContent)")
            as? [String] ?? []
    }

    /// The fields `oritsubushi conflicts --station` lists for 新宿 on the CLI replica.
    func cliConflicts(_ setup: Setup) async throws -> [String] {
        let listed = try await setup.cli("conflicts", "--station", "\(Self.shinjuku)", "--json")
        listed.expectSuccess()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any], "\(listed.stdout)")
        let items = object["conflicts"] as? [[String: Any]] ?? []
        return items.filter { $0["station"] as? Int == Self.shinjuku }.compactMap { $0["field"] as? String }
    }

    /// 新宿's memo on the CLI replica (`station show --json`).
    func cliMemo(_ setup: Setup) async throws -> String? {
        let shown = try await setup.cli("station", "show", "\(Self.shinjuku)", "--json")
        shown.expectSuccess()
        return (try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])?["memo"] as? String
    }

    /// The sync API's requests fail as refused connections while the server is stopped; the
    /// catalogue's goes through the service worker, which answers with its kept copy or, holding
    /// none yet, fails it (net::ERR_FAILED).
    @Test("a server stopped under an online phone is said unreachable, never offline; an edit made meanwhile reaches it once it is back, without 今すぐ同期",
          arguments: StoreKind.allCases)
    func serverStoppedAndBack(kind: StoreKind) async throws {
        try await Setup.with(kind, expecting: ["net::ERR_CONNECTION_REFUSED", "net::ERR_FAILED"]) { setup in
            let browser = setup.browser
            try await setup.pair()
            let device = try await setup.appDevice()
            try await setup.openStation(Self.shinjuku, searching: "しんじゅく")

            let port = setup.server.port
            _ = await setup.server.stop()
            #expect(!setup.server.process.isRunning, "the server stopped")

            // An edit while the server is away: saved on this device, and said so.
            try await browser.press("station-today")
            try await browser.wait("the edit in 駅's history") { try await savedStates(browser).first == "この端末に保存済み" }
            let states = try await savedStates(browser)
            #expect(states == ["この端末に保存済み"], "\(states)")

            // The edit's sync fails: the server cannot be reached, and the phone is not offline.
            try await browser.click("tab-sync")
            try await browser.wait("the sentence for a server that cannot be reached") {
                try await browser.text("sync-status") == Self.unreachable
            }
            #expect(try await browser.text("pending-count") == "1", "the edit waits to be sent")
            let errorShown = try await browser.execute("return !document.querySelector('[data-testid=sync-error]').hidden") as? Bool
            let errorText = try await browser.text("sync-error")
            #expect(errorShown == false, "said once, on the status line: \(errorText)")
            let page = try await browser.execute("return document.body.innerText") as? String ?? ""
            #expect(!page.contains("オフラインです"), "the phone has a network: \(page.prefix(600))")

            // Retries that fail the same way leave the status line as it is (a retry or two fall in
            // these 10 s: the first waits 2.5 to 5 s, the second 5 to 10 s).
            try await browser.execute("""
                const status = document.querySelector('[data-testid=sync-status]');
                window.statusChanges = [];
                new MutationObserver(() => window.statusChanges.push(status.textContent))
                  .observe(status, { childList: true, characterData: true, subtree: true });
                return null;
                """)
            try await Task.sleep(for: .seconds(10))
            let changes = try await browser.execute("return window.statusChanges") as? [String] ?? []
            #expect(changes.isEmpty, "the status line was rewritten while retries failed: \(changes)")
            #expect(try await browser.text("sync-status") == Self.unreachable)

            // The server again, on the same port and data: the app's retry sends the edit.
            let back = try await setup.store.serve(port: port)
            do {
                #expect(back.port == port)
                try await browser.wait("the app's own retry sending the edit", seconds: Self.retryBound) {
                    let status = try await browser.text("sync-status"), pending = try await browser.text("pending-count")
                    return status == "同期しました。" && pending == "0"
                }
                try await setup.syncCLI()
                let replay = try await setup.cli("replay", "--format", "jsonl")
                replay.expectSuccess()
                let events = replay.stdout.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
                #expect(events.contains { $0["device"] as? String == device && $0["station"] as? Int == Self.shinjuku },
                        "the CLI replica holds the app's edit: \(replay.stdout)")
                try await browser.click("tab-station")
                try await browser.wait("the edit said saved on the server") { try await savedStates(browser) == ["サーバーに保存済み"] }
            } catch {
                back.terminate()
                throw error
            }
            back.terminate()
        }
    }

    @Test("a memo edited on the phone and on a CLI replica at once: 駅 marks the edit that lost, and 競合を解決 settles it on the CLI replica too",
          arguments: StoreKind.allCases)
    func conflictSettledFromStation(kind: StoreKind) async throws {
        try await Setup.with(kind) { setup in
            let browser = setup.browser
            try await setup.pair()

            // Both write 新宿's memo before either has the other's edit.
            try await setup.openStation(Self.shinjuku, searching: "しんじゅく")
            try await setup.writeMemos(Self.shinjuku, inApp: "アプリのメモ", onCLI: "CLIのメモ")
            try await setup.syncCLI()
            try await setup.syncApp()
            try await setup.syncCLI()
            let before = try await cliConflicts(setup)
            #expect(before == ["memo"], "the CLI replica lists the conflict: \(before)")

            // 駅: the edit that lost is marked, and the station offers to settle it.
            try await browser.click("tab-station")
            try await browser.wait("the edit that lost, marked in the history") {
                (try await browser.execute("return document.querySelectorAll('[data-testid=event-lost]').length") as? Int ?? 0) == 1
            }
            let lost = try await browser.execute("""
                const e = document.querySelector('[data-testid=event-lost]');
                return [e.textContent, e.dataset.fields];
                """) as? [String] ?? []
            #expect(lost == ["競合で負けた編集", "memo"], "\(lost)")
            let panelShown = try await browser.execute("return !document.querySelector('[data-testid=station-conflict]').hidden") as? Bool
            #expect(panelShown == true)
            #expect(try await browser.text("conflict-resolve") == "競合を解決（現在の値を残す）")
            let memoBefore = try await browser.execute("return document.querySelector('[data-testid=station-memo]').value") as? String
            #expect(["アプリのメモ", "CLIのメモ"].contains(memoBefore ?? ""), "the winner is shown: \(memoBefore ?? "nil")")

            // Settled here at once: the marks go, the value shown stays.
            try await browser.press("conflict-resolve")
            try await browser.wait("the conflict settled") {
                try await browser.text("station-result") == "競合を解決しました。現在の値を残しました。"
            }
            try await browser.wait("the marks gone") {
                try await browser.execute("""
                    return document.querySelectorAll('[data-testid=event-lost]').length === 0
                      && document.querySelector('[data-testid=station-conflict]').hidden
                    """) as? Bool == true
            }
            let memoAfter = try await browser.execute("return document.querySelector('[data-testid=station-memo]').value") as? String
            #expect(memoAfter == memoBefore, "the current value kept")

            // Synced: the CLI replica lists no conflict for the station, and both hold one memo.
            try await setup.syncApp()
            try await setup.syncCLI()
            let after = try await cliConflicts(setup)
            #expect(after.isEmpty, "the CLI replica, after its sync: \(after)")
            let memoOnCLI = try await cliMemo(setup)
            #expect(memoOnCLI == memoBefore, "one value on both: CLI \(memoOnCLI ?? "nil"), app \(memoBefore ?? "nil")")
        }
    }
}
