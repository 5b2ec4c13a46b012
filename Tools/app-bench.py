#!/usr/bin/env python3
"""The phone app's benchmark in headless Chromium; run it through Tools/app-bench (which makes
the virtual environment and says what is measured, how, and the exit codes)."""

import argparse
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

EXIT_MISSED, EXIT_USAGE, EXIT_MISSING, EXIT_FAILED = 1, 64, 69, 70

try:
    import websocket  # websocket-client
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
except ImportError as error:  # the wrapper installs them
    print(f"app-bench: {error}; run Tools/app-bench, which installs selenium and websocket-client", file=sys.stderr)
    sys.exit(EXIT_MISSING)


class BenchError(Exception):
    """The run could not go on; one sentence."""


def log(message):
    print(f"app-bench: {message}", file=sys.stderr, flush=True)


# MARK: - What the page records (Page.addScriptToEvaluateOnNewDocument, before any app script)
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


# MARK: - A Chrome DevTools Protocol connection to the whole browser
#
# chromedriver's own CDP commands reach the page only; the service worker's requests (the
# precache, the catalogue) and its network conditions need its own target. This attaches to
# every target (flatten), enables Network on pages and workers, and keeps every request's
# encoded (on the wire, with headers) and decoded byte counts.

class Browser:
    def __init__(self, ws_url):
        self.ws = websocket.create_connection(ws_url, suppress_origin=True, timeout=None)
        self.lock = threading.Lock()
        self.next_id = 0
        self.pending = {}
        self.sessions = {}  # sessionId -> target type
        self.targets_seen = {}  # targetId -> the first session attached to it
        self.requests = {}  # (sessionId, requestId) -> dict
        self.offline = False
        self.closed = False
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()
        self.call("Target.setDiscoverTargets", {"discover": True})
        # Not waitForDebuggerOnStart: a service worker created while paused for this connection
        # waits again whenever it restarts (ServiceWorker.stopAllWorkers), and the page's next
        # navigation hangs. Network.enable is sent as soon as a worker is attached, long before
        # its install handler fetches anything; the table says if the precache count falls short.
        self.call("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True})

    def send(self, method, params=None, session=None):
        with self.lock:
            self.next_id += 1
            ident = self.next_id
            box = {"event": threading.Event(), "answer": None}
            self.pending[ident] = box
            message = {"id": ident, "method": method, "params": params or {}}
            if session:
                message["sessionId"] = session
            self.ws.send(json.dumps(message))
        return box

    def call(self, method, params=None, session=None, timeout=30):
        box = self.send(method, params, session)
        if not box["event"].wait(timeout):
            raise BenchError(f"the browser did not answer {method} within {timeout} s")
        answer = box["answer"]
        if "error" in answer:
            raise BenchError(f"{method}: {answer['error'].get('message')}")
        return answer.get("result", {})

    def read(self):
        while True:
            try:
                message = json.loads(self.ws.recv())
            except Exception:  # closed
                self.closed = True
                for box in list(self.pending.values()):
                    box["answer"] = {"error": {"message": "connection closed"}}
                    box["event"].set()
                return
            if "id" in message:
                box = self.pending.pop(message["id"], None)
                if box:
                    box["answer"] = message
                    box["event"].set()
                continue
            try:
                self.on_event(message.get("method"), message.get("params", {}), message.get("sessionId"))
            except Exception as error:  # never let the reader die
                log(f"CDP event {message.get('method')}: {error}")

    def network_conditions(self, offline):
        return {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}

    def on_event(self, method, params, session):
        if method == "Target.attachedToTarget":
            child = params["sessionId"]
            kind = params["targetInfo"]["type"]
            target = params["targetInfo"]["targetId"]
            if target in self.targets_seen and self.targets_seen[target] in self.sessions:
                # Attached again through another parent (the browser and a page both auto-attach
                # to a service worker): one session per target, or every request counts twice.
                self.send("Runtime.runIfWaitingForDebugger", {}, child)
                return
            self.targets_seen[target] = child
            self.sessions[child] = kind
            # Sent without waiting (this is the reader thread); a session runs its commands in order.
            if kind in ("tab", "page"):
                self.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True}, child)
            if kind in ("page", "iframe", "service_worker", "worker", "shared_worker"):
                self.send("Network.enable", {}, child)
                if self.offline:
                    self.send("Network.emulateNetworkConditions", self.network_conditions(True), child)
            self.send("Runtime.runIfWaitingForDebugger", {}, child)
        elif method == "Target.detachedFromTarget":
            self.sessions.pop(params.get("sessionId"), None)

        elif method == "Network.requestWillBeSent":
            key = (session, params["requestId"])
            # A redirect reuses the request id: keep the first.
            self.requests.setdefault(key, {
                "target": self.sessions.get(session, "?"), "url": params["request"]["url"],
                "method": params["request"]["method"], "start": params.get("timestamp"), "encoded": 0, "decoded": 0,
                "status": None, "fromServiceWorker": False, "fromCache": False, "finished": False, "failed": False,
            })
        elif method == "Network.responseReceived":
            r = self.requests.get((session, params["requestId"]))
            if r:
                response = params["response"]
                r["status"] = response.get("status")
                r["fromServiceWorker"] = bool(response.get("fromServiceWorker"))
                r["fromCache"] = bool(response.get("fromDiskCache") or response.get("fromPrefetchCache"))
                r["encoding"] = {k.lower(): v for k, v in (response.get("headers") or {}).items()}.get("content-encoding", "")
        elif method == "Network.dataReceived":
            r = self.requests.get((session, params["requestId"]))
            if r:
                r["decoded"] += params.get("dataLength", 0)
        elif method == "Network.loadingFinished":
            r = self.requests.get((session, params["requestId"]))
            if r:
                r["encoded"] = params.get("encodedDataLength", 0)
                r["finished"] = True
                r["end"] = params.get("timestamp")
        elif method == "Network.loadingFailed":
            r = self.requests.get((session, params["requestId"]))
            if r:
                r["failed"] = True
                r["finished"] = True

    def set_offline(self, offline):
        """Network conditions of every page and worker (the service worker fetches on its own)."""
        self.offline = offline
        for session, kind in list(self.sessions.items()):
            if kind in ("page", "iframe", "service_worker", "worker", "shared_worker"):
                self.call("Network.enable", {}, session)
                self.call("Network.emulateNetworkConditions", self.network_conditions(offline), session)

    def targets(self):
        return sorted(set(self.sessions.values()))

    def page_session(self, target):
        """This connection's session of a page target (chromedriver's window handle is its id)."""
        session = self.targets_seen.get(target)
        if session not in self.sessions:
            raise BenchError(f"no CDP session of the page {target}; sessions: {self.targets()}")
        return session

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass


# MARK: - The server and the CLI replica

class Server:
    def __init__(self, binary, work):
        self.binary = binary
        self.work = work
        self.data = os.path.join(work, "data")
        self.process = None
        self.port = None

    def run(self, *args, check=True):
        done = subprocess.run([self.binary, *args], capture_output=True, text=True, timeout=300)
        if check and done.returncode != 0:
            raise BenchError(f"`oritsubushi {' '.join(args)}` exited {done.returncode}: {done.stderr.strip() or done.stdout.strip()}")
        return done.stdout

    def start(self):
        self.stderr_path = os.path.join(self.work, "serve.stderr")
        self.stderr = open(self.stderr_path, "w")
        self.process = subprocess.Popen([self.binary, "server", "serve", "--data", self.data, "--port", "0"],
                                        stdout=subprocess.DEVNULL, stderr=self.stderr)
        deadline = time.time() + 30
        while time.time() < deadline:
            with open(self.stderr_path) as f:
                text = f.read()
            match = re.search(r"port=(\d+).*listening", text)
            if match:
                self.port = int(match.group(1))
                return
            if self.process.poll() is not None:
                raise BenchError(f"`oritsubushi server serve` exited {self.process.returncode}: {text.strip()}")
            time.sleep(0.05)
        raise BenchError("`oritsubushi server serve` did not log `port=… listening` within 30 s")

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def metrics(self):
        """Requests the server answered, by route (GET /metrics)."""
        with urllib.request.urlopen(self.url + "/metrics", timeout=10) as response:
            text = response.read().decode()
        counts = {}
        for line in text.splitlines():
            match = re.match(r'oritsubushi_http_request_duration_seconds_count\{route="([^"]*)",method="([^"]*)"\} (\d+)', line)
            if match:
                counts[f"{match.group(2)} {match.group(1)}"] = int(match.group(3))
        return counts

    def stop(self):
        if getattr(self, "folder", None):
            self.folder.stop()
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if getattr(self, "stderr", None):
            self.stderr.close()


class AppFolder:
    """--app-dir: a development aid, not how figures are kept. The server serves the app its
    binary embeds (the build embeds Sources/WebApp/app, Plugins/EmbedFolders) and has no way to serve a
    folder; to measure app changes before a build, this serves GET /app/** from a folder with the
    headers the server sends (SyncHTTPServer+WebApp.swift, StaticPayload.swift: CSP, no-cache,
    ETag and 304, gzip) and forwards everything else, /app/config.json included, to the server."""

    CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
           "worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
           "frame-ancestors 'none'")
    TYPES = {"html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
             "css": "text/css; charset=utf-8", "webmanifest": "application/manifest+json", "json": "application/json",
             "png": "image/png", "svg": "image/svg+xml", "ico": "image/x-icon", "txt": "text/plain; charset=utf-8"}

    def __init__(self, folder, upstream):
        import http.server
        self.folder = os.path.abspath(folder)
        self.upstream = upstream
        self.payloads = {}
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                outer.answer(self)

            do_HEAD = do_POST = do_PUT = do_DELETE = do_GET

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def payload(self, rel):
        """(bytes, gzip bytes or None, ETag) of a file of the folder, links followed (js/mapCore.js)."""
        import hashlib
        path = os.path.normpath(os.path.join(self.folder, rel))
        if not path.startswith(self.folder + os.sep) or not os.path.isfile(path):
            return None
        with open(path, "rb") as f:
            body = f.read()
        zipped = gzip.compress(body, 6)
        etag = '"' + hashlib.sha256(body).hexdigest()[:24] + '"'
        return body, (zipped if len(zipped) < len(body) else None), etag

    def answer(self, h):
        path = urllib.parse.urlsplit(h.path).path
        if h.command in ("GET", "HEAD") and path.startswith("/app/") and path != "/app/config.json":
            rel = urllib.parse.unquote(path[len("/app/"):]) or "index.html"
            found = None if rel.endswith("/") else self.payload(rel)
            if found is None:
                h.send_response(404)
                h.send_header("Content-Length", "0")
                h.end_headers()
                return
            body, zipped, etag = found
            use_gzip = zipped is not None and "gzip" in h.headers.get("Accept-Encoding", "").lower()
            tag = etag[:-1] + '-gzip"' if use_gzip else etag
            match = [t.strip() for t in h.headers.get("If-None-Match", "").split(",")]
            headers = {"Content-Security-Policy": self.CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
                       "Cache-Control": "no-cache", "ETag": tag, "Vary": "Accept-Encoding"}
            if rel == "sw.js":
                headers["Service-Worker-Allowed"] = "/app/"
            if any(t in (etag, etag[:-1] + '-gzip"', "W/" + etag, "*") for t in match):
                h.send_response(304)
                body = b""
            else:
                h.send_response(200)
                headers["Content-Type"] = self.TYPES.get(rel.rsplit(".", 1)[-1], "application/octet-stream")
                if use_gzip:
                    headers["Content-Encoding"] = "gzip"
                    body = zipped
            headers["Content-Length"] = str(len(body))
            for k, v in headers.items():
                h.send_header(k, v)
            h.end_headers()
            if h.command != "HEAD":
                h.wfile.write(body)
            return
        import http.client
        length = int(h.headers.get("Content-Length") or 0)
        request_body = h.rfile.read(length) if length else None
        connection = http.client.HTTPConnection("127.0.0.1", int(urllib.parse.urlsplit(self.upstream).port), timeout=120)
        try:
            headers = {k: v for k, v in h.headers.items() if k.lower() not in ("host", "connection")}
            connection.request(h.command, h.path, body=request_body, headers=headers)
            response = connection.getresponse()
            body = response.read()
            h.send_response(response.status)
            for k, v in response.getheaders():
                if k.lower() not in ("transfer-encoding", "connection", "content-length", "date", "server"):
                    h.send_header(k, v)
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            if h.command != "HEAD":
                h.wfile.write(body)
        finally:
            connection.close()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def fetch_catalog(url, token):
    request = urllib.request.Request(url + "/v1/catalog", headers={"Authorization": f"Bearer {token}", "Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=60) as response:
        body = response.read()
        if response.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
    return json.loads(body)


# MARK: - Helpers

def fmt_ms(ms):
    return f"{ms:.0f} ms" if ms >= 10 else f"{ms:.1f} ms"


def fmt_bytes(n):
    if n >= 1024 * 1024:
        return f"{n / 1048576:.2f} MiB"
    if n >= 1024:
        return f"{n / 1024:.1f} KiB"
    return f"{n} B"


def median(values):
    return statistics.median(values) if values else float("nan")


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
        self.tab("search")
        box = self.el("search-input")
        self.js("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input'));", box)
        box.send_keys(query)
        selector = f'[data-testid="search-results"] li[data-station="{station_id}"]'
        self.wait(f"{query} in the search results", lambda: self.d.find_elements(By.CSS_SELECTOR, selector))
        self.d.find_element(By.CSS_SELECTOR, selector).click()
        self.wait("the station screen", lambda: self.js("return !document.getElementById('station-detail').hidden && document.getElementById('screen-station').hidden === false"))

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


# MARK: - The run

def main():
    parser = argparse.ArgumentParser(prog="Tools/app-bench", add_help=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--screenshots", action="store_true")
    parser.add_argument("--screenshot-dir", default="docs")
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--reloads", type=int, default=5)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--json", dest="json_out")
    parser.add_argument("--cpu-profile", dest="cpu_profile")
    parser.add_argument("--app-dir", dest="app_dir")
    parser.error = lambda message: (print(f"Tools/app-bench: {message}", file=sys.stderr), sys.exit(EXIT_USAGE))
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="app-bench-")
    server = Server(args.binary, work)
    try:
        return run(args, work, server)
    except Exception as error:  # BenchError, WebDriver, a subprocess: one sentence, exit 70
        log(f"error: {type(error).__name__}: {error}")
        if hasattr(server, "stderr_path"):
            log(f"the server's log is {server.stderr_path} (kept with --keep)")
        return EXIT_FAILED
    finally:
        server.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            log(f"kept {work}")


def loadavg():
    """The 1, 5 and 15 minute load averages (the machine may be shared: they say how busy it was)."""
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


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
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PAGE_PROBE})
        app = App(driver)
        return measure(args, server, app_url, token, catalog, pair_url, driver, cdp, app,
                       dict(odawara=odawara, odawara_jrc=odawara_jrc, odawara_jre=odawara_jre,
                            midoricho=midoricho, yumoto=yumoto, tokyo=tokyo))
    finally:
        if cdp:
            cdp.close()
        try:
            driver.quit()
        except Exception:
            pass


def operator_name(catalog, operator_id):
    for o in catalog["operators"]:
        if o["id"] == operator_id:
            return o["name"]
    return ""


def measure(args, server, origin, token, catalog, pair_url, d, cdp, app, st):
    figures = {}

    # 1. First visit with pairing: the page loads, the service worker installs (precaching every
    #    app file), the code is exchanged, the catalogue downloaded and the first sync runs.
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

    # Bytes of the first visit, by who fetched what.
    def is_app_file(url):
        return url[len(origin):].startswith("/app/")
    page_net = [r for r in first_requests if r["target"] == "page" and not r["fromServiceWorker"]]
    sw_net = [r for r in first_requests if r["target"] == "service_worker"]
    sum_enc = lambda rs: sum(r["encoded"] for r in rs)
    sum_dec = lambda rs: sum(r["decoded"] for r in rs)
    bytes_report = {
        "page_app": (sum_enc([r for r in page_net if is_app_file(r["url"])]), sum_dec([r for r in page_net if is_app_file(r["url"])]),
                     len([r for r in page_net if is_app_file(r["url"])])),
        "sw_app": (sum_enc([r for r in sw_net if is_app_file(r["url"])]), sum_dec([r for r in sw_net if is_app_file(r["url"])]),
                   len([r for r in sw_net if is_app_file(r["url"])])),
        "catalog": (sum_enc([r for r in page_net + sw_net if "/v1/catalog" in r["url"]]), sum_dec([r for r in page_net + sw_net if "/v1/catalog" in r["url"]]),
                    len([r for r in page_net + sw_net if "/v1/catalog" in r["url"]])),
        "api": (sum_enc([r for r in page_net + sw_net if "/v1/" in r["url"] and "/v1/catalog" not in r["url"]]),
                sum_dec([r for r in page_net + sw_net if "/v1/" in r["url"] and "/v1/catalog" not in r["url"]]),
                len([r for r in page_net + sw_net if "/v1/" in r["url"] and "/v1/catalog" not in r["url"]])),
    }
    bytes_report["total"] = (sum(v[0] for v in bytes_report.values()), sum(v[1] for v in bytes_report.values()),
                             sum(v[2] for v in bytes_report.values()))
    catalog_requests = [r for r in page_net + sw_net if "/v1/catalog" in r["url"] and r.get("end") and r.get("start")]
    catalog_seconds = (catalog_requests[0]["end"] - catalog_requests[0]["start"]) if catalog_requests else None
    uncompressed = [r["url"][len(origin):] for r in page_net + sw_net if r["decoded"] > 1024 and not r.get("encoding")]
    figures["bytes"] = bytes_report
    figures["storage_first"] = storage_first

    # 2. Edits through the app: clicks to IndexedDB commits.
    cdp_page_grant(d, origin, st["odawara"])
    saves, todays = [], []
    # 緑町 (伊豆箱根 大雄山線): 「今日、乗下車しました！」 on the station screen, then memo edits with 保存.
    app.open_station(st["midoricho"]["id"], "みどりちょう")
    todays.append(("station-today", app.measure_write("station-today")))
    for i in range(args.edits):
        app.js("const m = document.getElementById('station-memo'); m.value = arguments[0]; m.dispatchEvent(new Event('input'));",
               f"計測用のメモ {i + 1}")
        saves.append(app.measure_write("station-save"))
        time.sleep(0.3)
    # 箱根湯本: a date through the picker (2013-09-01) and a memo, 保存.
    app.open_station(st["yumoto"]["id"], "はこねゆもと")
    for testid, value in (("date-year", "2013"), ("date-month", "9"), ("date-day", "1")):
        app.js("const s = document.querySelector(`[data-testid='${arguments[0]}']`); s.value = arguments[1]; s.dispatchEvent(new Event('change'));", testid, value)
    app.js("const m = document.getElementById('station-memo'); m.value = '強羅まで乗り通し'; m.dispatchEvent(new Event('input'));")
    saves.append(app.measure_write("station-save"))
    # 小田原 (JR東海, completed by the CLI with a memo): a memo from the phone too.
    app.open_station(st["odawara_jrc"]["id"], "おだわら")
    app.js("const m = document.getElementById('station-memo'); m.value = '新幹線から箱根へ。帰りは小田急ロマンスカー'; m.dispatchEvent(new Event('input'));")
    saves.append(app.measure_write("station-save"))
    # 現在地 at 小田原駅: select 小田原 (JR東日本) and 「今日、乗下車しました！」.
    app.tab("nearby")
    selector = f'[data-testid="nearby-list"] li[data-station="{st["odawara_jre"]["id"]}"]'
    app.wait("小田原 (JR東日本) in the nearby list", lambda: d.find_elements(By.CSS_SELECTOR, selector))
    d.find_element(By.CSS_SELECTOR, selector).click()
    app.wait("the today button", lambda: app.js("return !document.getElementById('today-button').hidden"))
    todays.append(("today-button", app.measure_write("today-button")))
    app.tab("sync")
    time.sleep(2.0)  # EDIT_SYNC_DELAY_MS is 1.5 s
    app.wait_synced(60)
    app.wait("nothing pending", lambda: app.text("pending-count") == "0", 30)
    figures["saves"] = saves
    figures["todays"] = todays

    # 3. Open with the network off: offline on the page and on the service worker, reload, time
    #    navigation start → the end of the first map drawing; the server's request counts must not move.
    app.tab("map")
    loads = []
    before = wait_quiet(server, cdp, app)
    driver_offline(d, True)
    cdp.set_offline(True)
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
        app.wait("the map drawn after the offline reload", lambda: any(x["end"] is not None for x in app.bench()["draws"]), 30)
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
    after = server.metrics()
    cdp.set_offline(False)
    driver_offline(d, False)
    reached = {k: after.get(k, 0) - before.get(k, 0) for k in after if after.get(k, 0) != before.get(k, 0)}
    reached.pop("GET /metrics", None)
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

    # 5–7. The map: first paint offline at 1× and 4× CPU throttling, pans at 4×, the base map's bytes.
    figures["map"] = measure_map(args, server, origin, d, cdp, app, st)

    # 4. The fold of N generated events in the page, with the app's own module.
    d.refresh()
    app.wait("the map drawn", lambda: any(x["end"] is not None for x in app.bench()["draws"]), 30)
    storage_end = storage_report(app)
    figures["storage_end"] = storage_end
    ids = [s["id"] for s in catalog["stations"] if s["enabled"]]
    fold = d.execute_async_script(FOLD_SCRIPT, ids, args.events)
    if "error" in fold:
        raise BenchError(f"the fold in the page failed: {fold['error']}")
    figures["fold"] = fold
    log(f"fold of {args.events} events: first {fold['times'][0]:.0f} ms, median {median(fold['times']):.0f} ms")

    # Screenshots of every screen.
    shots = []
    if args.screenshots:
        shots = screenshots(args, d, app, st)

    table = render(args, figures, bytes_report, storage_first, storage_end, loads, saves, todays, fold,
                   first_visit_s, catalog_seconds, reached, update_checks, persist_banner, uncompressed, d, app)
    figures["load"] = {"start": args.load_start, "end": loadavg()}
    table += "\n\n" + render_map(args, figures["map"], figures["met"])
    table += (f"\n\nLoad average (1, 5, 15 min) at the start {figures['load']['start']}, at the end {figures['load']['end']}; "
              f"{os.cpu_count()} cores. The app's files: " + (f"from {os.path.abspath(args.app_dir)} (--app-dir, a development aid)" if args.app_dir
                                                             else "the binary's own"))
    print(table)
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({**figures, "first_requests": first_requests}, f, indent=1, default=str)
    if shots:
        log("screenshots: " + ", ".join(shots))
    met = figures["met"]
    return 0 if all(met.values()) else EXIT_MISSED


# MARK: - The map: first paint, pans, the base map

MAP_DPR = 2  # a phone's screen: the base map's raster work grows with the canvas's pixels
PAN_MOVES = 60
PAN_SECONDS = 1.0
THROTTLE = 4
MARKS = ("oritsubushi:map-drawn", "oritsubushi:map-drawn-with-base")


def measure_map(args, server, origin, d, cdp, app, st):
    """Rows 5–7, offline, at MAP_DPR, with no location allowed (the map opens on all Japan)."""
    out = {"base": base_map_bytes(origin), "dpr": MAP_DPR}
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": MAP_DPR, "mobile": True})
    d.execute_cdp_cmd("Browser.setPermission", {"permission": {"name": "geolocation"}, "setting": "prompt", "origin": origin})
    app.tab("map")
    counts = lambda: {k: v for k, v in server.metrics().items() if k != "GET /metrics"}
    # The network came back after row 1: the app's sync on `online` finishes first.
    before = wait_quiet(server, cdp, app)
    driver_offline(d, True)
    cdp.set_offline(True)
    try:
        for rate in (1, THROTTLE):
            out[f"paint{rate}"] = first_paints(args, d, app, rate)
        if args.cpu_profile:
            os.makedirs(args.cpu_profile, exist_ok=True)
            out["profiles"] = [profile_first_paint(args, d, app)]
        # All Japan: the view the map opened on; Tokyo: 東京 (JR東日本) 「この駅を地図の中心に表示」.
        out["pan_japan"] = pans(args, d, cdp, app, "japan")
        d.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": 1})
        app.open_station(st["tokyo"]["id"], "とうきょう")
        app.click("station-on-map")
        app.wait("the map", lambda: app.js("return !document.getElementById('screen-map').hidden"))
        out["pan_tokyo"] = pans(args, d, cdp, app, "tokyo")
    finally:
        d.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": 1})
        reached = {k: v - before.get(k, 0) for k, v in counts().items() if v != before.get(k, 0)}
        cdp.set_offline(False)
        driver_offline(d, False)
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
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
    d.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": rate})
    runs = []
    for i in range(args.reloads + 1):
        d.refresh()
        app.wait(f"the map drawn over its base map ({rate}× throttled)",
                 lambda: app.js("return performance.getEntriesByName(arguments[0]).length > 0", MARKS[1]), 30 * rate)
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
    d.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
    d.execute_cdp_cmd("Profiler.enable", {})
    d.execute_cdp_cmd("Profiler.setSamplingInterval", {"interval": 200})
    d.execute_cdp_cmd("Profiler.start", {})
    d.refresh()
    app.wait("the map drawn over its base map (profiled)",
             lambda: app.js("return performance.getEntriesByName(arguments[0]).length > 0", MARKS[1]), 30 * THROTTLE)
    return save_profile(args, d, f"first-paint-{THROTTLE}x")


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
    d.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
    time.sleep(1.5)
    left, top, width, height = app.js("const r = document.getElementById('map-canvas').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
    x0, y0 = left + width / 2, top + height * 0.55
    state = lambda: app.js("const c = document.getElementById('map-canvas'); return [c.dataset.centerLat, c.dataset.centerLng, c.dataset.zoom]")
    drags = []
    for k, sign in enumerate((1, -1)):
        if args.cpu_profile and k == 0:
            d.execute_cdp_cmd("Profiler.enable", {})
            d.execute_cdp_cmd("Profiler.setSamplingInterval", {"interval": 200})
            d.execute_cdp_cmd("Profiler.start", {})
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
    d.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": 1})
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


def p95(values):
    """The nearest-rank 95th percentile."""
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * 95 // 100) - 1)] if ordered else float("nan")


def render_map(args, m, met):
    fmt_range = lambda xs: f"{fmt_ms(median(xs))} ({fmt_ms(min(xs))}–{fmt_ms(max(xs))})"
    paint = {rate: ([r["marks"][0] for r in m[f"paint{rate}"]], [r["marks"][1] for r in m[f"paint{rate}"]]) for rate in (1, THROTTLE)}
    shown = {rate: [r["shown"][1] for r in m[f"paint{rate}"] if r["shown"][1] is not None] for rate in (1, THROTTLE)}
    met["paint"] = median(paint[THROTTLE][1]) <= 1000
    ok = lambda b: "met" if b else "**missed**"
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
             + (f" (next frame {fmt_range(shown[1])})" if shown[1] else ""),
             ok(met["paint"]),
             f"the median {THROTTLE}× reload: " + "; ".join(phases))]
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
             "",
             "| # | figure | target | result | | what limits it |",
             "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append("| " + " | ".join(x.replace("|", "\\|") for x in r) + " |")
    if m["reached"]:
        # As in row 1: a service worker the browser stopped while idle and started again is a new
        # target, taken offline only once CDP has attached to it; a phone with no network has none.
        lines += ["", f"Requests that reached the server during the offline map measurements: {m['reached']} "
                      "(a service worker restarted after CDP took the targets offline: the emulation is per target)"]
    return "\n".join(lines)


def wait_quiet(server, cdp, app):
    """A quiet server: no API request of the page or the worker still running, and the server's
    counts unchanged for 1.5 s (the sync after the last edit, or after the network came back, may
    still be finishing). Returns the counts."""
    app.wait("the API requests to finish", lambda: all(r["finished"] for r in list(cdp.requests.values()) if "/v1/" in r["url"]), 30)
    counts = lambda: {k: v for k, v in server.metrics().items() if k != "GET /metrics"}
    before, since = counts(), time.time()
    while time.time() - since < 1.5:
        time.sleep(0.25)
        now_counts = counts()
        if now_counts != before:
            before, since = now_counts, time.time()
    return before


def driver_offline(d, offline):
    """Network offline on or off, by CDP commands through chromedriver (the page's own session)."""
    d.execute_cdp_cmd("Network.enable", {})
    d.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


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


def screenshots(args, d, app, st):
    out = args.screenshot_dir
    os.makedirs(out, exist_ok=True)
    shots = []

    def shot(name):
        time.sleep(0.4)
        app.wait("the toast to go", lambda: app.js("return document.getElementById('toast').hidden"), 10)
        path = os.path.join(out, name)
        d.save_screenshot(path)
        shots.append(path)

    d.refresh()
    app.wait("the map drawn", lambda: any(x["end"] is not None for x in app.bench()["draws"]), 30)
    app.wait_synced(60)
    # The banner (storage not persisted: a browser tab, not an installed app) closed, as a person
    # would after reading it once; it shows again at every start.
    if app.js("return !document.getElementById('banner').hidden"):
        app.click("banner-close")
    # 地図 around 小田原 (「この駅を地図の中心に表示」): the whole of Japan, as the map first
    # opens, shows the completed lines only as a few red dots under the count bubbles.
    app.open_station(st["odawara_jrc"]["id"], "おだわら")
    app.click("station-on-map")
    app.wait("the map", lambda: app.js("return !document.getElementById('screen-map').hidden"))
    time.sleep(0.5)
    shot("app-map.png")
    # 現在地 at 小田原駅, with the nearest station not yet completed chosen (its today button shown).
    app.tab("nearby")
    app.wait("the nearby list", lambda: app.js("return document.querySelectorAll('[data-testid=nearby-list] li').length > 0"), 30)
    undone = d.find_elements(By.CSS_SELECTOR, '[data-testid="nearby-list"] li:has(.mark:not(.done))')
    if undone:
        undone[0].click()
        app.wait("the today button", lambda: app.js("return !document.getElementById('today-button').hidden"))
    app.js("document.getElementById('screen-nearby').scrollTop = 0")
    shot("app-nearby.png")
    app.tab("search")
    box = app.el("search-input")
    app.js("arguments[0].value = ''; arguments[0].dispatchEvent(new Event('input'));", box)
    box.send_keys("おだわら")
    app.wait("search results", lambda: app.js("return document.querySelectorAll('[data-testid=search-results] li').length > 0"))
    time.sleep(0.3)
    app.js("document.activeElement && document.activeElement.blur()")
    shot("app-search.png")
    app.open_station(st["odawara_jrc"]["id"], "おだわら")
    app.js("document.getElementById('screen-station').scrollTop = 0")
    shot("app-station.png")
    app.tab("stats")
    app.wait("the statistics", lambda: app.js("return document.querySelectorAll('[data-testid=stats-list] li').length > 0"))
    # 全事業者 starts with the operator types: JR旅客会社 holds 東海旅客鉄道 (東海道新幹線, completed).
    items = d.find_elements(By.CSS_SELECTOR, '[data-testid="stats-list"] li')
    item = next((li for li in items if "JR" in li.text), items[0])
    app.js("arguments[0].scrollIntoView({block: 'center'})", item)
    item.click()
    app.wait("one level down", lambda: app.js("return !document.getElementById('stats-back').hidden"))
    app.js("document.getElementById('screen-stats').scrollTop = 0")
    shot("app-stats.png")
    app.tab("sync")
    app.click("sync-now")
    app.wait_synced(60)
    shot("app-sync.png")
    return shots


def render(args, figures, bytes_report, storage_first, storage_end, loads, saves, todays, fold,
           first_visit_s, catalog_seconds, reached, update_checks, persist_banner, uncompressed, d, app):
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
    ok = lambda b: "met" if b else "**missed**"

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
                 ", ".join(f"{tid} {fmt_ms(r['commit'])} (answer {fmt_ms(r['answer'])})" for tid, r in todays),
                 ok(max(today_commits) <= 50),
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
        f"{os.cpu_count()} cores; `oritsubushi server serve` (files store) on loopback; first visit with pairing took {first_visit_s:.1f} s.",
        "",
        "| # | figure | target | result | | what limits it |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        lines.append("| " + " | ".join(x.replace("|", "\\|") for x in r) + " |")
    if persist_banner:
        lines += ["", f"The app showed its banner: 「{persist_banner}」 (`navigator.storage.persist()` refused; persisted = {storage_end.get('persisted')})."]
    return "\n".join(lines)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
