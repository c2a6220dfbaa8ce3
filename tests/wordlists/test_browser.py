"""In real Chromium against a real `wolfden serve`: Ada publishes a list, Bea finds it by one
of its words, uses it in a new Werewords room, and as the Mayor is offered words from it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from wolfden import games
from wolfden.engine.config import config_from_json

playwright_api = pytest.importorskip("playwright.sync_api")

from tests.web.conftest import PHONE, Server  # noqa: E402

BIRDS = ["Nuthatch", "Goldcrest", "Wren", "Kingfisher", "Treecreeper"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("wordlists-serve"))
    yield srv
    srv.stop()


def refused(text: str) -> bool:
    """The browser logs a refused request (the list with a bad line, on purpose) as an error."""
    return text.startswith("Failed to load resource") and "status of 400" in text


def phone(browser: Any, server: Server, errors: list[str]) -> Any:
    context = browser.new_context(viewport=PHONE, base_url=server.base)
    context.add_init_script("window.speechSynthesis && (window.speechSynthesis.speak = () => {});")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "console",
        lambda m: errors.append(m.text) if m.type == "error" and not refused(m.text) else None,
    )
    page.on("dialog", lambda d: d.accept())
    page.set_default_timeout(15000)
    return page


def seed_making_seat_0_mayor(config: dict[str, Any]) -> int:
    game = games.get("werewords")
    cfg = config_from_json(game.Config, config)
    for seed in range(1, 2000):
        if game.setup(cfg, seed).mayor == 0:
            return seed
    raise AssertionError("no seed makes seat 0 the Mayor")


def test_publish_search_use_in_a_room_and_the_mayor_sees_its_words(
    browser: Any, server: Server
) -> None:
    errors: list[str] = []
    ada = phone(browser, server, errors)
    ada.goto("/words.html")
    ada.fill("#profile-name", "Ada")
    ada.click("text=Create my profile")
    ada.wait_for_selector("text=Signed in as Ada")

    ada.click("#new-list")
    ada.fill("#list-name", "Birds")
    ada.select_option("#list-difficulty", "easy")
    ada.fill("#list-text", "Nuthatch\nGold<crest\n")
    ada.click("text=Save the list")
    problem = ada.wait_for_selector(".problems li")
    assert problem.text_content().startswith("line 2:")
    ada.fill("#list-text", "\n".join(BIRDS))
    ada.click("text=Save the list")
    ada.wait_for_selector("[data-list='Birds']")
    assert "5 entries · easy · all ages" in ada.text_content("[data-list='Birds']")

    ada.click("[data-publish='Birds']")
    ada.fill("#pub-title", "Garden birds")
    ada.fill("#pub-language", "en")
    ada.click("#publisher button[type=submit]")
    ada.wait_for_selector("[data-library='Garden birds']")

    bea = phone(browser, server, errors)
    bea.goto("/words.html")
    bea.fill("#lib-q", "goldcrest")
    bea.select_option("#lib-difficulty", "easy")
    bea.click("#lib-search")
    found = bea.wait_for_selector("#library [data-library='Garden birds']")
    assert "by Ada" in found.text_content()
    assert bea.locator("#library > li").count() == 1
    wide = bea.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"] + 1, f"the word-list page is {wide} px wide on a phone"
    bea.click("[data-use='Garden birds']")
    bea.wait_for_selector(".seats")
    code = bea.url.rsplit("/", 1)[1]

    room = server.api("GET", f"/api/rooms/{code}")
    assert "Goldcrest" not in str(room)  # the players cannot read the Mayor's candidates
    assert room["config"]["difficulty"] == "easy"
    token = bea.evaluate(f"JSON.parse(localStorage.getItem('wolfden.id.{code}')).token")
    seed = seed_making_seat_0_mayor(room["config"])
    server.api("POST", f"/api/rooms/{code}/start", {"seed": seed, "fill_with": "rules"}, token)

    # Bea's phone hides her secrets until she shows it, as a Mayor does when nobody looks.
    bea.wait_for_selector("[data-key='reveal']", timeout=30000)
    bea.click("[data-key='reveal']")
    bea.wait_for_selector("button[data-action^='choose']:not([disabled])", timeout=30000)
    offered = [
        t.strip()
        for t in bea.locator("button[data-action^='choose'] .target-name").all_text_contents()
    ]
    assert offered
    assert set(offered) <= set(BIRDS)
    assert not errors, errors


def test_the_host_feeds_a_room_with_their_own_list_from_the_lobby(
    browser: Any, server: Server
) -> None:
    errors: list[str] = []
    host = phone(browser, server, errors)
    host.goto("/words.html")
    host.fill("#profile-name", "Cleo")
    host.click("text=Create my profile")
    host.wait_for_selector("text=Signed in as Cleo")
    host.click("#new-list")
    host.fill("#list-name", "Kitchen")
    host.select_option("#list-difficulty", "hard")
    host.fill("#list-text", "Colander\nWhisk\nLadle\n")
    host.click("text=Save the list")
    host.wait_for_selector("[data-list='Kitchen']")
    link = host.input_value("#profile-link")
    assert "#key=" in link
    host.fill("#profile-rename", "Cleo R")
    host.click("text=Change my name")
    host.wait_for_selector("text=Signed in as Cleo R")

    host.goto("/")
    host.check("input[name=game][value=werewords]")
    host.fill("#create-name", "Cleo")
    host.click("text=Create the room")
    host.wait_for_selector(".seats")
    code = host.text_content(".big-code .code").strip()
    host.click("text=Choose the word lists")
    host.wait_for_selector("#room-title")
    host.click("[data-list='Kitchen'] >> text=Add to the room")
    host.select_option("#room-list-0", "medium")
    host.uncheck("input[name=room-builtin][value=medium]")
    host.check("input[name=room-cat][value=animals]")
    host.click("#room-apply")
    host.wait_for_selector("text=The room's words are set")
    config = server.api("GET", f"/api/rooms/{code}")["config"]
    assert config["categories"] == ["animals"]
    chosen = server.api("GET", f"/api/rooms/{code}/words")
    assert chosen["sizes"] == {"easy": 0, "medium": 3, "hard": 0, "ridiculous": 0}
    assert chosen["selection"]["lists"] == [
        {
            "source": "mine",
            "id": chosen["selection"]["lists"][0]["id"],
            "name": "Kitchen",
            "difficulty": "medium",
        }
    ]

    other = phone(browser, server, errors)
    other.goto("/words.html" + link[link.index("#") :])
    other.wait_for_selector("text=Signed in as Cleo R")
    other.wait_for_selector("[data-list='Kitchen']")
    assert not errors, errors
