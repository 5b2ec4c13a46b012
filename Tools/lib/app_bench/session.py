"""The session: the server with a user and a CLI replica, the phone-sized headless Chromium with
its CDP connection and the page's probe, and the measurements in their order."""

import json
import os
import urllib.request

from . import first_table
from .app import PAGE_PROBE, App, emulate_phone
from .browser import Browser
from .common import BenchError, loadavg, log
from .deps import Service, webdriver
from .map_rows import measure_map
from .report import finish
from .screenshots import screenshots
from .server import AppFolder, fetch_catalog


def run(args, work, server):
    args.load_start = loadavg()
    # The server, a user, a CLI replica with completions (so the map shows red), then pairing.
    out = server.run("server", "add-user", "alice", "--data", server.data)
    token = out.strip().splitlines()[-1].strip()
    server.start()
    log(f"serve listening on {server.url} (files store {server.data})")
    app_url = server.url
    if args.app_dir:
        if not os.path.isfile(os.path.join(args.app_dir, "sw.js")):
            raise BenchError(f"--app-dir {args.app_dir} holds no sw.js: not the app's folder")
        server.folder = AppFolder(args.app_dir, server.url)
        app_url = server.folder.url
        log(f"the app's files from {os.path.abspath(args.app_dir)} at {app_url}, not the binary's (--app-dir: a development aid)")
    catalog = fetch_catalog(server.url, token)
    stations = catalog["stations"]
    by_name = lambda name, operator_part: next(s for s in stations if s["enabled"] and s["name"] == name and operator_part in operator_name(catalog, s["operator"]))
    odawara = next(s for s in stations if s["name"].startswith("小田原") and s["enabled"])
    odawara_jrc = by_name("小田原駅", "東海旅客鉄道")
    odawara_jre = by_name("小田原駅", "東日本旅客鉄道")
    midoricho = by_name("緑町駅", "伊豆箱根")
    yumoto = by_name("箱根湯本駅", "箱根登山")
    tokyo = by_name("東京駅", "東日本旅客鉄道")
    shinkansen = next(l for l in catalog["lines"] if l["name"] == "東海道新幹線")

    ledger = os.path.join(work, "cli.ledger")
    server.run("init", "--ledger", ledger, "--device", "cli-bench")
    server.run("complete", "小田原", "2013-09-01", "--operator", "JR東海", "--memo", "新幹線から箱根へ", "--ledger", ledger)
    batch = os.path.join(work, "shinkansen.tsv")
    with open(batch, "w") as f:
        f.writelines(f"{sid}\t2015-03\n" for sid in shinkansen["stations"] if sid != odawara_jrc["id"])
    server.run("complete", "--batch", batch, "--ledger", ledger)
    server.run("sync", "--server", server.url, "--token", token, "--ledger", ledger)
    log(f"CLI replica: 小田原 (JR東海) with a memo and the rest of 東海道新幹線 ({len(shinkansen['stations']) - 1} stations), synced")
    if args.replica_events:
        other_devices(server, work, token, args.replica_events)
    pair_out = server.run("server", "pair", "alice", "--data", server.data, "--url", app_url).strip().splitlines()
    pair_url = pair_out[-1].strip()
    if "#pair=" not in pair_url:
        raise BenchError(f"`server pair` printed no URL: {pair_out}")

    # The browser: a phone-sized headless Chromium with a profile of its own.
    profile = os.path.join(work, "profile")
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--window-size=390,844", f"--user-data-dir={profile}",
              "--lang=ja", "--no-first-run", "--no-default-browser-check", "--disable-dev-shm-usage"]:
        options.add_argument(a)
    options.add_experimental_option("prefs", {"intl.accept_languages": "ja"})
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    cdp = None
    try:
        driver.set_script_timeout(300)
        ws_url = driver.capabilities.get("se:cdp")
        if not ws_url:
            address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
            with urllib.request.urlopen(f"http://{address}/json/version", timeout=10) as response:
                ws_url = json.loads(response.read())["webSocketDebuggerUrl"]
        cdp = Browser(ws_url)
        # --window-size=390,844 alone gives a 500×701 viewport in headless Chromium 156: the
        # phone's viewport is emulated (mobile: the viewport meta applies, scrollbars overlay).
        emulate_phone(driver, 1)
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PAGE_PROBE})
        app = App(driver)
        return measure(args, server, app_url, catalog, pair_url, driver, cdp, app,
                       dict(odawara=odawara, odawara_jrc=odawara_jrc, odawara_jre=odawara_jre,
                            midoricho=midoricho, yumoto=yumoto, tokyo=tokyo))
    finally:
        if cdp:
            cdp.close()
        try:
            driver.quit()
        except Exception:
            pass


def other_devices(server, work, token, events):
    """--replica-events: a history of other devices on the server before the phone pairs, so the
    app's first sync pulls it and every later open (rows 1 and 5) opens a replica that large."""
    history = os.path.join(work, "history.ledger")
    server.run("generate", "--events", str(events), "--seed", "1", "--ledger", history)
    server.run("sync", "--server", server.url, "--token", token, "--ledger", history)
    log(f"{events:,} generated events of 3 other devices (`generate --seed 1`) synced to the server")


def operator_name(catalog, operator_id):
    for o in catalog["operators"]:
        if o["id"] == operator_id:
            return o["name"]
    return ""


def measure(args, server, origin, catalog, pair_url, d, cdp, app, st):
    figures = {}
    # 4. First visit with pairing; its bytes.
    notes = first_table.first_visit(d, cdp, app, origin, pair_url, figures)
    # 2. Edits through the app: clicks to IndexedDB commits.
    first_table.edits(args, d, app, origin, st, figures)
    # 1. Open with the network off.
    notes.update(first_table.offline_open(args, server, d, cdp, app, figures))
    # 5–7. The map: first paint offline at 1× and 4× CPU throttling, pans at 4×, the base map's bytes.
    figures["map"] = measure_map(args, server, origin, d, cdp, app, st)
    # 3. The fold of N generated events in the page, with the app's own module.
    first_table.fold(args, d, app, catalog, figures)
    # Screenshots of every screen.
    shots = []
    if args.screenshots:
        shots = screenshots(args, d, app, st)
    return finish(args, figures, notes, shots, d, app)
