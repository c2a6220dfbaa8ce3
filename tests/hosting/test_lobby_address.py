"""The lobby as a host sees it on a phone-sized screen: the address for phones, or the warning
that phones cannot open the room's link, with the command that fixes it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.hosting.conftest import Host
from wolfden.server.address import lan_address

pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-output" / "screenshots"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def open_lobby(browser: Any) -> Iterator[Any]:
    """``open_lobby(server)``: a phone-sized page that created a Werewolf room on ``server``
    through its own address 127.0.0.1; fails the test on any console error."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(server: Host) -> Any:
        context = browser.new_context(viewport=PHONE, base_url=server.base)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(15000)
        page.goto("/")
        page.check("input[name=game][value=werewolf]")
        page.fill("#create-name", "Ada")
        page.click("text=Create the room")
        page.wait_for_selector(".seats")
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, "console errors:\n" + "\n".join(errors)


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"] + 1, f"{name}: the page is {wide} px wide on a phone"


def test_on_the_network_the_lobby_shows_the_address_for_phones(start: Any, open_lobby: Any) -> None:
    found = lan_address()
    if found is None:
        pytest.skip("this machine has no address on a local network")
    server = start(listen=("--lan",), launcher="python3 dev.py serve")
    page = open_lobby(server)
    phones = f"http://{found}:{server.port}/"
    page.locator(".phone-address", has_text=phones).wait_for()
    code = page.text_content(".big-code .code").strip()
    assert page.text_content(".join-link") == f"{phones}#/r/{code}"
    assert page.locator(".address-warning").count() == 0
    page.wait_for_function("() => document.querySelector('.qr img').naturalWidth > 0")
    shot(page, "hosting-lobby-lan")


def test_served_to_this_computer_only_the_lobby_warns_and_names_the_fix(
    start: Any, open_lobby: Any
) -> None:
    server = start(launcher="python3 dev.py serve")
    page = open_lobby(server)
    warning = page.locator(".address-warning")
    warning.wait_for()
    assert "Phones cannot open this link" in warning.text_content()
    assert f"127.0.0.1:{server.port}" in warning.text_content()
    fix = f"python3 dev.py serve --lan --port {server.port}"
    assert page.text_content(".address-warning .fix-command") == fix
    assert page.locator(".phone-address").count() == 0
    shot(page, "hosting-lobby-loopback")
