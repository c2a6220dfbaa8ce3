"""Robbers' Horror's screens one at a time: real views from the rules, drawn by the renderer
on a phone-sized page (the whole match is test_robbers_horror.py)."""

from __future__ import annotations

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
