"""The app in the page: what the page records for the bench, and the app driven through WebDriver
(waits, clicks and reads by data-testid, writes timed to their IndexedDB commit, storage)."""

import time

from .browser import network_conditions
from .common import BenchError
from .deps import By, WebDriverException

# What the page records (Page.addScriptToEvaluateOnNewDocument, before any app script)
#
# The app makes no performance marks and has no "map drawn" signal, so this script observes,
# without changing what the app does:
#  - every full-canvas fillRect on #map-canvas: ui/mapScreen.js draw starts each frame with one, and
#    the frame's drawing ends when the requestAnimationFrame callback returns (the microtask
#    queued here runs then); `frame` is the next animation frame (the drawn frame is on screen);
#  - every IndexedDB transaction (mode, start, `complete`): the app resolves a write on the same
#    `complete` event (store.js IndexedDbStore.commit), with a listener added after this one;
#  - puts into the `meta` object store (which settings are written, and how big);
#  - JSON.parse of more than 100 kB (the catalogue);
#  - clicks on elements with a data-testid (capture phase: before the app's handlers), and when
#    station-result / nearby-result show the app's answer;
#  - while `record(true)` is on (the pans of row 6): every requestAnimationFrame callback's start
#    and end and whether it drew the map, and the timestamp of every animation frame (a loop of
#    the bench's own, through the unwrapped requestAnimationFrame).
# Row 1 uses the app's mark `oritsubushi:map-drawn` (performance.mark) when it exists; row 5 reads
# it and `oritsubushi:map-drawn-with-base`.
PAGE_PROBE = r"""
(() => {
  if (window.__bench) return;
  const B = window.__bench = { draws: [], tx: [], metaPuts: [], parses: [], clicks: [], results: [], frames: [], ticks: [], recording: false };
  const now = () => performance.now();
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = function (callback) {
    return raf((ts) => {
      if (!B.recording) return callback(ts);
      const rec = { ts, start: now(), end: null, drew: false };
      const drawn = B.draws.length;
      try { return callback(ts); } finally { rec.end = now(); rec.drew = B.draws.length > drawn; B.frames.push(rec); }
    });
  };
  B.record = (on) => {
    if (on) {
      B.frames = []; B.ticks = []; B.recording = true;
      const tick = (ts) => { if (!B.recording) return; B.ticks.push(ts); raf(tick); };
      raf(tick);
      return null;
    }
    B.recording = false;
    return { frames: B.frames, ticks: B.ticks };
  };
  const fillRect = CanvasRenderingContext2D.prototype.fillRect;
  CanvasRenderingContext2D.prototype.fillRect = function (x, y, w, h) {
    if (this.canvas && this.canvas.id === 'map-canvas' && x === 0 && y === 0 && w > 0 && h > 0) {
      const rec = { start: now(), end: null, frame: null, width: w, height: h };
      B.draws.push(rec);
      queueMicrotask(() => { rec.end = now(); requestAnimationFrame(() => { rec.frame = now(); }); });
    }
    return fillRect.call(this, x, y, w, h);
  };
  const transaction = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (stores) {
    const tx = transaction.apply(this, arguments);
    const rec = { db: this.name, mode: tx.mode, stores: [].concat(stores), start: now(), end: null, aborted: false };
    B.tx.push(rec);
    tx.addEventListener('complete', () => { rec.end = now(); });
    tx.addEventListener('abort', () => { rec.end = now(); rec.aborted = true; });
    return tx;
  };
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (value, key) {
    if (this.name === 'meta') {
      let size = 0;
      try { size = JSON.stringify(value)?.length ?? 0; } catch { size = -1; }
      B.metaPuts.push({ at: now(), key: String(key), size });
    }
    return put.apply(this, arguments);
  };
  const parse = JSON.parse;
  JSON.parse = function (text, reviver) {
    if (typeof text !== 'string' || text.length < 100000) return parse.apply(this, arguments);
    const start = now();
    try { return parse.apply(this, arguments); } finally { B.parses.push({ start, end: now(), length: text.length }); }
  };
  window.addEventListener('click', (e) => {
    const el = e.target instanceof Element ? e.target.closest('[data-testid]') : null;
    if (el) B.clicks.push({ id: el.getAttribute('data-testid'), at: e.timeStamp, handled: now() });
  }, true);
  document.addEventListener('DOMContentLoaded', () => {
    const observer = new MutationObserver((list) => {
      for (const m of list) {
        const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
        const holder = el && el.closest('[data-testid]');
        if (holder) B.results.push({ id: holder.getAttribute('data-testid'), at: now(), text: holder.textContent });
      }
    });
    for (const id of ['station-result', 'nearby-result']) {
      const el = document.getElementById(id);
      if (el) observer.observe(el, { childList: true, characterData: true, subtree: true });
    }
  });
})();
"""


class App:
    """The app in the browser: waits, clicks and reads by data-testid."""

    def __init__(self, driver):
        self.d = driver

    def el(self, testid):
        return self.d.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def wait(self, what, predicate, timeout=30.0, every=0.05):
        deadline = time.time() + timeout
        last_error = None
        while time.time() < deadline:
            try:
                value = predicate()
                if value:
                    return value
            except WebDriverException as error:
                last_error = error
            time.sleep(every)
        raise BenchError(f"timed out after {timeout:.0f} s waiting for {what}" + (f" ({last_error.msg})" if last_error else ""))

    def text(self, testid):
        return self.js("const e = document.querySelector(`[data-testid='${arguments[0]}']`); return e ? e.textContent : null;", testid)

    def click(self, testid):
        # Centred first: scrolled to the bottom edge, as WebDriver scrolls, a button would sit
        # under the fixed tab bar.
        element = self.el(testid)
        self.js("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()

    def tab(self, name):
        self.click(f"tab-{name}")

    def open_station(self, station_id, query):
        """Finds a station on 検索 and opens it, as a person would."""
        self.search(query)
        selector = f'[data-testid="search-results"] li[data-station="{station_id}"]'
        self.wait(f"{query} in the search results", lambda: self.d.find_elements(By.CSS_SELECTOR, selector))
        self.d.find_element(By.CSS_SELECTOR, selector).click()
        self.wait("the station screen", lambda: self.js("return !document.getElementById('station-detail').hidden && document.getElementById('screen-station').hidden === false"))

    def search(self, query):
        """検索 with the box emptied, then `query` typed."""
        self.tab("search")
        box = self.el("search-input")
        self.js("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input'));", box)
        box.send_keys(query)

    def set_memo(self, text):
        """The station screen's memo, as typed (its `input` event)."""
        self.js("const m = document.getElementById('station-memo'); m.value = arguments[0]; m.dispatchEvent(new Event('input'));", text)

    def show_on_map(self):
        """「この駅を地図の中心に表示」 on the station screen, then the map."""
        self.click("station-on-map")
        self.wait("the map", lambda: self.js("return !document.getElementById('screen-map').hidden"))

    def wait_today_button(self):
        self.wait("the today button", lambda: self.js("return !document.getElementById('today-button').hidden"))

    def wait_drawn(self, what="the map drawn", timeout=30):
        """A map drawing of this page has ended (the probe's record of it)."""
        self.wait(what, lambda: any(x["end"] is not None for x in self.bench()["draws"]), timeout)

    def wait_synced(self, timeout=60):
        self.wait("sync-status 「同期しました。」", lambda: self.text("sync-status") == "同期しました。", timeout)

    def bench(self):
        return self.js("return window.__bench")

    def measure_write(self, testid, timeout=10):
        """Clicks a write button and returns click → IndexedDB commit → the app's answer (ms)."""
        before = self.js("const b = window.__bench; return [b.clicks.length, b.results.length]")
        # Buttons that change data rest (disabled) for a moment after their screen appears
        # (Schemas/phone-app.md "A tap acts once"): the measurement starts at a tap that counts.
        self.wait(f"{testid} to take taps", lambda: self.js(f"const e = document.getElementById('{testid}'); return !!e && !e.disabled"), timeout)
        self.click(testid)

        def done():
            b = self.bench()
            clicks = [c for c in b["clicks"][before[0]:] if c["id"] == testid]
            results = b["results"][before[1]:]
            if not clicks or not results:
                return None
            click = clicks[0]["at"]
            writes = [t for t in b["tx"] if t["mode"] == "readwrite" and t["db"] == "oritsubushi" and t["start"] >= click]
            if not writes or writes[0]["end"] is None:
                return None
            return {
                "commit": writes[0]["end"] - click,
                "transactions": len([t for t in writes if t["start"] <= results[0]["at"]]),
                "answer": results[0]["at"] - click,
                "text": results[0]["text"],
                "tx_own": writes[0]["end"] - writes[0]["start"],
            }
        return self.wait(f"the answer to {testid}", done, timeout)


def wait_quiet(server, cdp, app):
    """A quiet server: no API request of the page or the worker still running, and the server's
    counts unchanged for 1.5 s (the sync after the last edit, or after the network came back, may
    still be finishing). Returns the counts."""
    app.wait("the API requests to finish", lambda: all(r["finished"] for r in list(cdp.requests.values()) if "/v1/" in r["url"]), 30)
    before, since = server.counts(), time.time()
    while time.time() - since < 1.5:
        time.sleep(0.25)
        now_counts = server.counts()
        if now_counts != before:
            before, since = now_counts, time.time()
    return before


def set_offline(d, cdp, offline):
    """Network offline on or off: by CDP commands through chromedriver (the page's own session)
    and on every target of the CDP connection (the service worker fetches on its own); taken
    offline page first, back online page last."""
    def page():
        d.execute_cdp_cmd("Network.enable", {})
        d.execute_cdp_cmd("Network.emulateNetworkConditions", network_conditions(offline))
    if offline:
        page()
    cdp.set_offline(offline)
    if not offline:
        page()


def cdp_page_grant(d, origin, station):
    """現在地: geolocation allowed and the phone standing at the station (catalogue lat/lng)."""
    d.execute_cdp_cmd("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": origin})
    d.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": station["lat"] / 1e6, "longitude": station["lng"] / 1e6, "accuracy": 10})


def storage_report(app):
    """navigator.storage.estimate() and what Cache Storage and IndexedDB hold."""
    return app.d.execute_async_script(r"""
      const done = arguments[arguments.length - 1];
      (async () => {
        const estimate = await navigator.storage.estimate();
        const caches_ = {};
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          let bytes = 0, entries = 0;
          for (const request of await cache.keys()) {
            const response = await cache.match(request);
            bytes += (await response.blob()).size;
            entries++;
          }
          caches_[name] = { entries, bytes };
        }
        const db = await new Promise((resolve, reject) => { const r = indexedDB.open('oritsubushi'); r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
        const tx = db.transaction(['records', 'meta'], 'readonly');
        const get = (req) => new Promise((resolve) => { req.onsuccess = () => resolve(req.result); });
        const records = await get(tx.objectStore('records').count());
        const catalog = await get(tx.objectStore('meta').get('catalog'));
        db.close();
        return { usage: estimate.usage, quota: estimate.quota, details: estimate.usageDetails || null, caches: caches_,
                 records, catalogChars: catalog && catalog.text ? catalog.text.length : 0,
                 persisted: await navigator.storage.persisted() };
      })().then(done, (e) => done({ error: String(e) }));
    """)


def emulate_phone(d, dpr):
    """The phone's viewport, 390×844 (mobile: the viewport meta applies, scrollbars overlay), at
    device pixel ratio `dpr`."""
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": dpr, "mobile": True})
