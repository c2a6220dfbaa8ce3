"""Robbers' Horror's screens one at a time: real views from the rules, drawn by the renderer
on a phone-sized page (the whole match is test_robbers_horror.py)."""

from __future__ import annotations

import re

from tests.web.conftest import Pages
from tests.web.harness import legal_of, play, show, view_of


def test_a_hidden_phone_shows_no_hand_role_or_team(pages: Pages) -> None:
    page = pages.new()
    state = play("robbers-horror", {"players": 4}, 1, lambda g, s: True)
    view = view_of("robbers-horror", state, 0)
    show(
        page,
        "robbers-horror",
        view,
        seat=0,
        legal=legal_of("robbers-horror", state, 0),
        hidden=True,
    )
    assert page.locator(".card-button, .role-line").count() == 0
    text = page.inner_text("#main")
    for word in ("Robber,", "werewolf team", "robber team", "Traitor"):
        assert word not in text
    page.click("[data-key='card-toggle']")
    assert page.locator(".card-button").count() == len(view["hand"])
    assert "You are a" in page.inner_text(".role-line")


def test_the_end_screen_has_no_hand_panel(pages: Pages) -> None:
    page = pages.new()
    state = play("robbers-horror", {"players": 4}, 1, lambda g, s: g.outcome(s) is not None)
    view = view_of("robbers-horror", state, 0)
    show(page, "robbers-horror", view, seat=0, outcome={"winners": view["winners"]})
    assert page.locator(".hand-panel, .role-line").count() == 0
    assert page.locator(".ending table tbody tr").count() == 4
    pages.shot(page, "screen-robbers-end")


NAMES = ["Ada", "Bea", "Cem", "Dov"]
SEAT_OR_CODE = re.compile(r"\b[Ss]eats? \d|\b[CR]\d{1,2}\b")


def second_deal() -> tuple[object, dict[str, object]]:
    state = play("robbers-horror", {"players": 4, "deals": 2}, 1, lambda g, s: len(s.results) == 1)
    return state, view_of("robbers-horror", state, 0)


def test_a_scored_deal_stays_on_screen_until_the_player_continues(pages: Pages) -> None:
    page = pages.new()
    state, view = second_deal()
    assert view["phase"] != "over" and view["last_deal"]
    legal = legal_of("robbers-horror", state, 0)
    show(page, "robbers-horror", view, seat=0, legal=legal, names=NAMES)
    held = page.locator(".deal-held")
    assert held.is_visible(), "the deal's scoring is on screen"
    page.wait_for_function(  # the countdown runs, in seconds to go
        "() => /^0:[0-9]{2}$/.test("
        "document.querySelector('.deal-held .countdown-time').textContent)"
    )
    assert page.locator(".card-button").count() == 0, "the next hand waits"
    steps = held.locator(".steps").inner_text()
    assert "Ada" in steps and not SEAT_OR_CODE.search(steps), steps
    pages.shot(page, "screen-robbers-deal-scored")
    page.click("[data-key='continue-deal']")
    assert page.locator(".deal-held").count() == 0
    assert page.locator(".card-button").count() == len(view["hand"])  # type: ignore[arg-type]


def test_the_scoring_speaks_of_people_and_cards_by_name(pages: Pages) -> None:
    page = pages.new()
    state = play("robbers-horror", {"players": 4}, 1, lambda g, s: g.outcome(s) is not None)
    view = view_of("robbers-horror", state, 0)
    show(page, "robbers-horror", view, seat=0, outcome={"winners": view["winners"]}, names=NAMES)
    steps = page.inner_text(".deal-score .steps")
    assert any(name in steps for name in NAMES)
    assert "Chest" in steps or "Robber" in steps
    assert not SEAT_OR_CODE.search(steps), steps
