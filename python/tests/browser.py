"""A headless Chromium (Debian's ``chromium``) driven over the DevTools protocol, for testing
pages as a person sees them: it loads a file, collects console messages, exceptions and failed
requests, evaluates expressions and takes screenshots."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request
from typing import Any, Dict, List, Optional

import websocket  # websocket-client

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")


def chromium_path() -> Optional[str]:
    env = os.environ.get("SSDGC_CHROMIUM")
    if env:
        return env
    for n in CHROMIUM_NAMES:
        p = shutil.which(n)
        if p:
            return p
    return None


class Browser:
    """One headless Chromium with one page; a context manager that ends the browser on exit."""

    def __init__(self, width: int = 1280, height: int = 1600, timeout_s: float = 60.0) -> None:
        exe = chromium_path()
        if exe is None:
            raise RuntimeError("Chromium not found (apt-get install chromium, or set SSDGC_CHROMIUM)")
        self.timeout_s = timeout_s
        self.profile = tempfile.mkdtemp(prefix="ssdgc-chromium-")
        self.proc = subprocess.Popen(
            [
                exe,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.port = self._port()
        self.ws = self._connect()
        self.next_id = 0
        self.events: List[Dict[str, Any]] = []
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")

    def _port(self) -> int:
        # Chromium writes the port it chose to DevToolsActivePort in its profile.
        path = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Chromium exited with status {self.proc.returncode}")
            try:
                with open(path) as f:
                    first = f.readline().strip()
                if first:
                    return int(first)
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        raise RuntimeError("Chromium did not open its DevTools port")

    def _connect(self):
        deadline = time.monotonic() + self.timeout_s
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/list", timeout=5) as r:
                    targets = json.load(r)
                page = next(t for t in targets if t.get("type") == "page")
                return websocket.create_connection(page["webSocketDebuggerUrl"], timeout=self.timeout_s)
            except (OSError, StopIteration):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def call(self, method: str, **params: Any) -> Dict[str, Any]:
        self.next_id += 1
        my = self.next_id
        self.ws.send(json.dumps({"id": my, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == my:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def wait_event(self, method: str) -> Dict[str, Any]:
        for e in self.events:
            if e["method"] == method:
                self.events.remove(e)
                return e
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv())
            if msg.get("method") == method:
                return msg
            if "method" in msg:
                self.events.append(msg)
        raise TimeoutError(method)

    def open(self, path: str) -> None:
        """Loads a local file and waits for its load event."""
        url = "file://" + os.path.abspath(path)
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def wait_for(self, expression: str, timeout_s: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            v = self.evaluate(expression)
            if v:
                return v
            time.sleep(0.1)
        raise TimeoutError(expression)

    def problems(self) -> List[str]:
        """Console errors and warnings, uncaught exceptions, log errors and failed requests seen
        so far."""
        # Drain what has arrived.
        self.call("Runtime.evaluate", expression="0")
        out = []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "warning", "assert"):
                args = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
                out.append(f"console.{p['type']}: {args}")
            elif m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append(f"exception: {d.get('text')} {d.get('exception', {}).get('description', '')}")
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") in ("error", "warning"):
                out.append(f"log.{p['entry']['level']}: {p['entry'].get('text')} {p['entry'].get('url', '')}")
            elif m == "Network.loadingFailed":
                out.append(f"request failed: {p.get('errorText')}")
            elif m == "Network.requestWillBeSent":
                url = p.get("request", {}).get("url", "")
                if not url.startswith(("file:", "data:", "blob:", "about:")):
                    out.append(f"network request: {url}")
        return out

    def screenshot(self, path: str) -> str:
        height = int(self.evaluate("Math.ceil(document.documentElement.scrollHeight)") or 1600)
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=1280,
            height=min(height, 16000),
            deviceScaleFactor=1,
            mobile=False,
        )
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
