"""Werwölfe Kids in real browsers: the Village team and the Werewolf team each on a phone,
and a table screen, in German. Doors open and close, people move in, the dice duel is raced."""

from __future__ import annotations

import random
import time
from typing import Any

from tests.web.conftest import DESKTOP, Pages, join_table

PREFERENCE = ("close", "done", "scatter", "roll", "wake", "haunt", "open", "move", "stay")


def next_action(page: Any, rng: random.Random) -> str | None:
    offered = page.eval_on_selector_all(
        "button[data-action]:not([disabled])", "els => els.map(e => e.dataset.action)"
    )
    for name in PREFERENCE:
        named = [str(a) for a in offered if a.split()[0] == name]
        if named:
            return rng.choice(named)
    return None


def remember(page: Any, seen: dict[str, str]) -> None:
    """What the Werewolf team saw behind its open doors: a werewolf, a person, or nobody."""
    for house, content in page.eval_on_selector_all(
        ".house.open .content",
        "els => els.map(e => [e.closest('.house').querySelector('.house-name').textContent,"
        " e.className])",
    ):
        seen[house] = "wolf" if "wolf" in content else "empty" if "empty" in content else "person"


def werewolf_plan(page: Any, seen: dict[str, str]) -> str | None:
    """At night the team opens a door it remembers a werewolf behind, and moves where it saw a
    person (or has not looked yet)."""
    offered = page.eval_on_selector_all(
        "button[data-action]:not([disabled])", "els => els.map(e => e.dataset.action)"
    )
    moves = [a for a in offered if a.startswith("move ")]
    moves.sort(key=lambda a: {"person": 0, None: 1, "empty": 2, "wolf": 3}[seen.get(a.split()[1])])
    opens = [a for a in offered if a.startswith("open ") and seen.get(a.split()[1]) == "wolf"]
    return (moves or opens or [None])[0]


def click(page: Any, action: str) -> None:
    page.click(f"button[data-action='{action}']:not([disabled])")


def test_a_match_of_werwoelfe_kids_between_two_phones(pages: Pages) -> None:
    village, wolves = pages.new(), pages.new()
    village.goto("/")
    village.check("input[name=game][value=werwoelfe-kids]")
    village.select_option("#opt-werwoelfe-kids-language", "de")
    village.fill("#create-name", "Dorf")
    village.click("text=Create the room")
    village.wait_for_selector(".seats")
    code = village.text_content(".big-code .code").strip()
    wolves.goto(f"/#/r/{code}")
    wolves.fill("#join-name", "Wolf")
    wolves.click("form.join button[type=submit]")
    wolves.wait_for_selector(".seats")
    table = pages.new(DESKTOP)
    join_table(table, village, code, "Tisch")
    village.click("[data-key='start']")
    for page in (village, wolves, table):
        page.wait_for_selector(".kids-village")
    assert village.get_attribute(".kids", "lang") == "de"
    pages.shot(village, "kids-placing", full=True)

    shots: set[str] = set()
    seen: dict[str, str] = {}
    rng = random.Random(7)
    deadline = time.monotonic() + 150
    while not village.locator(".kids-over").count():
        assert time.monotonic() < deadline, "the match did not end in time"
        for page, team in ((village, "village"), (wolves, "werewolves")):
            if page.locator(".house.open").count() and f"peek-{team}" not in shots:
                shots.add(f"peek-{team}")
                pages.shot(page, f"kids-door-open-{team}")
            if page.locator(".house.reachable").count() and "move" not in shots:
                shots.add("move")
                pages.shot(page, "kids-werewolf-move")
            if page.locator(".duel").count() and "duel" not in shots:
                shots.add("duel")
                pages.shot(page, "kids-dice-duel")
                pages.shot(table, "kids-duel-table")
            if team == "werewolves":
                remember(page, seen)
            action = next_action(page, rng)
            if team == "werewolves" and action and action.split()[0] in ("open", "move"):
                action = werewolf_plan(page, seen) or action
            if action:
                click(page, action)
        time.sleep(0.05)
    for page in (village, wolves, table):
        page.wait_for_selector(".kids-over .ending")
        assert page.locator(".house .house-inside .content").count() == len(
            page.locator(".house").all()
        ), "every door is lifted at the end"
    pages.shot(village, "kids-over", full=True)
    pages.shot(table, "kids-over-table")
    assert {"peek-village", "peek-werewolves"} <= shots
    spoken = table.evaluate("window.__spoken")
    assert spoken, "the table narrates"
