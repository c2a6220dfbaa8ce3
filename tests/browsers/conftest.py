"""Firefox ESR and WebKitGTK (Safari's engine) against a real ``wolfden serve``.

Each browser is started once for the module; a browser whose Debian package is missing makes
its tests skip, naming the package to install. ``python3 dev.py test`` installs them when it
runs as root and then sets WOLFDEN_REQUIRE_BROWSERS=1, which turns such a skip into a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browsers import drivers
from tests.server.conftest import ServeProcess

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-output" / "screenshots" / "browsers"
PHONE = (390, 844)
DESKTOP = (1280, 800)

# Lets running transitions and animations finish (at most a second and a half) before a shot.
SETTLE = """
const finished = Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
return Promise.race([finished, new Promise((done) => setTimeout(done, 1500))]).then(() => null);
"""

NEEDS = {
    "firefox": ([drivers.FIREFOX], "firefox-esr"),
    "webkit": ([drivers.WEBKIT_DRIVER, drivers.XVFB], "webkit2gtk-driver and xvfb"),
}


@pytest.fixture(scope="session")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    tmp = tmp_path_factory.mktemp("browsers")
    server = ServeProcess(tmp / "rooms.sqlite3", "--bot-delay", "0", "--grace", "2")
    yield server
    server.stop()


@pytest.fixture(scope="module", params=["firefox", "webkit"])
def engine(request: pytest.FixtureRequest) -> Iterator[drivers.Firefox | drivers.WebKit]:
    name = request.param
    paths, package = NEEDS[name]
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        reason = f"{name}: {', '.join(missing)} not installed (apt-get install {package})"
        if os.environ.get("WOLFDEN_REQUIRE_BROWSERS") == "1":
            pytest.fail(reason + "; WOLFDEN_REQUIRE_BROWSERS=1 asks for every browser")
        pytest.skip(reason)
    browser = drivers.Firefox() if name == "firefox" else drivers.WebKit()
    yield browser
    browser.close()


class Pages:
    """The pages one test opens in one browser; every page's errors fail the test."""

    def __init__(self, engine: drivers.Firefox | drivers.WebKit, serve: ServeProcess) -> None:
        self.engine = engine
        self.base = serve.base
        self.opened: list[drivers.Page] = []
        SHOTS.mkdir(parents=True, exist_ok=True)

    def new(self, size: tuple[int, int] = PHONE) -> drivers.Page:
        page = self.engine.new_page(self.base, *size)
        self.opened.append(page)
        return page

    def shot(self, page: drivers.Page, name: str) -> None:
        """Save a screenshot; a phone-sized page must also fit its width (no sideways scroll)."""
        page.evaluate(SETTLE)
        page.screenshot(SHOTS / f"{self.engine.name}-{name}.png")
        wide, width = page.evaluate(
            "return [document.documentElement.scrollWidth, window.innerWidth];"
        )
        if width < 600:
            assert wide <= width + 1, f"{name}: the page is {wide} px wide in a {width} px window"

    def errors(self) -> list[str]:
        found = []
        for page in self.opened:
            found += page.collect_errors()
        return found

    def close(self) -> list[str]:
        found = self.errors()
        for page in self.opened:
            page.close()
        return found


@pytest.fixture
def pages(engine: drivers.Firefox | drivers.WebKit, serve: ServeProcess) -> Iterator[Pages]:
    opened = Pages(engine, serve)
    failed = True
    try:
        yield opened
        failed = False
    finally:
        errors = opened.close()
    if not failed:
        assert not errors, f"{engine.name} reported errors:\n" + "\n".join(errors)
