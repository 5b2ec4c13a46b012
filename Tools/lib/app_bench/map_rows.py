"""Rows 5–7, the second table: the map offline at a phone's device pixel ratio, its first paint
unthrottled and at 4× CPU throttling, a pan's frames at 4× over all Japan and over Tokyo, and the
base map's bytes as the server sends them; --cpu-profile's profiles."""

import gzip
import json
import os
import time
import urllib.request

from .app import cdp_page_grant, emulate_phone, set_offline, wait_quiet
from .common import BenchError, loadavg, log

MAP_DPR = 2  # a phone's screen: the base map's raster work grows with the canvas's pixels
PAN_MOVES = 60
PAN_SECONDS = 1.0
THROTTLE = 4
MARKS = ("oritsubushi:map-drawn", "oritsubushi:map-drawn-with-base")


def measure_map(args, server, origin, d, cdp, app, st):
    """Rows 5–7, offline, at MAP_DPR, with no location allowed (the map opens on all Japan)."""
    out = {"base": base_map_bytes(origin), "dpr": MAP_DPR}
    emulate_phone(d, MAP_DPR)
    d.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "prompt", "origin": origin})
    app.tab("map")
    # The network came back after row 1: the app's sync on `online` finishes first.
    before = wait_quiet(server, cdp, app)
    set_offline(d, cdp, True)
    try:
        for rate in (1, THROTTLE):
            load = loadavg()
            out[f"paint{rate}"] = first_paints(args, d, app, rate)
            out[f"load{rate}"] = (load, loadavg())  # the machine may be shared
        if args.cpu_profile:
            os.makedirs(args.cpu_profile, exist_ok=True)
            out["profiles"] = [profile_first_paint(args, d, app)]
        # All Japan: the view the map opened on; Tokyo: 東京 (JR東日本) 「この駅を地図の中心に表示」.
        out["pan_japan"] = pans(args, d, cdp, app, "japan")
        throttle(d, 1)
        app.open_station(st["tokyo"]["id"], "とうきょう")
        app.show_on_map()
        out["pan_tokyo"] = pans(args, d, cdp, app, "tokyo")
    finally:
        throttle(d, 1)
        reached = server.reached_since(before)
        set_offline(d, cdp, False)
        emulate_phone(d, 1)
        cdp_page_grant(d, origin, st["odawara"])
    # The browser's own update checks of sw.js, as in row 1; anything else is reported.
    reached.pop("GET /app/**", None)
    out["reached"] = reached
    return out


PAINT_READ = r"""
const B = window.__bench;
const n = performance.getEntriesByType('navigation')[0];
const base = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/geo/japan.json'));
const reads = B.tx.filter((t) => t.mode === 'readonly' && t.db === 'oritsubushi');
const c = document.getElementById('map-canvas');
return {
  marks: arguments[0].map((name) => performance.getEntriesByName(name)[0]?.startTime ?? null),
  open: performance.getEntriesByName('oritsubushi:replica-open')[0]?.startTime ?? null,
  kept: ['oritsubushi:scene-kept', 'oritsubushi:pins-kept'].map((name) => performance.getEntriesByName(name).length > 0),
  // The animation frame after the drawing that set each mark: its pixels were rasterised and
  // committed by then (a canvas may be rasterised after the callback that drew it returns).
  shown: arguments[0].map((name) => {
    const at = performance.getEntriesByName(name)[0]?.startTime;
    const draw = at === undefined ? null : B.draws.find((x) => x.start <= at && x.end !== null && at <= x.end);
    return draw?.frame ?? null;
  }),
  response: n.responseEnd, dcl: n.domContentLoadedEventEnd,
  idb: reads.length ? [reads[0].start, reads[0].end] : null,
  parse: B.parses.length ? [B.parses[0].start, B.parses[0].end] : null,
  base: base ? [base.startTime, base.responseEnd] : null,
  draws: B.draws.map((x) => [x.start, x.end]),
  canvas: [c.width, c.height], zoom: c.dataset.zoom ?? null,
};
"""


def first_paints(args, d, app, rate):
    """Navigation start → the app's two marks, over args.reloads + 1 reloads, the first dropped."""
    throttle(d, rate)
    runs = []
    for i in range(args.reloads + 1):
        d.refresh()
        wait_base_drawn(app, f"the map drawn over its base map ({rate}× throttled)", 30 * rate)
        app.wait("the frame after it", lambda: app.js("return window.__bench.draws.every((x) => x.frame !== null)"), 10 * rate)
        time.sleep(1.5)  # the start-up sync attempt and any later drawing, before the next reload
        run = app.js(PAINT_READ, list(MARKS))
        log(f"first paint at {rate}×, reload {i + 1}{' (dropped)' if i == 0 else ''}: map drawn at {run['marks'][0]:.0f} ms, "
            f"over its base map at {run['marks'][1]:.0f} ms")
        if i > 0:
            runs.append(run)
    return runs


def profile_first_paint(args, d, app):
    """--cpu-profile: one more 4× reload under the sampling profiler (not counted)."""
    throttle(d, THROTTLE)
    start_profile(d)
    d.refresh()
    wait_base_drawn(app, "the map drawn over its base map (profiled)", 30 * THROTTLE)
    return save_profile(args, d, f"first-paint-{THROTTLE}x")


def throttle(d, rate):
    """CPU throttling of the page (Emulation.setCPUThrottlingRate; the service worker is not throttled)."""
    d.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": rate})


def wait_base_drawn(app, what, timeout):
    """The app's mark of its first frame over the base map."""
    app.wait(what, lambda: app.js("return performance.getEntriesByName(arguments[0]).length > 0", MARKS[1]), timeout)


def start_profile(d):
    """The sampling profiler on the page, every 200 µs."""
    d.execute_cdp_cmd("Profiler.enable", {})
    d.execute_cdp_cmd("Profiler.setSamplingInterval", {"interval": 200})
    d.execute_cdp_cmd("Profiler.start", {})


def save_profile(args, d, name):
    profile = d.execute_cdp_cmd("Profiler.stop", {})["profile"]
    d.execute_cdp_cmd("Profiler.disable", {})
    path = os.path.join(args.cpu_profile, name + ".cpuprofile")
    with open(path, "w") as f:
        json.dump(profile, f)
    top = profile_top(profile)
    log(f"{path}: " + "; ".join(f"{fn} {ms:.0f} ms" for fn, ms in top[:12]))
    return {"name": name, "path": path, "top": top[:25]}


def profile_top(profile):
    """Self time by function (name, file:line), largest first."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    self_us = {}
    for node_id, delta in zip(profile.get("samples", []), profile.get("timeDeltas", [])):
        frame = nodes[node_id]["callFrame"]
        where = frame["url"].rsplit("/", 1)[-1]
        key = f"{frame['functionName'] or '(anonymous)'} {where}:{frame['lineNumber'] + 1}" if where else frame["functionName"] or "(anonymous)"
        self_us[key] = self_us.get(key, 0) + delta
    return sorted(((k, v / 1000) for k, v in self_us.items()), key=lambda kv: -kv[1])


def pans(args, d, cdp, app, view):
    """Two drags at THROTTLE× (out and back), PAN_MOVES mouse moves over PAN_SECONDS each, sent
    without waiting for the page (as a finger moves whether or not the page keeps up): each
    animation frame's interval and each requestAnimationFrame callback that drew the map."""
    session = cdp.page_session(d.current_window_handle)
    throttle(d, THROTTLE)
    time.sleep(1.5)
    left, top, width, height = app.js("const r = document.getElementById('map-canvas').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
    x0, y0 = left + width / 2, top + height * 0.55
    state = lambda: app.js("const c = document.getElementById('map-canvas'); return [c.dataset.centerLat, c.dataset.centerLng, c.dataset.zoom]")
    drags = []
    for k, sign in enumerate((1, -1)):
        if args.cpu_profile and k == 0:
            start_profile(d)
        start_state = state()
        # Each drag starts where the last ended, so the second one brings the map back.
        sx, sy = (x0 - 1.5 * PAN_MOVES, y0 - PAN_MOVES) if sign < 0 else (x0, y0)
        app.js("window.__bench.record(true)")
        mouse = lambda kind, x, y, buttons: cdp.send("Input.dispatchMouseEvent", {
            "type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1, "pointerType": "mouse"}, session)
        boxes = [mouse("mousePressed", sx, sy, 1)]
        t0 = time.perf_counter()
        for i in range(1, PAN_MOVES + 1):
            delay = t0 + i * PAN_SECONDS / PAN_MOVES - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            boxes.append(mouse("mouseMoved", sx - sign * 1.5 * i, sy - sign * i, 1))
        boxes.append(mouse("mouseReleased", sx - sign * 1.5 * PAN_MOVES, sy - sign * PAN_MOVES, 0))
        sent = time.perf_counter() - t0
        for box in boxes:
            if not box["event"].wait(60):
                raise BenchError("the browser did not take the pan's mouse events within 60 s")
        time.sleep(1.0)
        record = app.js("return window.__bench.record(false)")
        if args.cpu_profile and k == 0:
            save_profile(args, d, f"pan-{view}-{THROTTLE}x")
        end_state = state()
        if end_state[:2] == start_state[:2]:
            raise BenchError(f"the drag did not move the map ({view}: centre {start_state})")
        drawn = [f for f in record["frames"] if f["drew"]]
        if not drawn:
            raise BenchError(f"no frame drew the map during the drag ({view})")
        first, last = drawn[0]["ts"], drawn[-1]["ts"]
        ticks = sorted(set(t for t in record["ticks"] if first <= t <= last))
        drags.append({"draws": [f["end"] - f["start"] for f in drawn], "intervals": [b - a for a, b in zip(ticks, ticks[1:])],
                      "span": last - first, "sent": sent, "zoom": end_state[2], "centre": end_state[:2]})
        log(f"pan ({view}) {k + 1}: {len(drawn)} frames drew the map over {last - first:.0f} ms "
            f"(moves sent over {sent:.2f} s), zoom {end_state[2]}")
    throttle(d, 1)
    return drags


def base_map_bytes(origin):
    """The base map's files as served: raw and gzip bytes, and the points of each level."""
    out = {}
    for name in ("geo/japan.json", "geo/LICENSE.txt"):
        request = urllib.request.Request(f"{origin}/app/{name}", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
            encoding = response.headers.get("Content-Encoding", "")
        raw = gzip.decompress(body) if encoding == "gzip" else body
        out[name] = {"raw": len(raw), "gzip": len(body) if encoding == "gzip" else None}
        if name.endswith(".json"):
            doc = json.loads(raw)
            out["levels"] = [(level["tolerance"], sum(len(r) // 2 for r in level["land"] + level["lakes"])) for level in doc["levels"]]
    return out
