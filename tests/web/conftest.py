"""A real `wolfden serve` in a subprocess and Debian's headless Chromium driven by Playwright.

Every page records its console errors and uncaught exceptions; a test fails if any appear.
Screenshots go to test-output/screenshots/.
"""

from __future__ import annotations

import json
import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wolfden.server.process import ServeProcess

playwright_api = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-output" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


class Server(ServeProcess):
    """``wolfden serve`` with bots that act at once and a two-second grace period."""

    def __init__(self, tmp: Path) -> None:
        super().__init__(tmp / "web.sqlite3", "--bot-delay", "0", "--grace", "2")

    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("serve"))
    yield srv
    srv.stop()


class Pages:
    """Browser contexts for one test; collects console errors of every page."""

    def __init__(self, browser: Any, server: Server) -> None:
        self.browser = browser
        self.server = server
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        SHOTS.mkdir(parents=True, exist_ok=True)

    def new(
        self, size: dict[str, int] = PHONE, *, spy_speech: bool = True, hidden: bool = True
    ) -> Any:
        """A page in a fresh context. ``hidden=False``: this phone's privacy setting is off
        (its screen is not hidden until "Show"), for tests about other things."""
        context = self.browser.new_context(viewport=size, base_url=self.server.base)
        if spy_speech:
            context.add_init_script(SPEECH_SPY)
        if not hidden:
            context.add_init_script(SHOWN)
        self.contexts.append(context)
        page = context.new_page()
        page.on(
            "console",
            lambda m: self.errors.append(f"{page.url}: {m.text}") if m.type == "error" else None,
        )
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        page.on("dialog", lambda d: d.accept())
        page.set_default_timeout(15000)
        return page

    def shot(self, page: Any, name: str, *, full: bool = False) -> None:
        """Save a screenshot; on a phone, the page must also fit its width (no sideways scroll)."""
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)
        width = page.viewport_size["width"]
        if width <= PHONE["width"]:
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width + 1, f"{name}: the page is {wide} px wide on a {width} px phone"

    def close(self) -> None:
        for c in self.contexts:
            c.close()


# Records what the page asks the speech synthesizer to say (window.__spoken), says nothing,
# and tells the page each line has ended (as a synthesizer does once it has said it).
SPEECH_SPY = """
window.__spoken = [];
if (window.speechSynthesis) {
  const speak = (u) => {
    window.__spoken.push(u.text);
    setTimeout(() => { if (u.onend) u.onend(new Event('end')); }, 0);
  };
  Object.defineProperty(window.speechSynthesis, 'speak', {value: speak, configurable: true});
}
"""


SHOWN = """
const prefs = JSON.parse(localStorage.getItem('wolfden.prefs') || '{}');
localStorage.setItem('wolfden.prefs', JSON.stringify({...prefs, hideByDefault: false}));
"""


@pytest.fixture
def pages(browser: Any, server: Server) -> Iterator[Pages]:
    p = Pages(browser, server)
    yield p
    p.close()
    assert not p.errors, "console errors:\n" + "\n".join(p.errors)


# Resolves true at the page's next change (a redraw, a new view, a countdown's tick), or false
# after ``ms`` without one.
NEXT_CHANGE = """
(ms) => new Promise((done) => {
  const main = document.getElementById("main") || document.body;
  const seen = new MutationObserver(() => { seen.disconnect(); clearTimeout(timer); done(true); });
  const timer = setTimeout(() => { seen.disconnect(); done(false); }, ms);
  seen.observe(main, { childList: true, subtree: true, attributes: true, characterData: true });
})
"""


def next_change(page: Any, seconds: float = 2.0) -> bool:
    """Wait for the page to change (True) or ``seconds`` without a change (False): a loop that
    acts on a screen waits for the screen to answer, not for a fixed time."""
    return bool(page.evaluate(NEXT_CHANGE, int(seconds * 1000)))


def until(page: Any, condition: str, seconds: float = 15) -> None:
    """Wait in the page until the JavaScript ``condition`` holds (the page's CSP allows no
    string to be evaluated later, so the condition is part of the function sent)."""
    held = page.evaluate(
        "() => new Promise((done) => {"
        f"  const check = () => {{ if ({condition}) {{ clearInterval(t); done(true); }} }};"
        "  const t = setInterval(check, 50);"
        f"  setTimeout(() => {{ clearInterval(t); done(false); }}, {int(seconds * 1000)});"
        "  check();"
        "})"
    )
    assert held, f"{condition} did not come true within {seconds:.0f} s"


def copy_shot(name: str, dest: Path) -> None:
    shutil.copy(SHOTS / f"{name}.png", dest)


def join_phone(page: Any, code: str, name: str) -> None:
    """Open the room's link on a phone and join as a player called ``name``."""
    page.goto(f"/#/r/{code}")
    page.fill("#join-name", name)
    page.click("form.join button[type=submit]")
    page.wait_for_selector(".seats")


def approve_table(host: Any, name: str) -> None:
    """On the host's page, approve the table screen called ``name`` that asks to join."""
    request = host.locator(".table-requests li.request", has_text=name)
    request.get_by_role("button", name=f"Approve {name} as the table screen").click()
    request.wait_for(state="detached")


def join_table(table: Any, host: Any, code: str, name: str) -> None:
    """Open the table screen on ``table``, ask to join as ``name``, and have the host approve
    it on the host's page: a table screen comes in only with the host's say-so."""
    table.goto(f"/#/t/{code}")
    table.fill("#join-name", name)
    table.click("form.join button[type=submit]")
    table.get_by_text("Waiting for the host to let this screen in.").wait_for()
    approve_table(host, name)
    table.wait_for_selector(".seats")
