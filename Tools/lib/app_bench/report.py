"""The report: the first table (rows 1–4) and the map's (rows 5–7) in Markdown on stdout, the load
average, and with --json every figure in a file."""

import json
import os
import re

from .common import EXIT_MISSED, fmt_bytes, fmt_ms, loadavg, log, median, ok, p95, table
from .map_rows import MARKS, PAN_MOVES, PAN_SECONDS, THROTTLE


def finish(args, figures, notes, shots, d, app):
    """Prints both tables, writes --json, and returns the exit code (1 when a target was missed)."""
    text = render(figures, notes, d, app)
    figures["load"] = {"start": args.load_start, "end": loadavg()}
    text += "\n\n" + render_map(figures["map"], figures["met"])
    text += (f"\n\nLoad average (1, 5, 15 min) at the start {figures['load']['start']}, at the end {figures['load']['end']}; "
             f"{os.cpu_count()} cores. The app's replica: "
             + (f"{args.replica_events:,} generated events of 3 other devices (--replica-events) and " if args.replica_events else "")
             + "the CLI's and the bench's few dozen events. The app's files: " + (f"from {os.path.abspath(args.app_dir)} (--app-dir, a development aid)" if args.app_dir
                                                            else "the binary's own"))
    print(text)
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({**figures, "first_requests": notes["first_requests"]}, f, indent=1, default=str)
    if shots:
        log("screenshots: " + ", ".join(shots))
    met = figures["met"]
    return 0 if all(met.values()) else EXIT_MISSED


def render(figures, notes, d, app):
    """The first table; sets figures["met"] for rows 1–3."""
    bytes_report, storage_first, storage_end = figures["bytes"], figures["storage_first"], figures["storage_end"]
    loads, saves, todays, fold = figures["loads"], figures["saves"], figures["todays"], figures["fold"]
    reached, update_checks = notes["reached"], notes["update_checks"]
    catalog_seconds, uncompressed = notes["catalog_seconds"], notes["uncompressed"]
    viewport = app.js("return [innerWidth, innerHeight, devicePixelRatio]")
    version = d.capabilities.get("browserVersion", "?")
    cold_loads = [x for x in loads if x["cold"]] or loads
    warm_loads = [x for x in loads if not x["cold"]]
    drawn = [x["drawn"] for x in cold_loads]
    warm = [x["drawn"] for x in warm_loads]
    open_med = median(drawn)
    commits = [s["commit"] for s in saves]
    answers = [s["answer"] for s in saves]
    today_commits = [t[1]["commit"] for t in todays]
    fold_first, fold_med = fold["times"][0], median(fold["times"])
    met = {
        # Requests that reached the server while "offline" come from a service worker restarted
        # after CDP took the targets offline (emulation is per target); a phone with no network
        # has none. They are reported, not counted against the figure.
        "open": open_med <= 1000,
        "edit": max(commits + today_commits) <= 50,
        "fold": fold_first <= 1000,
    }
    figures["met"] = met

    # What the offline open spends its time on (the median reload with the worker stopped).
    mid = sorted(cold_loads, key=lambda x: x["drawn"])[len(cold_loads) // 2]
    # The bundle's files under /app/bundle/ (the modules under /app/js/ before it).
    modules = len({r[2] for r in mid["requests"] if re.search(r"/app/(js|bundle)/.*\.js$", r[2])})
    parse = mid["parses"][0] if mid["parses"] else None
    idb = mid["idb_read"]
    phases = [f"the service worker started and answered the navigation at {mid['response']:.0f} ms",
              f"the page's {modules} modules, each through the worker's cache, ran by DOMContentLoaded at {mid['dcl']:.0f} ms"]
    if idb and parse:
        phases.append(f"IndexedDB read (identity, records, settings with the catalogue's 1.9 M-character text) {idb[0]:.0f}–{parse[0]:.0f} ms")
        phases.append(f"the catalogue's JSON.parse {parse[0]:.0f}–{parse[1]:.0f} ms")
        phases.append(f"Catalog, map scene and pin index built, then the animation frame: {parse[1]:.0f}–{mid['draw_start']:.0f} ms")
    phases.append(f"drawMap {mid['draw_start']:.0f}–{mid['drawn']:.0f} ms, on screen by the next animation frame at {mid['frame']:.0f} ms")
    later = ""
    if mid["later_draws"]:
        puts = ", ".join(f"{k} ({fmt_bytes(sz)})" for k, sz, _ in mid["meta_puts"])
        later = (f". After that the app writes {puts or 'nothing'} to IndexedDB and draws the map "
                 f"{len(mid['later_draws'])} more time(s) (the start-up sync's status and the persist banner's resize), the last at "
                 f"{mid['later_draws'][-1]:.0f} ms")

    b = bytes_report
    precached = max((v["entries"] for name, v in storage_first["caches"].items() if name.startswith("oritsubushi-app-")), default=0)
    rows = []
    rows.append(("1", "open to a usable map, network off: reload, navigation start → end of the first full map drawing on `map-canvas`",
                 "≤ 1 s",
                 f"{fmt_ms(open_med)} (median of {len(drawn)} reloads with the service worker stopped first, {fmt_ms(min(drawn))}–{fmt_ms(max(drawn))}; "
                 f"with it running: {fmt_ms(median(warm))}, {fmt_ms(min(warm))}–{fmt_ms(max(warm))})" if warm else f"{fmt_ms(open_med)}",
                 ok(met["open"]),
                 "; ".join(phases) + later + (f". Requests that reached the server during the offline reloads: {reached}" if reached else
                    f". The server saw no API request during the offline reloads, only {update_checks} GET /app/** (its GET /metrics): the browser's own update checks of sw.js")))
    rows.append(("2a", f"edit durable in IndexedDB: click on 保存 (`station-save`) → the write's transaction `complete` ({len(saves)} edits)",
                 "≤ 50 ms",
                 f"median {fmt_ms(median(commits))}, max {fmt_ms(max(commits))}; 「保存しました。」 shown after median {fmt_ms(median(answers))}, max {fmt_ms(max(answers))}",
                 ok(max(commits) <= 50),
                 f"one readwrite transaction over identity, records and meta (median {fmt_ms(median([s['tx_own'] for s in saves]))} from its creation to `complete`); "
                 f"the answer waits for a second transaction (app.js `edit` stores `lastDate` after every save that carries a date: {max(s['transactions'] for s in saves)} transactions before the answer)"))
    rows.append(("2b", "edit durable: 「今日、乗下車しました！」 (`station-today`, `today-button`) → transaction `complete`",
                 "≤ 50 ms",
                 ", ".join(f"{tid} {fmt_ms(r['commit'])} (answer {fmt_ms(r['answer'])})" for tid, r in todays)
                 or "not measured: the stations were completed already (--replica-events)",
                 ok(max(today_commits, default=0) <= 50),
                 "as 2a"))
    rows.append(("3", f"fold of {fold['events']:,} events with /app/js/completionFold.js (`foldEvents`, in the page)",
                 "≤ 1 s",
                 f"first run {fmt_ms(fold_first)}, median of 5 {fmt_ms(fold_med)} ({fold['stations']:,} stations folded; generating the events took {fmt_ms(fold['generated'])})",
                 ok(met["fold"]),
                 "one Map lookup and one OrderKey object per event (BigInt → Number splits of the hlc); the first run includes the JIT's warm-up"))
    rows.append(("3b", f"open a replica of those {fold['events']:,} events from IndexedDB (`IndexedDbStore.open`, `Ledger.open`: read, `fromStored`, index, fold)",
                 "—",
                 f"{fmt_ms(fold['opened'])} ({fold['openedStations']:,} stations folded; writing them in one transaction took {fmt_ms(fold['written'])})",
                 "",
                 f"what App.start does before the first drawing, for a user with that many events: IndexedDB open and `getAll` of every record {fmt_ms(fold['loaded'])}; "
                 f"then `fromStored` (two BigInt parses a record), the sort by (device, seq), indexing and the fold {fmt_ms(fold['opened'] - fold['loaded'])}"))
    rows.append(("4a", "bytes transferred on the first visit (gzip, on the wire with headers; pairing, catalogue, first sync)",
                 "—",
                 f"{fmt_bytes(b['total'][0])} in {b['total'][2]} responses ({fmt_bytes(b['total'][1])} decoded)",
                 "",
                 f"the catalogue {fmt_bytes(b['catalog'][0])} ({fmt_bytes(b['catalog'][1])} decoded"
                 + (f", {catalog_seconds:.2f} s to download" if catalog_seconds else "") + "); "
                 f"app files loaded by the page {fmt_bytes(b['page_app'][0])} ({b['page_app'][2]} responses) and again by the service worker's precache {fmt_bytes(b['sw_app'][0])} ({b['sw_app'][2]}, `cache: 'reload'`"
                 + (f"; only {b['sw_app'][2]} of its {precached} files were seen, so the total is short" if b['sw_app'][2] < precached else "") + "); "
                 f"pair and sync API {fmt_bytes(b['api'][0])} ({b['api'][2]})"
                 + (f"; sent without compression: {', '.join(uncompressed)}" if uncompressed else "")))
    details = storage_end.get("details") or {}
    cache_parts = "; ".join(f"`{name}` {v['entries']} entries, {fmt_bytes(v['bytes'])} of bodies" for name, v in storage_end["caches"].items())
    rows.append(("4b", "bytes stored on the device (`navigator.storage.estimate()`)",
                 "—",
                 f"{fmt_bytes(storage_end['usage'])} after the run (after the first visit: {fmt_bytes(storage_first['usage'])})",
                 "",
                 f"Cache Storage {fmt_bytes(details.get('caches', 0))}, IndexedDB {fmt_bytes(details.get('indexedDB', 0))}, service worker registration {fmt_bytes(details.get('serviceWorkerRegistrations', 0))} (Chrome's `usageDetails`); "
                 f"{cache_parts}; IndexedDB holds {storage_end['records']} records and the catalogue again as text ({storage_end['catalogChars'] / 1e6:.2f} M chars; Chrome compresses it on disk)"))

    lines = [
        f"Chromium {version} (`--headless=new`), viewport {viewport[0]}×{viewport[1]} at device pixel ratio {viewport[2]}; "
        f"{os.cpu_count()} cores; `oritsubushi server serve` (files store) on loopback; first visit with pairing took {notes['first_visit_s']:.1f} s.",
        "",
    ] + table(rows)
    if notes["persist_banner"]:
        lines += ["", f"The app showed its banner: 「{notes['persist_banner']}」 (`navigator.storage.persist()` refused; persisted = {storage_end.get('persisted')})."]
    return "\n".join(lines)


def render_map(m, met):
    """The map's table; sets met["paint"] for row 5."""
    fmt_range = lambda xs: f"{fmt_ms(median(xs))} ({fmt_ms(min(xs))}–{fmt_ms(max(xs))})"
    paint = {rate: ([r["marks"][0] for r in m[f"paint{rate}"]], [r["marks"][1] for r in m[f"paint{rate}"]]) for rate in (1, THROTTLE)}
    shown = {rate: [r["shown"][1] for r in m[f"paint{rate}"] if r["shown"][1] is not None] for rate in (1, THROTTLE)}
    met["paint"] = median(paint[THROTTLE][1]) <= 1000
    runs = m[f"paint{THROTTLE}"]
    mid = sorted(runs, key=lambda r: r["marks"][1])[len(runs) // 2]
    phases = [f"navigation answered at {mid['response']:.0f} ms", f"DOMContentLoaded at {mid['dcl']:.0f} ms"]
    if mid["idb"]:
        phases.append(f"IndexedDB read {mid['idb'][0]:.0f}–{mid['idb'][1]:.0f} ms")
    if mid["parse"]:
        phases.append(f"the catalogue's JSON.parse {mid['parse'][0]:.0f}–{mid['parse'][1]:.0f} ms")
    if mid["base"]:
        phases.append(f"geo/japan.json fetched {mid['base'][0]:.0f}–{mid['base'][1]:.0f} ms")
    phases += [f"map frame {i + 1} drawn {a:.0f}–{b:.0f} ms" for i, (a, b) in enumerate(mid["draws"][:3])]
    rows = [("5", f"first paint offline: navigation start → `{MARKS[0]}` (first frame) and → `{MARKS[1]}` (first frame over the base map); "
                  f"median of {len(runs)} reloads, the first dropped",
             f"over the base map ≤ 1 s at {THROTTLE}×",
             f"{THROTTLE}× throttled: first frame {fmt_range(paint[THROTTLE][0])}, over the base map {fmt_range(paint[THROTTLE][1])}"
             + (f" (on screen by the next animation frame: {fmt_range(shown[THROTTLE])})" if shown[THROTTLE] else "")
             + f"; unthrottled: {fmt_range(paint[1][0])}, {fmt_range(paint[1][1])}"
             + (f" (next frame {fmt_range(shown[1])})" if shown[1] else "")
             + f"; load average at the start and end of the 1× reloads {' / '.join(m['load1'])}, of the {THROTTLE}× {' / '.join(m[f'load{THROTTLE}'])}",
             ok(met["paint"]),
             f"the median {THROTTLE}× reload: " + "; ".join(phases))]
    opened = {rate: [r["marks"][1] - r["open"] for r in m[f"paint{rate}"] if r.get("open") is not None] for rate in (1, THROTTLE)}
    if opened[1]:
        met["replica"] = median(opened[1]) <= 150
        rows.append(("5b", f"open the replica to a usable map, offline: `oritsubushi:replica-open` (the app starts opening its stored replica, "
                           f"its scripts having run) → `{MARKS[1]}`; the same reloads",
                     "≤ 150 ms",
                     f"unthrottled: {fmt_range(opened[1])}; {THROTTLE}× throttled: {fmt_range(opened[THROTTLE])}",
                     ok(met["replica"]),
                     f"the kept scene geometry and pin index used in {sum(all(r.get('kept') or [False]) for r in m['paint1'])} of the {len(m['paint1'])} unthrottled reloads; "
                     "IndexedDB's open and read (the replica's identity, settings, catalogue text and completions snapshot; the chunks are read after), "
                     "the catalogue's JSON.parse and Catalog, the scene from its kept geometry, the pin index and landmarks, the animation frame, the drawing"))
    for view, label in (("japan", "all Japan (as the map opens)"), ("tokyo", "Tokyo (東京 centred by 「この駅を地図の中心に表示」)")):
        drags = m[f"pan_{view}"]
        draws = [x for g in drags for x in g["draws"]]
        intervals = [x for g in drags for x in g["intervals"]]
        rows.append(("6" + ("a" if view == "japan" else "b"), f"a pan at {THROTTLE}×, {label}: {len(drags)} drags of {PAN_MOVES} mouse moves over {PAN_SECONDS:.0f} s",
                     "— (reported)",
                     f"frame interval median {fmt_ms(median(intervals))}, p95 {fmt_ms(p95(intervals))} ({len(intervals)} intervals); "
                     f"the app's drawing (its animation-frame callback) median {fmt_ms(median(draws))}, p95 {fmt_ms(p95(draws))} ({len(draws)} frames)",
                     "",
                     f"zoom level {drags[0]['zoom']}; {len(draws)} frames drew the map while {2 * PAN_MOVES} moves were sent "
                     f"(the browser gives a frame the moves that came since the last)"))
    base = m["base"]
    js, lic = base["geo/japan.json"], base["geo/LICENSE.txt"]
    rows.append(("7", "the base map's bytes as served (`/app/geo/japan.json`, gzip as the server sends it)", "—",
                  f"{js['raw']:,} B raw, {js['gzip']:,} B gzip", "",
                  f"points per level: " + ", ".join(f"{n:,} ({t:,} m)" for t, n in base["levels"]) +
                  f"; with geo/LICENSE.txt {lic['raw']:,} B raw, {lic['gzip']:,} B gzip"))
    lines = [f"The map (rows 5–7): offline, device pixel ratio {m['dpr']} (canvas {runs[0]['canvas'][0]}×{runs[0]['canvas'][1]} pixels), "
             f"no location allowed (the map opens on all Japan), `Emulation.setCPUThrottlingRate` on the page "
             f"(the service worker is not throttled); the service worker running.",
             ""] + table(rows)
    if m["reached"]:
        # As in row 1: a service worker the browser stopped while idle and started again is a new
        # target, taken offline only once CDP has attached to it; a phone with no network has none.
        lines += ["", f"Requests that reached the server during the offline map measurements: {m['reached']} "
                      "(a service worker restarted after CDP took the targets offline: the emulation is per target)"]
    return "\n".join(lines)
