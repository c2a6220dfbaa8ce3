"""Werewolf played the way a table of people plays it, in a real browser at 390×844 with real
taps: three people on their phones, four bots and a table screen; and a whole match with all
seven players passing one phone around. At every screen: nothing sticks out sideways, the next
thing to tap is on the screen (or one scroll away), and no unit of the page names a player's
role or card that the view the server sent this screen does not reveal (nor, on a hidden
phone, its own); the end shows every card in a table with one row per player.

People do what people do: at night everyone shows their screen (to see whether they have
something to do) and acts; by day they vote on the hidden screen; the host ends each
discussion. The deal is the server's own (the match is started with the lobby's button); what
each screen was allowed to show is checked against the server's record of the match once it
is over (tests/web/walkthrough.py)."""

from __future__ import annotations

import contextlib
import random
import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import DESKTOP, Pages, join_phone, join_table, next_change
from tests.web.test_shared_device import everyone_on_this_device
from tests.web.walkthrough import NEXT_TAP, Screen, Walk, results
from wolfden.games.werewolf.roles import Role

ROLE_NAMES = {
    "werewolf": "Werewolf",
    "seer": "Seer",
    "guardian": "Guardian",
    "villager": "Villager",
}
END_DISCUSSION = "[data-key='host-end_discussion-']"
HOST_TAP = (NEXT_TAP[0], END_DISCUSSION, *NEXT_TAP[1:])
"""The host's next tap: an action of the game, else ending the discussion."""


def create(page: Any, name: str) -> str:
    """The host starts a Werewolf room with short nights and ballots (a night lasts 4 s at
    least, so that a night whose roles the bots hold is still seen on the phones)."""
    page.goto("/")
    page.check("input[name=game][value=werewolf]")
    page.fill("#opt-werewolf-night_seconds", "20")
    page.fill("#opt-werewolf-vote_seconds", "20")
    page.click("form.create .more-options summary")
    page.fill("#opt-werewolf-min_night_seconds", "4")
    page.fill("#create-name", name)
    page.click("text=Create the room")
    page.wait_for_selector(".seats")
    return str(page.text_content(".big-code .code")).strip()


SCREEN_NAME = """
async () => {
  const { app } = await import("/js/app.js");
  if (document.querySelector(".handover-screen")) return "handover";
  const v = app.msg && app.msg.view;
  if (!v || !document.querySelector(".werewolf")) return "lobby";
  if (!v.you) return `table-${v.phase}`;
  if (v.phase === "end") return "over";
  const hidden = document.querySelector(".privacy-bar.is-hidden") ? "-hidden" : "";
  if (!v.you.alive) return `out-${v.phase}`;
  if (v.phase === "night") return hidden ? "night-hidden" : `night-${v.you.role}`;
  return v.phase + hidden;
}
"""


def screen_name(page: Any) -> str:
    return str(page.evaluate(SCREEN_NAME))


def offered(page: Any) -> list[dict[str, str]]:
    return list(
        page.eval_on_selector_all(
            "button[data-action]:not([disabled])",
            "els => els.map(e => ({action: e.dataset.action, text: e.innerText}))",
        )
    )


def choose(page: Any, rng: random.Random) -> str | None:
    """What a person taps: a Werewolf joins the pick a packmate made; anyone else picks one."""
    actions = offered(page)
    if not actions:
        return None
    chosen = page.eval_on_selector_all(
        "button[data-action][aria-pressed='true']", "els => els.map(e => e.dataset.action)"
    )
    agreed = [a for a in actions if a["action"].startswith("pick") and "picked by" in a["text"]]
    if agreed:
        return None if agreed[0]["action"] in chosen else agreed[0]["action"]
    if chosen:
        return None  # picked already: the pack has not picked another yet
    return rng.choice(actions)["action"]


def tap(page: Any, action: str) -> None:
    """Tap an action, and again if the screen did not take it: a view that arrives between a
    finger going down and coming up redraws the screen under it."""
    button = f"button[data-action='{action}']:not([disabled])"
    taken = (
        "sel => { const b = document.querySelector(sel);"
        " return !b || b.getAttribute('aria-pressed') === 'true'; }"
    )
    for _ in range(5):
        try:
            page.click(button, timeout=8000)
            page.wait_for_function(taken, arg=button, timeout=4000)
            return
        except PlaywrightTimeout:
            if action not in [a["action"] for a in offered(page)]:
                return
    raise AssertionError(f"the screen never took {action!r}")


def secrets(screen: Screen, state: Any) -> list[tuple[str, ...]]:
    """What the screen may not say: the role and card of every player its view does not
    reveal (a Seer's answer reveals whether a player is a Werewolf), and on a hidden phone
    its own."""
    view = screen.view or {}
    you = view.get("you") or {}
    found = {c["target"] for c in you.get("checks", []) if c["werewolf"]}
    out: list[tuple[str, ...]] = []
    for entry, card in zip(view["seats"], state.cards):
        # a hidden phone keeps its own card to itself while that card is not public
        own = entry["seat"] == you.get("seat") and screen.hidden and entry["alive"]
        if "role" in entry and not own:
            continue
        role = ROLE_NAMES[card.role.value]
        if not (card.role is Role.WEREWOLF and entry["seat"] in found):
            out.append((entry["name"], role))
        out.append((card.id,))
        if card.label != role:
            out.append((card.label,))
    if screen.hidden and you.get("pack"):
        out.append(("Your pack",))
    return out


def check_ending(page: Any, names: list[str]) -> None:
    rows = results(page, ".roles-table", names)
    assert {row[1] for row in rows} >= {"Werewolf", "Seer", "Guardian", "Villager"}, rows


def test_three_phones_four_bots_and_a_table_screen(pages: Pages) -> None:
    people = ["Ada", "Bea", "Cy"]
    phones = [pages.new() for _ in people]
    host = phones[0]
    code = create(host, people[0])
    for page, name in zip(phones[1:], people[1:]):
        join_phone(page, code, name)
    table = pages.new(DESKTOP)
    join_table(table, host, code, "Table")
    host.wait_for_function("() => document.querySelectorAll('.presence-here').length >= 3")
    walk = Walk(pages, "walk-werewolf")
    walk.screen(host, "lobby", next_tap=["[data-key='start']"])
    host.select_option("#fill-with", "rules")
    host.click("[data-key='start']")
    for page in phones:
        page.wait_for_selector(".werewolf")

    rng = random.Random(7)
    deadline = time.monotonic() + 240
    while not all(p.locator(".ending").count() for p in [*phones, table]):
        assert time.monotonic() < deadline, "the match did not end in time"
        on_table = screen_name(table)
        walk.screen(table, on_table)
        acted = False
        for page in phones:
            if page.locator(".ending").count():
                continue
            is_host = page is host
            name = screen_name(page)
            walk.screen(page, name, next_tap=HOST_TAP if is_host else NEXT_TAP)
            if name == "night-hidden":
                # everyone looks at night, to see whether they have something to do
                page.click("[data-key='reveal']")
                page.wait_for_selector(".privacy-bar.is-shown")
                name = screen_name(page)
                walk.screen(page, name)
            action = choose(page, rng)
            if action is not None:
                tap(page, action)
                acted = True
            # the host ends the discussion once the table screen shows it
            if is_host and on_table == "table-discussion" and page.locator(END_DISCUSSION).count():
                page.click(END_DISCUSSION)
                acted = True
        if not acted:
            next_change(host)

    for page in phones:
        walk.screen(page, "over")
        check_ending(page, [*people, "Bot 4", "Bot 5", "Bot 6", "Bot 7"])
    walk.screen(table, "table-end")
    check_ending(table, [*people, "Bot 4", "Bot 5", "Bot 6", "Bot 7"])
    walk.check_secrets(host, secrets)
    seen = walk.shots
    missing = {"lobby", "night-hidden", "table-discussion", "over", "table-end"} - seen
    assert not missing, f"never seen: {missing} (seen: {sorted(seen)})"
    assert [name for name in seen if name.startswith(("vote", "revote"))], seen


def test_seven_players_pass_one_phone_around(pages: Pages) -> None:
    phone = pages.new()
    names = ["Ada", "Bea", "Cy", "Dot", "Eve", "Fay", "Gus"]
    create(phone, names[0])
    everyone_on_this_device(phone, names)
    walk = Walk(pages, "walk-werewolf-shared")
    walk.screen(phone, "lobby", next_tap=["[data-key='start']"])
    phone.click("[data-key='start']")
    phone.wait_for_selector(".handover-screen, .werewolf")

    rng = random.Random(11)
    handed: dict[str, set[str]] = {}  # who has had the device in this phase
    deadline = time.monotonic() + 300
    while not phone.locator(".ending").count():
        assert time.monotonic() < deadline, "the match did not end in time"
        name = screen_name(phone)
        walk.screen(phone, name, next_tap=HOST_TAP)
        if name == "handover":
            # With secret turns the device goes round everyone, in turn; round again while
            # someone still has something to do.
            phase = str(phone.evaluate(PHASE_KEY))
            had = handed.setdefault(phase, set())
            buttons = phone.locator(".handover-buttons button:not([disabled])")
            labels = buttons.all_inner_texts()
            if set(labels) <= had:
                had.clear()
            pick = next(i for i, t in enumerate(labels) if t not in had)
            had.add(labels[pick])
            buttons.nth(pick).click()
            phone.wait_for_selector(".device-bar")
            continue
        if phone.locator(".device-bar").count():
            action = choose(phone, rng)
            if action is not None:
                tap(phone, action)
            elif phone.locator("[data-key='cover']").count():
                # nothing (more) to do, or the Seer has read the answer: hide the screen
                phone.click("[data-key='cover']")
                phone.wait_for_selector(".device-bar", state="detached")
            continue
        if phone.locator(END_DISCUSSION).count():
            # the clock may end the discussion (or a view redraw it) meanwhile: then look again
            with contextlib.suppress(PlaywrightTimeout):
                phone.click(END_DISCUSSION, timeout=5000)
            continue
        next_change(phone)

    walk.screen(phone, "over")
    check_ending(phone, names)
    walk.check_secrets(phone, secrets)
    missing = {"handover", "table-discussion", "over"} - walk.shots
    assert not missing, f"never seen: {missing} (seen: {sorted(walk.shots)})"


PHASE_KEY = """
async () => {
  const { app } = await import("/js/app.js");
  const v = app.msg && app.msg.view;
  return v ? `${v.phase} ${v.round}` : "";
}
"""
