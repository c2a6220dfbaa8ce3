"""Werwölfe Kids played the way a table of people plays it, in a real browser at 390×844 with
real taps: a phone for the Village team against a bot Werewolf team, with a table screen; and
a whole match with everyone on one phone. At every screen: nothing sticks out sideways, the
next thing to tap is on the screen (or one scroll away), nothing behind a closed door shows,
and the end shows the results as a table with one row per player (each team is one seat).

A tap that the screen did not take is tapped again, as a person would: a view that arrives
between a finger going down and coming up redraws the screen under it (about once a match
with bots that act at once)."""

from __future__ import annotations

import random
import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import DESKTOP, Pages, join_table
from tests.web.test_shared_device import everyone_on_this_device, on_handover
from tests.web.test_werwoelfe_kids import remember, werewolf_plan
from tests.web.walkthrough import ACTIONS, fits, in_reach, results

PREFERENCE = ("close", "done", "roll", "wake", "haunt", "open", "move", "stay")


def check_screen(page: Any, name: str, shots: set[str], pages: Pages) -> None:
    """What every screen of a phone must do."""
    fits(page, name)
    in_reach(page, name)
    # What lies behind a door is on the screen only while that door stands open for this
    # screen's team (or while the village places its people, or at the end).
    behind_closed = page.evaluate(
        """() => document.querySelector('.kids-placing, .kids-over') ? 0
             : document.querySelectorAll('.kids .house:not(.open) .house-inside').length"""
    )
    assert behind_closed == 0, f"{name}: {behind_closed} closed doors show what is behind them"
    if name not in shots:
        shots.add(name)
        pages.shot(page, f"walk-kids-{name}")


def screen_name(page: Any) -> str:
    if on_handover(page):
        return "handover"
    return str(
        page.evaluate(
            """() => { const k = document.querySelector('.kids');
                       if (!k) return 'other';
                       const acts = [...document.querySelectorAll('button[data-action]')]
                         .map((b) => b.dataset.action.split(' ')[0]);
                       return [...k.classList].filter((c) => c !== 'kids').join('-')
                         + (acts.length ? '-' + [...new Set(acts)].sort().join('+') : ''); }"""
        )
    )


def offered(page: Any) -> list[str]:
    return list(
        page.eval_on_selector_all(
            "button[data-action]:not([disabled])", "els => els.map(e => e.dataset.action)"
        )
    )


def choose(page: Any, rng: random.Random, seen: dict[str, str], werewolves: bool) -> str | None:
    actions = offered(page)
    if werewolves:
        remember(page, seen)
        planned = werewolf_plan(page, seen)
        if planned:
            return planned
    for name in PREFERENCE:
        named = [a for a in actions if a.split()[0] == name]
        if named:
            return rng.choice(named)
    return None


def tap(page: Any, action: str) -> None:
    """Tap an action, and tap again if the screen did not take it (as a person would)."""
    gone = (
        "a => !document.querySelector(`button[data-action='${a}']:not([disabled])`)"
        " || document.querySelector('.handover-screen, .kids .duel, .kids-over')"
    )
    for _ in range(5):
        try:
            # The screen is redrawn whenever a view arrives; a tap that lands on a button
            # being replaced is tried again, as long as the game still offers the action.
            page.click(f"button[data-action='{action}']:not([disabled])", timeout=8000)
            page.wait_for_function(gone, arg=action, timeout=4000)
            return
        except PlaywrightTimeout:
            if action not in offered(page):
                return
    raise AssertionError(f"the screen never took {action!r}")


def place_by_hand(page: Any, people: int) -> None:
    """Tap a person, then a house, as a child does (the rest the app places)."""
    for _ in range(people):
        pick = page.locator("button[data-action^='pick ']:not([disabled])").first
        pick.click()
        page.wait_for_selector("button[data-action^='put ']:not([disabled])")
        page.locator("button[data-action^='put ']:not([disabled])").first.click()
        page.wait_for_selector("button[data-action^='pick ']:not([disabled])")
    page.click("button[data-action='scatter']:not([disabled])")
    page.wait_for_selector("button[data-action='done']:not([disabled])")


def check_results(page: Any) -> None:
    page.wait_for_selector(".kids-over .kids-results")
    # one row per player: the Village team and the Werewolf team
    rows = results(page, ".kids-results", ["Village team", "Werewolf team"])
    assert [row[0] for row in rows] == ["Village team", "Werewolf team"]
    assert sorted(row[2] for row in rows) == ["lost", "won"]


def test_a_village_phone_against_a_bot_werewolf_team_with_a_table_screen(pages: Pages) -> None:
    phone = pages.new()
    phone.goto("/")
    check_screen(phone, "home", set(), pages)
    phone.check("input[name=game][value=werwoelfe-kids]")
    phone.fill("#create-name", "Mia")
    phone.click("text=Create the room")
    phone.wait_for_selector(".seats")
    code = str(phone.text_content(".big-code .code")).strip()
    table = pages.new(DESKTOP)
    join_table(table, phone, code, "Tisch")
    shots: set[str] = set()
    check_screen(phone, "lobby", shots, pages)
    phone.click("[data-key='start']")  # the empty Werewolf seat gets a bot
    phone.wait_for_selector("button[data-action^='pick ']:not([disabled])")
    check_screen(phone, screen_name(phone), shots, pages)
    place_by_hand(phone, 3)
    check_screen(phone, "placed", shots, pages)
    phone.click("button[data-action='done']:not([disabled])")
    rng = random.Random(3)
    deadline = time.monotonic() + 180
    while not phone.locator(".kids-over").count():
        assert time.monotonic() < deadline, "the match did not end in time"
        phone.wait_for_function(
            "sel => document.querySelector(sel) || document.querySelector('.kids-over')",
            arg=ACTIONS,
            timeout=60000,
        )
        if phone.locator(".kids-over").count():
            break
        check_screen(phone, screen_name(phone), shots, pages)
        action = choose(phone, rng, {}, werewolves=False)
        if action is None:
            continue
        tap(phone, action)
    check_screen(phone, "over", shots, pages)
    check_results(phone)
    table.wait_for_selector(".kids-over .kids-results")
    assert table.locator(".kids-results tbody tr").count() == 2
    assert "bot" in table.locator(".kids-results tbody tr").nth(1).inner_text()
    pages.shot(table, "walk-kids-table-over")
    assert {"handover"}.isdisjoint(shots), "a phone per team never shows a hand-over"


def test_a_whole_match_with_everyone_on_one_phone(pages: Pages) -> None:
    phone = pages.new()
    phone.goto("/")
    phone.check("input[name=game][value=werwoelfe-kids]")
    phone.fill("#create-name", "Mum")
    phone.click("text=Create the room")
    phone.wait_for_selector(".seats")
    everyone_on_this_device(phone)
    shots: set[str] = set()
    check_screen(phone, "lobby-shared", shots, pages)
    phone.click("[data-key='start']")
    rng = random.Random(5)
    seen: dict[str, str] = {}
    deadline = time.monotonic() + 240
    while not phone.locator(".kids-over").count():
        assert time.monotonic() < deadline, "the match did not end in time"
        # Nobody ever taps "Done, hide my screen": the device covers itself after every turn,
        # after a door closes and after a duel.
        phone.wait_for_function(
            "sel => document.querySelector(sel) || document.querySelector('.kids-over')",
            arg=ACTIONS,
            timeout=60000,
        )
        if phone.locator(".kids-over").count():
            break
        name = screen_name(phone)
        check_screen(phone, name, shots, pages)
        if on_handover(phone):
            before = phone.locator(".handover-buttons button").first.inner_text()
            phone.locator(".handover-buttons button").first.click()
            phone.wait_for_selector(".device-bar")
            seen_by = "werewolves" if "Werewolf" in before else "village"
            phone.evaluate(f"window.__team = '{seen_by}'")
            continue
        werewolves = phone.evaluate("window.__team") == "werewolves"
        if phone.locator(".kids .duel").count():
            # both teams are awake and roll on the one screen
            assert phone.locator("[data-key='kids-roll-village']").is_visible()
            assert phone.locator("[data-key='kids-roll-werewolves']").is_visible()
            team = rng.choice(["village", "werewolves"])
            phone.click(f"[data-key='kids-roll-{team}']")
            # the duel panel is busy until the device was handed over and the dice fell
            phone.wait_for_function("() => !document.querySelector('.duel[aria-busy]')")
            continue
        if phone.locator("button[data-action='scatter']:not([disabled])").count():
            place_by_hand(phone, 2)
            continue
        action = choose(phone, rng, seen, werewolves)
        if action is None:
            continue
        tap(phone, action)
    check_screen(phone, "over-shared", shots, pages)
    check_results(phone)
    assert "handover" in shots
