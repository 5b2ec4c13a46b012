"""Rows 1–4 of the first table: the first visit with pairing (its bytes, row 4), edits through the
app (row 2), the open with the network off (row 1) and the fold of generated events (row 3). Each
function leaves its figures in `figures` (the JSON file's keys) and returns what only the table
says."""

import time

from .app import cdp_page_grant, set_offline, storage_report, wait_quiet
from .common import BenchError, log, median
from .deps import By, StaleElementReferenceException


def first_visit(d, cdp, app, origin, pair_url, figures):
    """The page loads, the service worker installs (precaching every app file), the code is
    exchanged, the catalogue downloaded and the first sync runs."""
    t0 = time.time()
    d.get(pair_url)  # the app exchanges the link's code by itself
    app.wait_synced(90)
    app.wait("the service worker to control the page and its precache", lambda: app.js(
        "return !!navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === 'activated'"), 60)
    first_visit_s = time.time() - t0
    time.sleep(1.0)  # let the last responses finish
    first_requests = [dict(r) for r in cdp.requests.values() if r["url"].startswith(origin)]
    log(f"first visit paired and synced in {first_visit_s:.1f} s; CDP targets seen: {', '.join(cdp.targets())}")
    storage_first = storage_report(app)
    persist_banner = app.js("return !document.getElementById('banner').hidden ? document.getElementById('banner-text').textContent : ''")

    # Bytes of the first visit, by who fetched what: (encoded, decoded, responses).
    def is_app_file(url):
        return url[len(origin):].startswith("/app/")

    def totals(rs):
        return (sum(r["encoded"] for r in rs), sum(r["decoded"] for r in rs), len(rs))
    page_net = [r for r in first_requests if r["target"] == "page" and not r["fromServiceWorker"]]
    sw_net = [r for r in first_requests if r["target"] == "service_worker"]
    bytes_report = {
        "page_app": totals([r for r in page_net if is_app_file(r["url"])]),
        "sw_app": totals([r for r in sw_net if is_app_file(r["url"])]),
        "catalog": totals([r for r in page_net + sw_net if "/v1/catalog" in r["url"]]),
        "api": totals([r for r in page_net + sw_net if "/v1/" in r["url"] and "/v1/catalog" not in r["url"]]),
    }
    bytes_report["total"] = (sum(v[0] for v in bytes_report.values()), sum(v[1] for v in bytes_report.values()),
                             sum(v[2] for v in bytes_report.values()))
    catalog_requests = [r for r in page_net + sw_net if "/v1/catalog" in r["url"] and r.get("end") and r.get("start")]
    catalog_seconds = (catalog_requests[0]["end"] - catalog_requests[0]["start"]) if catalog_requests else None
    uncompressed = [r["url"][len(origin):] for r in page_net + sw_net if r["decoded"] > 1024 and not r.get("encoding")]
    figures["bytes"] = bytes_report
    figures["storage_first"] = storage_first
    return {"first_visit_s": first_visit_s, "first_requests": first_requests, "persist_banner": persist_banner,
            "catalog_seconds": catalog_seconds, "uncompressed": uncompressed}


def edits(args, d, app, origin, st, figures):
    """Edits through the app: clicks to IndexedDB commits."""
    cdp_page_grant(d, origin, st["odawara"])
    saves, todays = [], []
    # 緑町 (伊豆箱根 大雄山線): 「今日、乗下車しました！」 on the station screen, then memo edits with 保存.
    app.open_station(st["midoricho"]["id"], "みどりちょう")
    if offered(app, "station-today"):
        todays.append(("station-today", app.measure_write("station-today")))
    for i in range(args.edits):
        app.set_memo(f"計測用のメモ {i + 1}")
        saves.append(app.measure_write("station-save"))
        time.sleep(0.3)
    # 箱根湯本: a date through the picker (2013-09-01) and a memo, 保存.
    app.open_station(st["yumoto"]["id"], "はこねゆもと")
    for testid, value in (("date-year", "2013"), ("date-month", "9"), ("date-day", "1")):
        app.js("const s = document.querySelector(`[data-testid='${arguments[0]}']`); s.value = arguments[1]; s.dispatchEvent(new Event('change'));", testid, value)
    app.set_memo("強羅まで乗り通し")
    saves.append(app.measure_write("station-save"))
    # 小田原 (JR東海, completed by the CLI with a memo): a memo from the phone too.
    app.open_station(st["odawara_jrc"]["id"], "おだわら")
    app.set_memo("新幹線から箱根へ。帰りは小田急ロマンスカー")
    saves.append(app.measure_write("station-save"))
    # 現在地 at 小田原駅: select 小田原 (JR東日本) and 「今日、乗下車しました！」.
    app.tab("nearby")
    selector = f'[data-testid="nearby-list"] li[data-station="{st["odawara_jre"]["id"]}"]'
    app.wait("小田原 (JR東日本) in the nearby list", lambda: d.find_elements(By.CSS_SELECTOR, selector))
    # The list is drawn again when completions change (the edits above, a sync's page): a row
    # found just before is then gone, and the new one is clicked.
    for attempt in range(5):
        try:
            d.find_element(By.CSS_SELECTOR, selector).click()
            break
        except StaleElementReferenceException:
            if attempt == 4:
                raise
            time.sleep(0.2)
    if offered(app, "today-button"):
        todays.append(("today-button", app.measure_write("today-button")))
    app.tab("sync")
    time.sleep(2.0)  # EDIT_SYNC_DELAY_MS is 1.5 s
    app.wait_synced(60)
    app.wait("nothing pending", lambda: app.text("pending-count") == "0", 30)
    figures["saves"] = saves
    figures["todays"] = todays


def offered(app, testid):
    """「今日、乗下車しました！」 is shown (within 3 s) only for a station not completed yet;
    --replica-events' history may have completed it already, and that write is then not measured."""
    try:
        app.wait(testid, lambda: app.js("const e = document.getElementById(arguments[0]); return !!e && !e.hidden", testid), 3)
        return True
    except BenchError:
        log(f"{testid} not offered (the station is completed already): not measured")
        return False


def offline_open(args, server, d, cdp, app, figures):
    """Open with the network off: offline on the page and on the service worker, reload, time
    navigation start → the end of the first map drawing; the server's request counts must not move."""
    app.tab("map")
    loads = []
    before = wait_quiet(server, cdp, app)
    set_offline(d, cdp, True)
    d.execute_cdp_cmd("ServiceWorker.enable", {})
    for i in range(2 * args.reloads):
        # Alternately with the service worker stopped (as when the phone opens the app after a
        # while: the worker must start before it answers) and running.
        cold = i % 2 == 0
        if cold:
            d.execute_cdp_cmd("ServiceWorker.stopAllWorkers", {})
            time.sleep(0.3)
        seen = set(cdp.requests)
        d.refresh()
        app.wait_drawn("the map drawn after the offline reload")
        time.sleep(2.5)  # the start-up sync attempt, and any second drawing
        b = app.bench()
        nav = app.js("const n = performance.getEntriesByType('navigation')[0]; return {response: n.responseEnd, dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd, worker: n.workerStart}")
        mark = app.js("const m = performance.getEntriesByName('oritsubushi:map-drawn')[0]; return m ? m.startTime : null")
        reads = [t for t in b["tx"] if t["mode"] == "readonly" and t["db"] == "oritsubushi"]
        writes = [t for t in b["tx"] if t["mode"] == "readwrite" and t["db"] == "oritsubushi"]
        draws = b["draws"]
        loads.append({
            "cold": cold, "worker_start": nav["worker"],
            "drawn": mark if mark is not None else draws[0]["end"], "source": "mark" if mark is not None else "probe",
            "draw_start": draws[0]["start"], "frame": draws[0]["frame"], "response": nav["response"], "dcl": nav["dcl"],
            "idb_read": (reads[0]["start"], reads[0]["end"]) if reads else None,
            "parses": [(p["start"], p["end"], p["length"]) for p in b["parses"]],
            "draws": len(draws), "later_draws": [x["start"] for x in draws[1:]],
            "meta_puts": [(p["key"], p["size"], p["at"]) for p in b["metaPuts"]],
            "writes": len(writes),
            "status": app.text("sync-status"),
            "online": app.js("return navigator.onLine"),
            "requests": [(r["target"], r["method"], r["url"], r["status"], r["failed"], r["fromServiceWorker"])
                         for k, r in list(cdp.requests.items()) if k not in seen],
        })
        log(f"offline reload {i + 1} (service worker {'stopped' if cold else 'running'}): map drawn at {loads[-1]['drawn']:.0f} ms "
            f"after navigation start (navigation answered at {nav['response']:.0f} ms)")
    reached = server.reached_since(before)
    set_offline(d, cdp, False)
    # GET /app/** once per reload at most: the browser's own update check of sw.js, which no
    # page or worker target makes (CDP shows every app file of the page answered by the service
    # worker and no network request of the worker but the refused GET /v1/catalog); offline it
    # would fail without anyone waiting for it. Anything else reaching the server is a failure of
    # the offline emulation.
    update_checks = reached.pop("GET /app/**", 0)
    if update_checks > 2 * args.reloads:
        reached["GET /app/**"] = update_checks
    figures["loads"] = loads
    figures["offline_reached_server"] = reached
    figures["offline_update_checks"] = update_checks
    return {"reached": reached, "update_checks": update_checks}


def fold(args, d, app, catalog, figures):
    """The fold of N generated events in the page, with the app's own module (and the storage
    at the end of the run, read first)."""
    d.refresh()
    app.wait_drawn()
    figures["storage_end"] = storage_report(app)
    ids = [s["id"] for s in catalog["stations"] if s["enabled"]]
    folded = d.execute_async_script(FOLD_SCRIPT, ids, args.events)
    if "error" in folded:
        raise BenchError(f"the fold in the page failed: {folded['error']}")
    figures["fold"] = folded
    log(f"fold of {args.events} events: first {folded['times'][0]:.0f} ms, median {median(folded['times']):.0f} ms")


FOLD_SCRIPT = r"""
const [ids, count, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
(async () => {
  const t0 = performance.now();
  const { foldEvents } = await import('/app/js/completionFold.js');
  const imported = performance.now() - t0;
  // The shape of ledger.js's events (records.js LedgerEvent): station edits of 3 devices, seqs
  // from 1, hlcs of 48-bit milliseconds and a 16-bit counter; 70% set a date, 20% a memo, 10%
  // both, over every enabled station; a seeded generator, the same events every run.
  let seed = 20131109;
  const rand = () => { seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0; return seed / 4294967296; };
  const devices = ['1a2b3c4d5e6f7081', '2b3c4d5e6f708192', '3c4d5e6f708192a3'];
  const seqs = [0n, 0n, 0n];
  let ms = Date.UTC(2012, 0, 1), counter = 0;
  const g0 = performance.now();
  const events = [];
  for (let i = 0; i < count; i++) {
    const d = Math.floor(rand() * 3);
    if (rand() < 0.9) { ms += 1 + Math.floor(rand() * 3_600_000); counter = 0; } else counter++;
    seqs[d] += 1n;
    const r = rand();
    const year = 2012 + Math.floor(rand() * 14), month = 1 + Math.floor(rand() * 12), day = 1 + Math.floor(rand() * 28);
    events.push({
      kind: 'station_edit', device: devices[d], seq: seqs[d], hlc: (BigInt(ms) << 16n) | BigInt(counter),
      station: ids[Math.floor(rand() * ids.length)],
      compDate: r < 0.7 || r >= 0.9 ? year * 10000 + month * 100 + day : null,
      memo: r >= 0.7 ? `メモ ${i}` : null,
      origin: 'user',
    });
  }
  // Ledger.index folds in (device, seq) order.
  events.sort((a, b) => (a.device < b.device ? -1 : a.device > b.device ? 1 : a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0));
  const generated = performance.now() - g0;
  const times = [];
  let stations = 0;
  for (let run = 0; run < 5; run++) {
    const f0 = performance.now();
    const fold = foldEvents(events);
    times.push(performance.now() - f0);
    stations = fold.stations.size;
    await new Promise((r) => setTimeout(r, 50));
  }
  // The same events as the app keeps them, in an IndexedDB database of their own: the time to
  // open that replica as the app starts (IndexedDB read, records.js fromStored, Ledger.index with
  // the fold), as App.start does before anything is drawn.
  const { IndexedDbStore } = await import('/app/js/store.js');
  const { Ledger } = await import('/app/js/ledger.js');
  const { toStored } = await import('/app/js/records.js');
  const name = 'app-bench-replica';
  const drop = () => new Promise((resolve) => { const q = indexedDB.deleteDatabase(name); q.onsuccess = q.onerror = q.onblocked = () => resolve(); });
  await drop();
  let store = await IndexedDbStore.open(indexedDB, name);
  const lastHlc = events.reduce((m, e) => (e.hlc > m ? e.hlc : m), 0n);
  const w0 = performance.now();
  await store.commit({ identity: { device: devices[0], name: 'app-bench', nextSeq: String(seqs[0] + 1n), lastHlc: String(lastHlc), markOwed: false },
                       put: events.map(toStored) });
  const written = performance.now() - w0;
  store.db.close();
  const o0 = performance.now();
  store = await IndexedDbStore.open(indexedDB, name);
  const snapshot = await store.load();
  const loaded = performance.now() - o0;
  const ledger = await Ledger.open({ load: async () => snapshot, commit: (c) => store.commit(c) },
                                   { now: Date.now(), newDevice: () => 'ffffffffffffffff', deviceName: 'app-bench' });
  const opened = performance.now() - o0;
  const openedStations = ledger.fold.stations.size;
  store.db.close();
  await drop();
  return { imported, generated, times, stations, events: events.length, written, loaded, opened, openedStations };
})().then(done, (e) => done({ error: String(e && e.stack || e) }));
"""
