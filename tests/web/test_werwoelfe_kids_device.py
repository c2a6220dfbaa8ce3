"""Werwölfe Kids with everyone on one device ("Everyone on this device"), in a real browser:
both teams roll in a dice duel, the device covers itself after the duel, and in a German game
the hand-over screens speak German."""

from __future__ import annotations

import time
from typing import Any

from tests.web.conftest import Pages
from tests.web.test_shared_device import create, everyone_on_this_device, offered, on_handover

WEREWOLF_HOUSES = ("A1", "A2", "A3")

# The next screen is ready: a hand-over, the end, or something to tap.
READY = (
    "() => document.querySelector('.handover-screen') || document.querySelector('.kids-over')"
    " || document.querySelector('button[data-action]:not([disabled])')"
)


def tap(page: Any, action: str) -> None:
    """Tap an action and wait until the screen has moved on from it."""
    page.click(f"button[data-action='{action}']:not([disabled])")
    page.wait_for_function(
        "a => !document.querySelector(`button[data-action='${a}']:not([disabled])`)"
        " && !document.querySelector('button[data-action][disabled]')",
        arg=action,
    )
    page.wait_for_function(READY)


def log_lines(page: Any) -> list[str]:
    return list(page.eval_on_selector_all(".log-list li", "els => els.map(e => e.textContent)"))


def play_until_a_duel(tablet: Any) -> None:
    """Scatter the people, put the werewolves into A1–A3, and let the village open A1."""
    haunted = 0
    deadline = time.monotonic() + 60
    tablet.wait_for_function(READY)
    while not tablet.locator(".kids .duel").count():
        assert time.monotonic() < deadline, "no dice duel came"
        if on_handover(tablet):
            tablet.locator(".handover-buttons button").first.click()
            tablet.wait_for_selector(".device-bar")
            tablet.wait_for_function(READY)
            continue
        actions = offered(tablet)
        if "close" in actions:
            tap(tablet, "close")
        elif "scatter" in actions:
            tap(tablet, "scatter")
        elif "done" in actions:
            tap(tablet, "done")
        elif any(a.startswith("haunt ") for a in actions):
            tap(tablet, f"haunt {WEREWOLF_HOUSES[haunted]}")
            haunted += 1
        else:
            assert "open A1" in actions, actions
            tap(tablet, "open A1")


def test_both_teams_roll_in_a_dice_duel_on_one_device(pages: Pages) -> None:
    tablet = pages.new()
    create(tablet, "werwoelfe-kids", "Mum")
    everyone_on_this_device(tablet)
    tablet.click("[data-key='start']")
    play_until_a_duel(tablet)
    village = tablet.locator("[data-key='kids-roll-village']")
    wolves = tablet.locator("[data-key='kids-roll-werewolves']")
    assert village.is_visible() and wolves.is_visible(), "both teams roll on the one screen"
    pages.shot(tablet, "shared-kids-duel")
    deadline = time.monotonic() + 60
    while tablet.locator(".kids .duel").count():
        assert time.monotonic() < deadline, "the duel did not end"
        # only the Werewolf team taps (the village's hands are slow): its dice must move
        wolves.click()
        # the duel panel is busy until the device was handed over and the dice fell
        tablet.wait_for_function("() => !document.querySelector('.duel[aria-busy]')")
    rolled = [line for line in log_lines(tablet) if line.startswith("Werewolf team rolls")]
    assert rolled, log_lines(tablet)
    # The Werewolf team won, and its werewolf escapes tonight: the team acts on, but both teams
    # were looking at the duel, so the device covers itself before the night shows anything.
    tablet.wait_for_selector(".handover-screen")
    assert tablet.locator(".kids .house").count() == 0
    assert "Werewolf team" in tablet.inner_text(".handover-screen h1")
    tablet.locator(".handover-buttons button").first.click()
    tablet.wait_for_selector(".kids .house.reachable")
