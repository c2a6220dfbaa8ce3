"""Two small W3C WebDriver clients, enough to play wolfden in Firefox and in WebKit.

Playwright drives only its own patched builds of Firefox and WebKit, which cannot be fetched
here, so these tests talk to the stock Debian browsers through the standard protocols:

* Firefox ESR speaks WebDriver BiDi itself (``--remote-debugging-port``): one WebSocket, one
  user context (its own cookies and storage) per player, console messages and uncaught
  exceptions arrive as ``log.entryAdded`` events from the first byte of every page.
* WebKitGTK (the engine of Safari) ships ``WebKitWebDriver``, classic HTTP WebDriver: one
  session (its own browser process with ephemeral storage) per player. Classic WebDriver has
  no log events, so every page gets an error recorder installed by script right after it
  loads; anything that fails before that shows up as a screen that never appears.

Both expose the same small ``Page`` surface the tests use: goto, reload, wait_for, click,
fill, select, count, text, evaluate, screenshot and ``errors``.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from wolfden.server.process import free_port

FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
XVFB = "/usr/bin/Xvfb"
TIMEOUT = 15.0


class BrowserError(RuntimeError):
    """The browser or its driver answered with an error or did not answer in time."""


def wait_port(port: int, proc: subprocess.Popen[bytes], what: str, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if proc.poll() is not None:
                raise BrowserError(f"{what} exited with code {proc.returncode}") from None
            if time.monotonic() > end:
                raise BrowserError(f"{what} did not listen on port {port}") from None
            time.sleep(0.1)


def stop_process(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


# Collects uncaught errors, rejected promises and console.error calls in window.__errors.
# Installed by script in WebKit (classic WebDriver cannot listen to the console).
ERROR_RECORDER = """
if (!window.__errors) {
  window.__errors = [];
  window.addEventListener('error', (e) => window.__errors.push('uncaught: ' + e.message));
  window.addEventListener('unhandledrejection',
    (e) => window.__errors.push('unhandled rejection: ' + String(e.reason)));
  const original = console.error.bind(console);
  console.error = (...args) => {
    window.__errors.push(args.map(String).join(' '));
    original(...args);
  };
}
"""

# Shared by both drivers: wait for, count, read and change elements by CSS selector.
JS_COUNT = "return document.querySelectorAll(arguments[0]).length;"
JS_VISIBLE = """
const el = document.querySelector(arguments[0]);
if (!el) return false;
if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) return false;
const r = el.getBoundingClientRect();
return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
"""
JS_TEXT = "const el = document.querySelector(arguments[0]); return el ? el.textContent : null;"
JS_SCROLL = (
    "const el = document.querySelector(arguments[0]);"
    "if (el) el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});"
    "return el ? [el.getBoundingClientRect().top, el.outerHTML.slice(0, 120)] : null;"
)
JS_SHOWING = (
    "const net = document.getElementById('net');"
    "return location.hash + ' | ' + (net ? net.textContent : '') + ' | ' +"
    "(document.querySelector('main') || document.body).innerText.slice(0, 300);"
)
# Driver errors that mean the element changed under the click, as a live screen does.
GONE = ("stale", "no such", "did not appear", "out of bounds", "not interactable", "detached")
JS_FRAME = "return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));"
# Resolves true at the page's next change (a redraw, a new view, a countdown's tick) or false
# after ``arguments[0]`` ms without one: a loop that acts on the screen waits for it to move.
JS_NEXT_CHANGE = """
const main = document.getElementById("main") || document.body;
return new Promise((done) => {
  const seen = new MutationObserver(() => { seen.disconnect(); clearTimeout(timer); done(true); });
  const timer = setTimeout(() => { seen.disconnect(); done(false); }, arguments[0]);
  seen.observe(main, { childList: true, subtree: true, attributes: true, characterData: true });
});
"""
JS_SELECT = """
const el = document.querySelector(arguments[0]);
el.value = arguments[1];
el.dispatchEvent(new Event('input', {bubbles: true}));
el.dispatchEvent(new Event('change', {bubbles: true}));
return el.value;
"""


class Page:
    """What a test does with one player's browser window."""

    name = "browser"
    base = ""
    errors: list[str]

    # -- supplied by each driver -------------------------------------------------------------
    def _run(self, body: str, *args: Any) -> Any:
        """Run a function body (``arguments[i]`` are ``args``) in the page; JSON result."""
        raise NotImplementedError

    def _navigate(self, url: str) -> None:
        raise NotImplementedError

    def reload(self) -> None:
        raise NotImplementedError

    def click(self, selector: str, timeout: float = TIMEOUT) -> None:
        raise NotImplementedError

    def fill(self, selector: str, value: str) -> None:
        raise NotImplementedError

    def screenshot(self, path: Path) -> None:
        raise NotImplementedError

    def collect_errors(self) -> list[str]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # -- shared ----------------------------------------------------------------------------
    def goto(self, path: str) -> None:
        self._navigate(self.base + path)

    def evaluate(self, body: str, *args: Any) -> Any:
        return self._run(body, *args)

    def count(self, selector: str) -> int:
        return int(self._run(JS_COUNT, selector))

    def text(self, selector: str) -> str:
        value = self._run(JS_TEXT, selector)
        if value is None:
            raise BrowserError(f"{self.name}: no element matches {selector!r}")
        return str(value)

    def tap(self, selector: str) -> bool:
        """Click what is there now; False if the screen has already moved on (the element
        went away or was redrawn between looking and clicking)."""
        if not self.visible(selector):
            return False
        try:
            self.click(selector, timeout=1)
        except BrowserError as err:
            if self.visible(selector) and not any(m in str(err) for m in GONE):
                raise
            return False
        return True

    def visible(self, selector: str) -> bool:
        return bool(self._run(JS_VISIBLE, selector))

    def select(self, selector: str, value: str) -> None:
        self.wait_for(selector)
        self._run(JS_SELECT, selector, value)

    def next_change(self, timeout: float = 0.5) -> bool:
        """Wait for the page to change (True), or ``timeout`` seconds without a change (False)."""
        return bool(self._run(JS_NEXT_CHANGE, int(timeout * 1000)))

    def wait_until(self, body: str, what: str, timeout: float = TIMEOUT) -> Any:
        """Wait until the function ``body`` returns something true in the page; its value."""
        end = time.monotonic() + timeout
        while not (value := self._run(body)):
            if time.monotonic() > end:
                raise BrowserError(f"{self.name}: {what} within {timeout:.0f} s")
            self.next_change(0.5)
        return value

    def wait_for(self, selector: str, timeout: float = TIMEOUT) -> None:
        end = time.monotonic() + timeout
        while not self._run(JS_VISIBLE, selector):
            if time.monotonic() > end:
                raise BrowserError(
                    f"{self.name}: {selector!r} did not appear within {timeout:.0f} s "
                    f"(errors so far: {self.collect_errors()}; the page shows: "
                    f"{self._run(JS_SHOWING)!r})"
                )
            time.sleep(0.1)


# ---------------------------------------------------------------------------------------------
# Firefox over WebDriver BiDi
# ---------------------------------------------------------------------------------------------

FIREFOX_PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.startup.page": 0,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "browser.safebrowsing.update.enabled": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "extensions.update.enabled": False,
    "browser.aboutwelcome.enabled": False,
    "media.autoplay.default": 0,
}


class Firefox:
    """One headless Firefox ESR process and its BiDi session."""

    name = "firefox"

    def __init__(self) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="wolfden-firefox-"))
        (self.profile / "user.js").write_text(
            "".join(
                f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in FIREFOX_PREFS.items()
            )
        )
        self.port = free_port()
        env = dict(os.environ, MOZ_HEADLESS="1")
        self.proc = subprocess.Popen(
            [
                FIREFOX,
                "--headless",
                "--no-remote",
                "--profile",
                str(self.profile),
                f"--remote-debugging-port={self.port}",
                "--remote-allow-hosts=127.0.0.1",
                "about:blank",
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        self.stack = ExitStack()
        try:
            wait_port(self.port, self.proc, "firefox-esr")
            self.ws: ClientConnection = self._connect()
            self.version = self.send(
                "session.new",
                {"capabilities": {"alwaysMatch": {"unhandledPromptBehavior": "accept"}}},
            )["capabilities"]["browserVersion"]
            self.send("session.subscribe", {"events": ["log.entryAdded"]})
        except Exception:
            self.close()
            raise

    def _connect(self) -> ClientConnection:
        end = time.monotonic() + 20
        while True:
            try:
                url = f"ws://127.0.0.1:{self.port}/session"
                return self.stack.enter_context(
                    connect(url, max_size=64 * 1024 * 1024, open_timeout=5)
                )
            except Exception:
                if time.monotonic() > end:
                    raise
                time.sleep(0.2)

    def send(self, method: str, params: dict[str, Any], timeout: float = 30) -> Any:
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise BrowserError(f"firefox did not answer {method} within {timeout} s")
            message = json.loads(self.ws.recv(timeout=left))
            if message.get("type") == "event":
                self.events.append(message)
            elif message.get("id") == ident:
                if message.get("type") == "error":
                    raise BrowserError(f"{method}: {message['error']}: {message.get('message')}")
                return message["result"]

    def new_page(self, base: str, width: int, height: int) -> FirefoxPage:
        user_context = self.send("browser.createUserContext", {})["userContext"]
        # A window each, not a tab: a background tab would be hidden and its frames throttled.
        context = self.send(
            "browsingContext.create", {"type": "window", "userContext": user_context}
        )
        page = FirefoxPage(self, context["context"], user_context, base)
        self.send(
            "browsingContext.setViewport",
            {"context": page.context, "viewport": {"width": width, "height": height}},
        )
        return page

    def close(self) -> None:
        ws = getattr(self, "ws", None)
        if ws is not None:
            with suppress(BrowserError, OSError, ConnectionClosed):  # it may be gone already
                self.send("browser.close", {}, timeout=5)
        self.stack.close()
        stop_process(self.proc)
        shutil.rmtree(self.profile, ignore_errors=True)


def _bidi_value(value: dict[str, Any]) -> Any:
    kind = value.get("type")
    if kind in ("undefined", "null"):
        return None
    if kind in ("string", "boolean"):
        return value["value"]
    if kind == "number":
        number = value["value"]
        return number if not isinstance(number, str) else float(number.replace("Infinity", "inf"))
    if kind == "array":
        return [_bidi_value(v) for v in value.get("value", [])]
    if kind == "object":
        return {k: _bidi_value(v) for k, v in value.get("value", [])}
    return value


class FirefoxPage(Page):
    def __init__(self, browser: Firefox, context: str, user_context: str, base: str) -> None:
        self.browser = browser
        self.context = context
        self.user_context = user_context
        self.base = base
        self.name = "firefox"
        self.errors = []
        self.where: Any = None

    def _run(self, body: str, *args: Any) -> Any:
        result = self.browser.send(
            "script.callFunction",
            {
                "functionDeclaration": f"function() {{ {body} }}",
                "arguments": [_bidi_arg(a) for a in args],
                "target": {"context": self.context},
                "awaitPromise": True,
            },
        )
        if result["type"] == "exception":
            details = result["exceptionDetails"]
            raise BrowserError(f"firefox: script failed: {details.get('text')}")
        return _bidi_value(result["result"])

    def _element(self, selector: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        self.wait_for(selector, timeout)
        self.where = self._run(JS_SCROLL, selector)
        result = self.browser.send(
            "script.callFunction",
            {
                "functionDeclaration": "function(s) { return document.querySelector(s); }",
                "arguments": [{"type": "string", "value": selector}],
                "target": {"context": self.context},
                "awaitPromise": False,
            },
        )
        shared = result["result"].get("sharedId")
        if shared is None:
            raise BrowserError(f"firefox: no such element {selector!r} any more")
        return {"sharedId": shared}

    def _navigate(self, url: str) -> None:
        self.browser.send(
            "browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"}
        )

    def reload(self) -> None:
        self.browser.send("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def click(self, selector: str, timeout: float = TIMEOUT) -> None:
        # Firefox may still scroll the field just typed into back into view a frame later, so
        # a target that moved out of view between aiming and clicking is aimed at once more.
        for attempt in range(3):
            element = self._element(selector, timeout)
            pointer = {
                "type": "pointer",
                "id": "mouse",
                "parameters": {"pointerType": "mouse"},
                "actions": [
                    {
                        "type": "pointerMove",
                        "x": 0,
                        "y": 0,
                        "origin": {"type": "element", "element": element},
                    },
                    {"type": "pointerDown", "button": 0},
                    {"type": "pointerUp", "button": 0},
                ],
            }
            try:
                self.browser.send(
                    "input.performActions", {"context": self.context, "actions": [pointer]}
                )
                break
            except BrowserError as err:
                if "out of bounds" not in str(err) or attempt == 2:
                    raise BrowserError(f"{err} (clicking {selector!r} at {self.where})") from None
                self._run(JS_FRAME)
        self.browser.send("input.releaseActions", {"context": self.context})

    def fill(self, selector: str, value: str) -> None:
        self.click(selector)
        self._run(
            "const el = document.querySelector(arguments[0]); el.select && el.select();", selector
        )
        keys: list[dict[str, Any]] = [
            {"type": "keyDown", "value": "\ue003"},
            {"type": "keyUp", "value": "\ue003"},
        ]
        for ch in value:
            keys += [{"type": "keyDown", "value": ch}, {"type": "keyUp", "value": ch}]
        self.browser.send(
            "input.performActions",
            {
                "context": self.context,
                "actions": [{"type": "key", "id": "keyboard", "actions": keys}],
            },
        )
        self._run(JS_FRAME)
        got = self._run("return document.querySelector(arguments[0]).value;", selector)
        if got != value:
            raise BrowserError(f"firefox: typed {value!r} into {selector!r} but it holds {got!r}")

    def screenshot(self, path: Path) -> None:
        data = self.browser.send("browsingContext.captureScreenshot", {"context": self.context})
        path.write_bytes(base64.b64decode(data["data"]))

    def collect_errors(self) -> list[str]:
        self.browser.send("session.status", {})  # flushes events that arrived since the last call
        keep = []
        for event in self.browser.events:
            params = event.get("params", {})
            if event.get("method") != "log.entryAdded":
                continue
            if params.get("source", {}).get("context") != self.context:
                keep.append(event)
                continue
            if params.get("level") == "error":
                self.errors.append(f"{params.get('type')}: {params.get('text')}")
        self.browser.events = keep
        return self.errors

    def close(self) -> None:
        self.browser.send("browsingContext.close", {"context": self.context})
        self.browser.send("browser.removeUserContext", {"userContext": self.user_context})


def _bidi_arg(value: Any) -> dict[str, Any]:
    if value is None:
        return {"type": "null"}
    if isinstance(value, bool):
        return {"type": "boolean", "value": value}
    if isinstance(value, int | float):
        return {"type": "number", "value": value}
    return {"type": "string", "value": str(value)}


# ---------------------------------------------------------------------------------------------
# WebKitGTK over classic WebDriver
# ---------------------------------------------------------------------------------------------


class WebKit:
    """WebKitGTK through WebKitWebDriver. The driver serves one session at a time, so every page
    has a driver (and a MiniBrowser with ephemeral storage) of its own; they share one X
    display, an Xvfb started here when there is none."""

    name = "webkit"

    def __init__(self) -> None:
        self.xvfb: subprocess.Popen[bytes] | None = None
        self.env = dict(os.environ)
        self.version = ""
        self.pages: list[WebKitPage] = []
        if not self.env.get("DISPLAY") and not self.env.get("WAYLAND_DISPLAY"):
            read, write = os.pipe()
            self.xvfb = subprocess.Popen(
                [
                    XVFB,
                    "-displayfd",
                    str(write),
                    "-screen",
                    "0",
                    "1280x1024x24",
                    "-nolisten",
                    "tcp",
                ],
                pass_fds=(write,),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            os.close(write)
            with os.fdopen(read) as pipe:
                number = pipe.readline().strip()
            if not number:
                self.close()
                raise BrowserError("Xvfb did not start")
            self.env["DISPLAY"] = f":{number}"

    def new_page(self, base: str, width: int, height: int) -> WebKitPage:
        port = free_port()
        proc = subprocess.Popen(
            [WEBKIT_DRIVER, f"--port={port}", "--host=local"],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        page = WebKitPage(proc, f"http://127.0.0.1:{port}", base)
        self.pages.append(page)
        wait_port(port, proc, "WebKitWebDriver")
        capabilities = {
            "browserName": "MiniBrowser",
            "unhandledPromptBehavior": "accept",
            "webkitgtk:browserOptions": {"args": ["--automation"]},
        }
        value = page.request("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.version = value["capabilities"].get("browserVersion", "")
        page.session = value["sessionId"]
        # The window may not shrink below its toolbar; the size it takes still works.
        with suppress(BrowserError):
            page.call("POST", "/window/rect", {"width": width, "height": height})
        return page

    def close(self) -> None:
        for page in self.pages:
            page.close()
        if self.xvfb is not None:
            stop_process(self.xvfb)


class WebKitPage(Page):
    def __init__(self, driver: subprocess.Popen[bytes], url: str, base: str) -> None:
        self.driver = driver
        self.url = url
        self.session = ""
        self.base = base
        self.name = "webkit"
        self.errors = []
        self.closed = False

    def request(self, method: str, path: str, body: Any = None, timeout: float = 30) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as response:
                return json.loads(response.read() or b"null").get("value")
        except urllib.error.HTTPError as err:
            detail = err.read().decode(errors="replace")
            try:
                value = json.loads(detail)["value"]
                detail = f"{value.get('error')}: {value.get('message')}"
            except (ValueError, KeyError, AttributeError):
                pass
            raise BrowserError(f"webkit {method} {path}: {detail}") from None

    def call(self, method: str, path: str, body: Any = None) -> Any:
        return self.request(method, f"/session/{self.session}{path}", body)

    def _run(self, body: str, *args: Any) -> Any:
        return self.call("POST", "/execute/sync", {"script": body, "args": list(args)})

    def _hook(self) -> None:
        self._run(ERROR_RECORDER)

    def _navigate(self, url: str) -> None:
        self.call("POST", "/url", {"url": url})
        self._hook()

    def reload(self) -> None:
        self.collect_errors()
        self.call("POST", "/refresh", {})
        self._hook()

    def _element(self, selector: str, timeout: float = TIMEOUT) -> str:
        self.wait_for(selector, timeout)
        self._run(JS_SCROLL, selector)
        found = self.call("POST", "/element", {"using": "css selector", "value": selector})
        return str(next(iter(found.values())))

    def click(self, selector: str, timeout: float = TIMEOUT) -> None:
        self.call("POST", f"/element/{self._element(selector, timeout)}/click", {})

    def fill(self, selector: str, value: str) -> None:
        element = self._element(selector)
        self.call("POST", f"/element/{element}/clear", {})
        # A new line is typed as the Enter key (WebKitWebDriver drops a bare "\n").
        text = value.replace("\n", "\ue007")
        self.call("POST", f"/element/{element}/value", {"text": text})
        got = self._run("return document.querySelector(arguments[0]).value;", selector)
        if got != value:
            raise BrowserError(f"webkit: typed {value!r} into {selector!r} but it holds {got!r}")

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.call("GET", "/screenshot")))

    def collect_errors(self) -> list[str]:
        if not self.closed and self.session:
            found = self._run("const e = window.__errors || []; window.__errors = []; return e;")
            self.errors.extend(found or [])
        return self.errors

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if self.session:
                with suppress(BrowserError, OSError):
                    self.request("DELETE", f"/session/{self.session}", timeout=10)
            stop_process(self.driver)
