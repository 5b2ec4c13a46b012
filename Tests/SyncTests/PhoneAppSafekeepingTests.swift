import Foundation
import LedgerTestSupport
import Testing

/// What the phone app says is saved is on the disk, and a full storage loses nothing
/// (Schemas/phone-app.md "Saved means on the disk", "A full storage"), in phone-sized headless
/// Chromium against the built server, on both stores: the browser killed (SIGKILL to chromedriver
/// and every process of its profile) right after 「この端末に保存済み」 opens again with the edit,
/// which the app committed strictly; a quota made too small (`Storage.overrideQuotaForOrigin`)
/// refuses an edit in one sentence, keeps it, and the app saves it by itself once there is room.
@Suite("The phone app keeps what it said saved", .serialized)
struct PhoneAppSafekeepingTests {
    typealias Setup = PhoneAppBrowserTests.Setup

    static let onDevice = "この端末に保存済み"
    static let fullKept = "端末の空き容量が足りないため、この編集はまだ保存できていませんが、消えてはいません：アプリを開いたまま空き容量を増やすと（写真や使わないアプリを削除するなど）、自動で保存します。"
    static let retriedSaved = "保存できなかった編集を、この端末に保存しました。"
    /// Bytes the quota leaves above what the paired app uses: room for a few memos, not for 40.
    static let room = 64 * 1024

    /// Added before the app's scripts (`Page.addScriptToEvaluateOnNewDocument`): every read-write
    /// IndexedDB transaction of the page, in order, with its stores, the durability the app asked
    /// for ("default" when it asked none) and the station edits it put, in `window.__readwrite`.
    static let transactionProbe = """
        (() => {
          const opened = [];
          const byTransaction = new WeakMap();
          Object.defineProperty(window, '__readwrite', { value: opened });
          const transaction = IDBDatabase.prototype.transaction;
          IDBDatabase.prototype.transaction = function (names, mode, options) {
            const tx = transaction.apply(this, arguments);
            if (mode === 'readwrite') {
              const entry = { stores: [].concat(names).map(String), durability: (options && options.durability) || 'default', edits: [], chunks: 0 };
              opened.push(entry);
              byTransaction.set(tx, entry);
            }
            return tx;
          };
          const put = IDBObjectStore.prototype.put;
          IDBObjectStore.prototype.put = function (value) {
            const entry = byTransaction.get(this.transaction);
            if (entry && this.name === 'records' && value && value.kind === 'station_edit') {
              entry.edits.push({ station: value.station, memo: value.memo ?? null });
            }
            return put.apply(this, arguments);
          };
          const add = IDBObjectStore.prototype.add;
          IDBObjectStore.prototype.add = function () {
            const entry = byTransaction.get(this.transaction);
            if (entry && this.name === 'chunks') entry.chunks += 1;
            return add.apply(this, arguments);
          };
        })();
        """

    /// Memo number `n`: 3,000 letters and digits from a fixed generator. Chromium compresses what
    /// IndexedDB stores, so a repeated letter would take almost no room; these take about what
    /// they weigh, and ten or so fill the room the quota leaves.
    static func memo(_ n: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var state = UInt64(n) &* 0x9E37_79B9_7F4A_7C15
        var text = "メモ\(n) "
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            text.append(alphabet[Int(state >> 33) % alphabet.count])
        }
        return text
    }

    /// The open station's history, newest first: each event's text and its saved-state label
    /// (nil for another device's event).
    func history(_ browser: WebDriver) async throws -> [(text: String, label: String?)] {
        let items = try await browser.execute("""
            return [...document.querySelectorAll('[data-testid=station-history] li')]
              .map((li) => [li.textContent, li.querySelector('[data-testid=event-saved-state]')?.textContent ?? null]);
            """) as? [[Any]] ?? []
        return items.map { item in (text: item.first as? String ?? "", label: item.count > 1 ? item[1] as? String : nil) }
    }

    /// Whether the open station's history shows `memo` as an event of this device saved here.
    func shownSavedHere(_ browser: WebDriver, _ memo: String) async throws -> Bool {
        try await history(browser).contains { $0.text.contains(memo) && $0.label == Self.onDevice }
    }

    /// The memos of every record in the app's IndexedDB, read there by a connection of the test.
    func storedMemos(_ browser: WebDriver) async throws -> [String] {
        try await browser.execute("""
            return new Promise((resolve, reject) => {
              const request = indexedDB.open('oritsubushi');
              request.onerror = () => reject(request.error);
              request.onsuccess = () => {
                const db = request.result;
                const all = db.transaction('records').objectStore('records').getAll();
                all.onerror = () => reject(all.error);
                all.onsuccess = () => { db.close(); resolve(all.result.filter((r) => typeof r.memo === 'string').map((r) => r.memo)); };
              };
            });
            """) as? [String] ?? []
    }

    func memoBox(_ browser: WebDriver) async throws -> String? {
        try await browser.execute("return document.querySelector('[data-testid=station-memo]').value") as? String
    }

    func bannerText(_ browser: WebDriver) async throws -> String? {
        try await browser.execute("return document.getElementById('banner-text').textContent") as? String
    }

    /// The console's errors, but for the browser's own lines about requests made offline.
    func consoleErrors(_ browser: WebDriver) async throws -> [String] {
        try await browser.consoleErrors().filter { !($0.contains("Failed to load resource") && $0.contains("net::ERR_INTERNET_DISCONNECTED")) }
    }

    /// Reloads the page (offline it comes from the service worker) and opens the station again.
    func reopenStation(_ setup: Setup, _ id: Int) async throws {
        try await setup.browser.wait("the app") { try await setup.browser.text("sync-device").isEmpty == false }
        try await setup.openStation(id, searching: "おだわら")
    }

    /// The server's copy, through the CLI: the station's memo now, and every memo the app's
    /// device recorded.
    func serverMemos(_ setup: Setup, station: Int) async throws -> (current: String?, fromApp: [String]) {
        let device = try await setup.appDevice()
        try await setup.syncCLI()
        let shown = try await setup.cli("station", "show", "\(station)", "--json")
        shown.expectSuccess()
        let fields = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        let replay = try await setup.cli("replay", "--format", "jsonl")
        replay.expectSuccess()
        let fromApp = replay.stdout.split(separator: "\n").compactMap { line -> String? in
            let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return event?["device"] as? String == device ? event?["memo"] as? String : nil
        }
        return (fields?["memo"] as? String, fromApp)
    }

    @Test("killed right after 「この端末に保存済み」, the browser opens again with the edit, which was committed strictly",
          arguments: StoreKind.allCases)
    func killedRightAfterSaved(kind: StoreKind) async throws {
        try await Setup.with(kind, expecting: ["net::ERR_INTERNET_DISCONNECTED"]) { setup in
            let browser = setup.browser
            try await browser.cdp("Page.addScriptToEvaluateOnNewDocument", ["source": Self.transactionProbe])
            try await setup.pair()
            // The service worker controls the page from the next load: then the app opens offline.
            try await browser.reload()
            try await browser.wait("the service worker controlling the page") {
                try await browser.execute("return !!navigator.serviceWorker.controller") as? Bool == true
            }
            // A memo of the CLI's, pulled as a page of another replica's records: the app commits
            // those relaxed, so the probe is seen telling the two kinds of commit apart.
            let pulledMemo = "CLIのメモ"
            try await setup.cli("memo", "202758", pulledMemo).expectSuccess()
            try await setup.syncCLI()
            try await setup.syncApp()

            // Offline, the edit exists only in this browser's IndexedDB; the kill follows the label.
            let odawara = try await setup.odawara()
            try await browser.setOffline(true)
            try await setup.openStation(odawara.id, searching: "おだわら")
            let memo = "電源が落ちる直前に保存したメモ"
            try await browser.type("station-memo", memo)
            try await browser.press("station-save")
            try await browser.wait("「\(Self.onDevice)」 under the memo") { try await shownSavedHere(browser, memo) }
            let written = try await browser.execute("return window.__readwrite") as? [[String: Any]] ?? []
            let killedConsole = try await consoleErrors(browser)
            try await browser.reopen(after: .killed)
            #expect(killedConsole.isEmpty, "the killed browser's console: \(killedConsole)")

            // A process kill loses nothing the OS already holds, relaxed or not: the probe says
            // which durability the app asked for when it wrote the edit.
            func writing(_ text: String) -> [[String: Any]] {
                written.filter { entry in (entry["edits"] as? [[String: Any]] ?? []).contains { $0["memo"] as? String == text } }
            }
            // A pulled page is stored as one chunk of record frames (Schemas/phone-app.md).
            let edit = writing(memo), pulled = written.filter { ($0["chunks"] as? Int ?? 0) > 0 }
            #expect(!edit.isEmpty && edit.allSatisfy { $0["durability"] as? String == "strict" }, "the edit's commit: \(edit) of \(written)")
            #expect(edit.allSatisfy { ($0["stores"] as? [String] ?? []).contains("records") }, "\(edit)")
            #expect(!pulled.isEmpty && pulled.allSatisfy { $0["durability"] as? String == "relaxed" }, "the pulled page's commit: \(pulled) of \(written)")

            // The same profile in a new browser, still offline: the app opens from the service worker.
            try await browser.setOffline(true)
            try await browser.open(setup.server.url + "/app/")
            try await reopenStation(setup, odawara.id)
            let box = try await memoBox(browser)
            #expect(box == memo, "the memo after the kill: \(box ?? "nil")")
            let items = try await history(browser)
            #expect(items.contains { $0.text.contains(memo) && $0.label == Self.onDevice }, "the history after the kill: \(items)")
            try await browser.click("tab-sync")
            try await browser.wait("one event waiting to be sent") { try await browser.text("pending-count") == "1" }

            try await browser.setOffline(false)
            try await setup.syncApp()
            let server = try await serverMemos(setup, station: odawara.id)
            #expect(server.current == memo, "the station's memo on the server: \(server.current ?? "nil")")
            #expect(server.fromApp.contains(memo), "under the app's device: \(server.fromApp)")
        }
    }

    @Test("a quota too small for an edit: one sentence, nothing said saved that is not, the edit kept and saved once there is room",
          arguments: StoreKind.allCases)
    func fullStorage(kind: StoreKind) async throws {
        try await Setup.with(kind, expecting: ["net::ERR_INTERNET_DISCONNECTED"]) { setup in
            let browser = setup.browser
            let origin = setup.server.url
            try await setup.pair()
            try await browser.reload()
            try await browser.wait("the service worker controlling the page") {
                try await browser.execute("return !!navigator.serviceWorker.controller") as? Bool == true
            }
            let odawara = try await setup.odawara()
            try await setup.openStation(odawara.id, searching: "おだわら")
            let first = "容量を絞る前のメモ"
            try await browser.type("station-memo", first)
            try await browser.press("station-save")
            try await browser.wait("the first memo saved") { try await shownSavedHere(browser, first) }
            try await setup.syncApp()
            let estimate = try await browser.execute("return navigator.storage.estimate()") as? [String: Any] ?? [:]
            let usage = try #require(estimate["usage"] as? Int, "navigator.storage.estimate(): \(estimate)")
            let closedConsole = try await browser.consoleErrors()
            #expect(closedConsole.isEmpty, "the first browser's console: \(closedConsole)")

            // IndexedDB asks the quota manager for an origin's room and keeps the answer for a
            // while (more than 20 s, less than 65 s when measured): a quota set while the app's
            // database is open may not bite for that long, so the browser is closed, and the
            // quota set before the app opens again. The usage is the first browser's: right after
            // a restart the quota manager counts no IndexedDB until the database is opened.
            // (`estimate()` keeps reporting Chromium's usual quota; the override is enforced.)
            try await browser.reopen(after: .closed)
            try await browser.cdp("Storage.overrideQuotaForOrigin", ["origin": origin, "quotaSize": usage + Self.room])
            try await browser.setOffline(true) // no sync writes between the edits
            try await browser.open(origin + "/app/")
            try await reopenStation(setup, odawara.id)

            // Memos, each set as typed (3,000 letters typed key by key would take minutes) and
            // saved, until one does not fit.
            var memos: [String] = []
            var answer = ""
            while memos.count < 40 && answer != Self.fullKept {
                let memo = Self.memo(memos.count + 1)
                memos.append(memo)
                let shown = try await history(browser).count
                try await browser.execute("""
                    const box = document.querySelector('[data-testid=station-memo]');
                    box.value = arguments[0];
                    box.dispatchEvent(new Event('input'));
                    return null;
                    """, [memo])
                try await browser.press("station-save")
                try await browser.wait("the answer to memo \(memos.count)") {
                    let grew = try await history(browser).count > shown
                    let refused = try await browser.text("station-result") == Self.fullKept
                    return grew || refused
                }
                answer = try await browser.text("station-result")
            }
            try #require(answer == Self.fullKept, "none of \(memos.count) memos was refused under a quota \(Self.room) bytes above the app's usage: \(answer)")
            let refused = memos[memos.count - 1], saved = Array(memos.dropLast())
            #expect(!saved.isEmpty, "memos fit before one did not")
            let bad = try await browser.execute("return document.querySelector('[data-testid=station-result]').classList.contains('bad')") as? Bool
            #expect(bad == true, "said as a refusal")
            let banner = try await bannerText(browser)
            #expect(banner == Self.fullKept, "the banner: \(banner ?? "nil")")
            let items = try await history(browser)
            #expect(!items.contains { $0.text.contains(refused) }, "the refused memo is not in the history")
            #expect(saved.allSatisfy { memo in items.contains { $0.text.contains(memo) && $0.label == Self.onDevice } },
                    "every memo said saved shows 「\(Self.onDevice)」")
            let stored = try await storedMemos(browser)
            #expect(([first] + saved).allSatisfy { stored.contains($0) }, "every memo said saved is on the disk")
            #expect(!stored.contains(refused), "the refused memo is not on the disk")
            try await browser.click("tab-sync")
            let storage = try await browser.text("storage-state")
            #expect(storage.contains("まだ保存できていない編集が1件あります"), "同期 counts the kept edit: \(storage)")
            try await browser.click("tab-station")

            // Tried every 5 s: still refused, still kept.
            try await Task.sleep(for: .seconds(6))
            let stillSaying = try await browser.text("station-result")
            #expect(stillSaying == Self.fullKept, "\(stillSaying)")
            let stillOut = try await storedMemos(browser).contains(refused) == false
            #expect(stillOut, "not on the disk while the quota holds")

            // The quota lifted: the retry saves the kept memo, and the screen says so.
            try await browser.cdp("Storage.overrideQuotaForOrigin", ["origin": origin])
            try await browser.wait("the retry saving the kept memo") { try await browser.text("station-result") == Self.retriedSaved }
            let savedNow = try await shownSavedHere(browser, refused)
            #expect(savedNow, "「\(Self.onDevice)」 under the kept memo")
            let box = try await memoBox(browser)
            #expect(box == refused, "the memo box keeps it, with nothing to save again")
            let bannerNow = try await bannerText(browser)
            #expect(bannerNow == Self.retriedSaved, "the banner: \(bannerNow ?? "nil")")
            let storedNow = try await storedMemos(browser)
            #expect(storedNow.contains(refused), "on the disk now")

            // Reloaded (offline, from the service worker): every memo said saved is there.
            try await browser.reload()
            try await reopenStation(setup, odawara.id)
            let reloadedBox = try await memoBox(browser)
            #expect(reloadedBox == refused, "the station's memo after a reload")
            let reloaded = try await history(browser)
            #expect(reloaded.count == memos.count + 1, "\(reloaded.count) events for \(memos.count + 1) memos")

            // Online: the server gets them all, the last as the station's memo.
            try await browser.setOffline(false)
            try await setup.syncApp()
            let server = try await serverMemos(setup, station: odawara.id)
            #expect(server.current == refused, "the station's memo on the server")
            #expect(([first] + memos).allSatisfy { server.fromApp.contains($0) }, "every memo under the app's device (\(server.fromApp.count) of \(memos.count + 1))")
        }
    }
}
