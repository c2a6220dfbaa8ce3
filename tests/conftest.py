"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Debian Chromium per test module (Playwright's sync API allows one per
    thread; the module's browser tests share it and open their own contexts).

    Not one for the whole run: while Playwright's sync API is open it keeps an event loop
    running in its thread, so every later test on the same worker that starts its own loop
    (``asyncio.run``, the server benchmark) would fail. The suite runs in random order, so
    such a test may follow a browser test; closing Playwright with each module lets it run."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="session")
def postgres() -> Iterator[Any]:
    """A real PostgreSQL server for the whole run (tests/services.py)."""
    from tests.services import postgres_server

    with postgres_server() as server:
        yield server


@pytest.fixture(scope="session")
def redis_service() -> Iterator[Any]:
    """A real Redis server for the whole run (tests/services.py)."""
    from tests.services import redis_server

    with redis_server() as server:
        yield server
