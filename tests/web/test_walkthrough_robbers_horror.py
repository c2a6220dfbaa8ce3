"""The Werewolves bEat Robbers' Horror played the way a table of people plays it, in a real
browser at 390×844 with real taps: three people on their phones, a bot and a table screen,
two deals to the final standings. At every screen: nothing sticks out sideways, the next thing
to tap is on the screen (or one scroll away), and no unit of the page names a card in another
player's hand or the undealt card (nor, on a hidden phone, its own hand, role or team); the
end shows the standings as a table with one row per player.

People do what people do: a phone stays hidden until its player's turn, who then shows it and
taps a card; a scored deal stays on every phone until its player taps "Continue". What each
screen was allowed to show is checked against the server's record of the match once it is
over (tests/web/walkthrough.py)."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import DESKTOP, Pages, join_phone, join_table, next_change
from tests.web.walkthrough import Screen, Walk, results

SUITS = {"C": "Chest", "R": "Robber"}
TEAMS = {"robbers": "the robber team", "werewolves": "the werewolf team"}
PEOPLE = ["Ada", "Bea", "Cy"]
CONTINUE = "[data-key='continue-deal']"


SCREEN_NAME = """
async () => {
  const { app } = await import("/js/app.js");
  const v = app.msg && app.msg.view;
  if (!v || !document.querySelector(".robbers")) return "lobby";
  if (v.phase === "over") return "over";
  if (document.querySelector(".deal-held")) return "deal-scored";
  const hidden = document.querySelector(".privacy-bar.is-hidden") ? "-hidden" : "";
  if (v.seat === null || v.seat === undefined) return "table";
  return (v.turn === v.seat ? "turn" : "wait") + hidden;
}
"""


def screen_name(page: Any) -> str:
    return str(page.evaluate(SCREEN_NAME))


def strings(value: Any) -> Iterator[str]:
    """Every string in a view."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def secrets(screen: Screen, state: Any) -> list[tuple[str, ...]]:
    """What the screen may not say: the cards in the other hands and the undealt card (by the
    names the page gives them), unless the view names that card elsewhere (the previous deal's
    piles, the table); on a hidden phone its own hand, role and team too."""
    view = screen.view or {}
    known = set(strings({k: v for k, v in view.items() if k != "hand"}))
    counted = {
        f"{SUITS[c['suit']]} {c['rank']}"
        for trick in (view.get("trick"), view.get("last_trick"))
        for c in (trick or {}).get("cards", [])
        if c.get("suit") in SUITS
    }
    # The narration of a played trick says what a Werewolf counted as, which is public: it
    # names a rank of the led suit, not a card anyone holds.
    counted |= {m for unit in screen.units for m in re.findall(r"counting as (\w+ \d+)", unit)}
    unseen = [] if state.undealt is None else [state.undealt]
    for seat, hand in enumerate(state.hands):
        if seat != screen.seat or screen.hidden:
            unseen.extend(hand)
    out: list[tuple[str, ...]] = []
    for card in unseen:
        code = card.notation
        if code[0] not in SUITS or code in known:
            continue  # a special card's name is also a role's, a chip's, a rank's
        rank, suit = code[1:], SUITS[code[0]]
        out.append((f"{rank} {suit}",))  # a card's face
        if f"{suit} {rank}" not in counted:  # a Werewolf may count as it
            out.append((f"{suit} {rank}",))
    if screen.hidden and "role" in view:
        out += [("You are a",), (f"on {TEAMS[view['team']]}",)]
    return out


def tap(page: Any, selector: str) -> None:
    """Tap, and again if the screen did not take it: a view that arrives between a finger
    going down and coming up redraws the screen under it."""
    gone = "sel => !document.querySelector(sel)"
    for _ in range(5):
        try:
            page.click(selector, timeout=8000)
            page.wait_for_function(gone, arg=selector, timeout=4000)
            return
        except PlaywrightTimeout:
            if not page.locator(selector).count():
                return
    raise AssertionError(f"the screen never took {selector!r}")


def test_three_phones_a_bot_and_a_table_screen_play_two_deals(pages: Pages) -> None:
    phones = [pages.new() for _ in PEOPLE]
    host = phones[0]
    host.goto("/")
    host.check("input[name=game][value=robbers-horror]")
    host.fill("#opt-robbers-horror-deals", "2")
    host.fill("#create-name", PEOPLE[0])
    host.click("text=Create the room")
    host.wait_for_selector(".seats")
    code = str(host.text_content(".big-code .code")).strip()
    for page, name in zip(phones[1:], PEOPLE[1:]):
        join_phone(page, code, name)
    table = pages.new(DESKTOP)
    join_table(table, host, code, "Table")
    host.wait_for_function("() => document.querySelectorAll('.presence-here').length >= 3")
    walk = Walk(pages, "walk-robbers")
    walk.screen(host, "lobby", next_tap=["[data-key='start']"])
    host.select_option("#fill-with", "rules")
    host.click("[data-key='start']")
    for page in phones:
        page.wait_for_selector(".robbers")

    rng = random.Random(5)
    deadline = time.monotonic() + 240
    while not all(p.locator(".ending").count() for p in [*phones, table]):
        assert time.monotonic() < deadline, "the match did not end in time"
        acted = False
        for page in phones:
            name = screen_name(page)
            if name == "over":
                continue
            walk.screen(page, name)
            if name == "deal-scored":
                tap(page, CONTINUE)  # the player has read the scoring
                acted = True
                continue
            if name == "turn-hidden":
                page.click("[data-key='reveal']")
                page.wait_for_selector(".privacy-bar.is-shown")
                walk.screen(page, screen_name(page))
            cards = page.eval_on_selector_all(
                ".hand .card-button:not([disabled])", "els => els.map(e => e.dataset.action)"
            )
            if cards:
                tap(page, f".hand .card-button[data-action='{rng.choice(cards)}']:not([disabled])")
                acted = True
        walk.screen(table, f"table-{screen_name(table)}")
        if not acted:
            next_change(host)

    names = [*PEOPLE, "Bot 4"]
    for page in phones:
        walk.screen(page, "over")
        rows = results(page, ".ending .score-table", names)
        assert all(row[0].isdigit() and row[2].isdigit() for row in rows), rows  # place, points
    walk.screen(table, "table-over")
    results(table, ".ending .score-table", names)
    walk.check_secrets(host, secrets)
    seen = walk.shots
    missing = {"lobby", "wait-hidden", "turn-hidden", "turn", "deal-scored", "over"} - seen
    assert not missing, f"never seen: {missing} (seen: {sorted(seen)})"
    assert {"table-table", "table-deal-scored"} & seen, seen
