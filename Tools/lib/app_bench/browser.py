"""A Chrome DevTools Protocol connection to the whole browser.

chromedriver's own CDP commands reach the page only; the service worker's requests (the
precache, the catalogue) and its network conditions need its own target. This attaches to
every target (flatten), enables Network on pages and workers, and keeps every request's
encoded (on the wire, with headers) and decoded byte counts."""

import json
import threading

from .common import BenchError, log
from .deps import websocket

# The targets that make requests of their own, each with its own network conditions.
NETWORK_TARGETS = ("page", "iframe", "service_worker", "worker", "shared_worker")
# Every new target attached, in the same connection (flatten), and not paused.
AUTO_ATTACH = {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True}


def network_conditions(offline):
    """Network.emulateNetworkConditions' parameters: offline or not, nothing throttled."""
    return {"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}


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
        self.call("Target.setAutoAttach", AUTO_ATTACH)

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
                self.send("Target.setAutoAttach", AUTO_ATTACH, child)
            if kind in NETWORK_TARGETS:
                self.send("Network.enable", {}, child)
                if self.offline:
                    self.send("Network.emulateNetworkConditions", network_conditions(True), child)
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
            if kind in NETWORK_TARGETS:
                self.call("Network.enable", {}, session)
                self.call("Network.emulateNetworkConditions", network_conditions(offline), session)

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
