"""The server and the CLI replica: `oritsubushi server serve` on loopback, the catalogue, and for
--app-dir a proxy that serves the app's files from a folder."""

import gzip
import json
import os
import re
import subprocess
import threading
import time
import urllib.parse
import urllib.request

from .common import BenchError

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

    def counts(self):
        """metrics() but for GET /metrics itself (the bench's own reads)."""
        return {k: v for k, v in self.metrics().items() if k != "GET /metrics"}

    def reached_since(self, before):
        """The requests the server answered since counts() gave `before`, by route."""
        return {k: v - before.get(k, 0) for k, v in self.counts().items() if v != before.get(k, 0)}

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
