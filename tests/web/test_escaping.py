"""User text is shown as text, never run: names with markup, and a page without inline script."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

from tests.web.conftest import Pages

WEB = Path(__file__).resolve().parents[2] / "src" / "wolfden" / "web"
NASTY = ["<img src=x onerror=z()>", '"><svg onload=z()>', "<script>z()</script>"]


def test_names_with_markup_are_shown_as_plain_text(pages: Pages) -> None:
    host = pages.new()
    host.add_init_script("window.z = () => { window.__ran = true; };")
    host.goto("/")
    host.check("input[name=game][value=werewolf]")
    host.fill("#create-name", NASTY[0])
    host.click("text=Create the room")
    host.wait_for_selector(".seats")
    code = host.text_content(".big-code .code").strip()
    for name in NASTY[1:]:
        other = pages.new()
        other.add_init_script("window.z = () => { window.__ran = true; };")
        other.goto(f"/#/r/{code}")
        other.fill("#join-name", name)
        other.click("form.join button[type=submit]")
        other.wait_for_selector(".seats")
    host.wait_for_function(
        "() => document.querySelectorAll('.seat-row .presence-here').length === 3"
    )
    names = host.locator(".seat-row .seat-name").all_text_contents()
    for name in NASTY:
        assert name in names
    host.click("[data-key='start']")
    host.wait_for_selector(".village")
    tiles = host.locator(".village .tile-name").all_text_contents()
    assert any(NASTY[1] in t for t in tiles)
    assert host.locator("main img[src='x'], main svg[onload], main script").count() == 0
    assert host.evaluate("window.__ran") is None
    pages.shot(host, "escaped-names")


def test_the_page_is_served_with_a_csp_that_forbids_inline_script(pages: Pages) -> None:
    with urllib.request.urlopen(pages.server.base + "/") as response:
        csp = response.headers["content-security-policy"]
        html = response.read().decode()
    script_src = re.search(r"script-src ([^;]*)", csp)
    assert script_src and "'unsafe-inline'" not in script_src.group(1)
    assert "<script>" not in html and not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert not re.search(r"\son[a-z]+=", html), "no inline event handlers"


def test_no_script_builds_html_from_strings() -> None:
    pattern = re.compile(r"\.innerHTML|\.outerHTML|insertAdjacentHTML|document\.write|\beval\(")
    offenders = [
        f"{path.relative_to(WEB)}:{n}"
        for path in WEB.rglob("*.js")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert offenders == []
