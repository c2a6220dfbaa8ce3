"""The home page, joining by code and by link, the lobby's seats and host controls, presence."""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import DESKTOP, Pages, join_table


def create(page: Any, name: str) -> str:
    page.goto("/")
    page.check("input[name=game][value=werewolf]")
    page.fill("#create-name", name)
    page.click("text=Create the room")
    page.wait_for_selector(".seats")
    return page.text_content(".big-code .code").strip()


def seat_row(page: Any, seat: int) -> Any:
    return page.locator(f".seat-row[data-seat='{seat}']")


def test_join_by_code_and_by_link_sit_out_bots_and_start(pages: Pages) -> None:
    host = pages.new()
    code = create(host, "Ada")
    qr = host.locator(".qr img")
    qr.wait_for()
    host.wait_for_function("() => document.querySelector('.qr img').naturalWidth > 0")
    assert code in host.text_content(".join-link")

    by_code = pages.new()
    by_code.goto("/")
    by_code.fill("#join-code", code.lower())
    by_code.fill("#join-name", "Bea")
    by_code.click("form.join button[type=submit]")
    by_code.wait_for_selector(".seats")
    assert "seat 2" in by_code.text_content(".lead")

    by_link = pages.new()
    by_link.goto(f"/#/r/{code}")
    assert code in by_link.text_content("h1")
    by_link.fill("#join-name", "Cy")
    by_link.click("form.join button[type=submit]")
    by_link.wait_for_selector(".seats")

    host.wait_for_function(
        "() => document.querySelectorAll('.seat-row .presence-here').length === 3"
    )
    # Bea sits out before the deal, then takes a seat again.
    by_code.click("[data-key='sitout-1']")
    by_code.wait_for_selector("text=You are sitting out.")
    host.wait_for_selector("#others-title")
    assert "sits out" in host.text_content(".people")
    by_code.click("[data-key='take-seat']")
    by_code.wait_for_selector("text=You are in seat")

    # The host asks for a Villager card for Cy, and puts a bot in seat 4, then takes it out.
    host.click("[data-key='vonly-2']")
    seat_row(host, 2).locator("text=villager only").wait_for()
    assert pages.server.api("GET", f"/api/rooms/{code}")["config"]["villager_only"] == [2]
    host.select_option("[data-key='botkind-3']", "random")
    host.click("[data-key='addbot-3']")
    seat_row(host, 3).locator("text=bot: random").wait_for()
    host.click("[data-key='rmbot-3']")
    seat_row(host, 3).locator("text=open seat").wait_for()
    pages.shot(host, "lobby-phone", full=True)
    by_link.wait_for_selector("text=Waiting for the host to start the match.")
    assert by_link.locator("[data-key='start']").count() == 0, "only the host can start"

    desktop = pages.new(DESKTOP)
    join_table(desktop, host, code, "Wall")
    pages.shot(desktop, "lobby-table-desktop")

    host.click("[data-key='start']")
    for page in (host, by_code, by_link, desktop):
        page.wait_for_selector(".werewolf .village")
    cy = by_link
    cy.click("[data-key='card-toggle']")
    assert "Villager" in cy.text_content(".role-card"), "Cy asked for a Villager card"

    # Cy's phone goes away: the others see it at once, and a stand-in bot after the grace time.
    by_link.context.close()
    pages.contexts.remove(by_link.context)
    tile = ".village [data-seat='2']"
    host.locator(f"{tile} .presence-away, {tile} .presence-stand-in").wait_for()
    host.locator(f"{tile} .presence-stand-in").wait_for(timeout=20000)
    assert "a bot plays for now" in host.text_content(".away-line")


def test_a_latecomer_is_offered_to_watch_and_told_why(pages: Pages) -> None:
    host = pages.new()
    code = create(host, "Ada")
    for name in ("Bea", "Cy", "Dan", "Eve", "Fay", "Gus"):
        pages.server.api("POST", f"/api/rooms/{code}/join", {"name": name, "role": "player"})
    seats = pages.server.api("GET", f"/api/rooms/{code}")["seats"]
    assert all(s["participant"] for s in seats), "every seat is taken"
    late = pages.new()
    late.goto(f"/#/r/{code}")
    late.wait_for_selector("form.join")
    assert late.is_checked("[data-key='join-role-spectator']")
    assert "Every seat is taken" in late.text_content(".join-why")
    late.fill("#join-name", "Hal")
    late.click("form.join button[type=submit]")
    late.wait_for_selector(".seats")

    host.click("[data-key='start']")
    host.wait_for_selector(".werewolf")
    later = pages.new()
    later.goto(f"/#/r/{code}")
    later.wait_for_selector("form.join")
    assert later.is_checked("[data-key='join-role-spectator']")
    assert "A match is being played" in later.text_content(".join-why")
    pages.shot(later, "join-latecomer")


def test_the_home_page_reads_the_player_counts_from_the_server(pages: Pages) -> None:
    page = pages.new()
    page.goto("/")
    page.wait_for_selector("input[name=game]")
    for game in pages.server.api("GET", "/api/games"):
        blurb = page.text_content(f"#game-blurb-{game['id']}")
        players = [o for o in game["options"] if o["name"] == "players"]
        if players:
            assert f"{players[0]['min']}–{players[0]['max']} players" in blurb, blurb
        others = re.findall(r"(\d+)–(\d+) players", blurb)
        expected = [(str(players[0]["min"]), str(players[0]["max"]))] if players else []
        assert others == expected, f"{game['id']}: one range, the server's: {blurb}"


def test_the_table_screen_shows_the_qr_code_while_the_room_is_open(pages: Pages) -> None:
    host = pages.new()
    code = create(host, "Ada")
    table = pages.new(DESKTOP)
    join_table(table, host, code, "Wall")
    table.wait_for_function("() => document.querySelector('.invite .qr img').naturalWidth > 0")
    assert code in table.text_content(".invite .big-code")
    pages.shot(table, "lobby-table-qr")
    host.select_option("#fill-with", "rules")
    host.click("[data-key='start']")
    table.wait_for_selector(".werewolf")
    assert table.locator(".qr").count() == 0, "no QR code over the match"
