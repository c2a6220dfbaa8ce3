"""Werewolf in real browsers: four people on their phones, three bots, a table screen.

The deal is seeded so that the people hold a Werewolf, the Seer, the Guardian and a Villager,
and every one of those screens is played through the page itself: clicks on what the screen
offers, nothing sent behind its back.
"""

from __future__ import annotations

import time
from typing import Any

from tests.web.conftest import DESKTOP, Pages, join_table, next_change
from wolfden import games

PEOPLE = ["Ada", "Bea", "Cy", "Dot"]
# Lines only one player may ever learn; the table must never say them aloud.
PRIVATE_MARKS = ("is a Werewolf.", "is not a Werewolf.", "Your vote is in", "You protect")


def create_room(page: Any, name: str, *, night: int = 30, vote: int = 30) -> str:
    page.goto("/")
    page.check("input[name=game][value=werewolf]")
    page.fill("#opt-werewolf-night_seconds", str(night))
    page.fill("#opt-werewolf-vote_seconds", str(vote))
    page.click("form.create .more-options summary")
    page.fill("#opt-werewolf-min_night_seconds", "0")
    page.fill("#create-name", name)
    page.click("text=Create the room")
    page.wait_for_selector(".seats")
    return page.text_content(".big-code .code").strip()


def join(page: Any, code: str, name: str) -> None:
    page.goto(f"/#/r/{code}")
    page.fill("#join-name", name)
    page.click("form.join button[type=submit]")
    page.wait_for_selector(".seats")


def token(page: Any, code: str) -> str:
    return page.evaluate(f"JSON.parse(localStorage.getItem('wolfden.id.{code}')).token")


def seed_for_roles(config: dict[str, Any], wanted: set[str]) -> int:
    """A seed whose deal gives seats 0–3 exactly the wanted roles."""
    game = games.get("werewolf")
    cfg = game.Config(**{k: v for k, v in config.items() if k not in ("villager_only", "names")})
    for seed in range(1, 10_000):
        state = game.setup(cfg, seed)
        if {r.value for r in state.roles[:4]} == wanted:
            return seed
    raise AssertionError("no seed deals those roles")


def actions(page: Any) -> list[dict[str, Any]]:
    """The enabled action buttons the page offers, with their notes."""
    return page.eval_on_selector_all(
        "button[data-action]:not([disabled])",
        "els => els.map(e => ({action: e.dataset.action, text: e.innerText}))",
    )


def keep_shown(page: Any) -> None:
    """A phone's screen hides itself a few seconds after the last touch: show it again, or
    touch it (on its title) to keep it open while its player acts."""
    if page.locator("[data-key='reveal']").count():
        page.click("[data-key='reveal']")
    else:
        page.click("h1.phase-title")


def role_of(page: Any) -> str | None:
    cls = page.get_attribute(".role-card", "class") or ""
    for role in ("werewolf", "seer", "guardian", "villager"):
        if f"role-{role}" in cls:
            return role
    return None


def test_a_whole_werewolf_match_through_the_screens(pages: Pages) -> None:
    phones = [pages.new() for _ in PEOPLE]
    host = phones[0]
    code = create_room(host, PEOPLE[0])
    pages.shot(host, "werewolf-lobby-host-phone", full=True)
    for page, name in zip(phones[1:], PEOPLE[1:]):
        join(page, code, name)
    table = pages.new(DESKTOP)
    join_table(table, host, code, "Table")
    host.wait_for_function("() => document.querySelectorAll('.presence-here').length >= 4")
    for seat in range(4, 7):
        host.click(f"[data-key='addbot-{seat}']")
        host.wait_for_selector(f"[data-key='rmbot-{seat}']")
    pages.shot(table, "werewolf-lobby-table")

    room = pages.server.api("GET", f"/api/rooms/{code}")
    seed = seed_for_roles(room["config"], {"werewolf", "seer", "guardian", "villager"})
    pages.server.api("POST", f"/api/rooms/{code}/start", {"seed": seed}, token(host, code))

    for page in phones:
        page.wait_for_selector(".werewolf")
        page.click("[data-key='card-toggle']")
        page.wait_for_selector(".role-card .card-id")
    roles = {role_of(p): p for p in phones}
    names = dict(zip(phones, PEOPLE))
    assert set(roles) == {"werewolf", "seer", "guardian", "villager"}
    for role, page in roles.items():
        card = page.text_content(".role-card")
        assert "R_WEREWOLF-0" in card, "the card id is on the role card"
        pages.shot(page, f"werewolf-night-{role}")
    # A phone's screen hides itself again by itself a few seconds after the last touch.
    roles["villager"].wait_for_selector(".role-card.role-hidden", timeout=30000)
    pages.shot(roles["villager"], "werewolf-night-hidden")
    table.wait_for_selector(".narration")
    pages.shot(table, "werewolf-night-table")
    # The table shows no one's role during play.
    assert table.locator(".tile-role:not(.unknown)").count() == 0

    shots: set[str] = set()
    reloaded = False
    deadline = time.monotonic() + 150
    while not all(p.locator(".ending").count() for p in phones):
        assert time.monotonic() < deadline, "the match did not end in time"
        for page in roles.values():
            keep_shown(page)
            offered = actions(page)
            picks = [a for a in offered if a["action"].startswith("pick")]
            if page.locator(".seer-answer").count() and "seer-answer" not in shots:
                shots.add("seer-answer")
                pages.shot(page, "werewolf-seer-answer")
            if page.locator(".target.forbidden").count() and "guardian-barred" not in shots:
                shots.add("guardian-barred")
                pages.shot(page, "werewolf-guardian-barred")
            if page.locator(".open-eyes").count() and "dead" not in shots:
                shots.add("dead")
                pages.shot(page, "werewolf-dead-open-eyes", full=True)
            # The people target, vote out and protect the bots first, so that their own screens
            # (the Guardian's second night above all) come round.
            bots = [a for a in offered if a["action"].split()[-1].isdigit()]
            bots = [a for a in bots if int(a["action"].split()[-1]) >= len(PEOPLE)]
            if picks:
                agreed = [a for a in picks if "picked by" in a["text"]]
                if "wolf-pick" not in shots:
                    shots.add("wolf-pick")
                    pages.shot(page, "werewolf-pack-picks")
                page.click(f"button[data-action='{(agreed or bots or picks)[0]['action']}']")
            elif offered:
                own = f"protect {PEOPLE.index(names[page])}"
                mine = [a for a in offered if a["action"] == own]
                choice = (mine or bots or offered)[0]["action"]
                if choice.startswith("vote") and "ballot" not in shots:
                    shots.add("ballot")
                    pages.shot(page, "werewolf-ballot")
                page.click(f"button[data-action='{choice}']")
        if host.locator("[data-key='host-end_discussion-']").count():
            if "discussion" not in shots:
                shots.add("discussion")
                pages.shot(host, "werewolf-day-discussion")
                pages.shot(table, "werewolf-day-table")
            if not reloaded:
                # A phone reloads mid-match: it comes straight back to its seat and card.
                villager = roles["villager"]
                villager.reload()
                villager.wait_for_selector(".werewolf")
                assert villager.locator("#join-name").count() == 0
                villager.click("[data-key='card-toggle']")
                assert role_of(villager) == "villager"
                reloaded = True
            host.click("[data-key='host-end_discussion-']")
        if table.locator(".tally").count() and "tally" not in shots:
            shots.add("tally")
            pages.shot(table, "werewolf-tally-table")
        next_change(host)

    assert reloaded
    assert {"wolf-pick", "ballot", "discussion"} <= shots
    for page in [*phones, table]:
        page.wait_for_selector(".roles-table")
        rows = page.locator(".roles-table tbody tr")
        assert rows.count() == 7
        text = page.text_content(".roles-table")
        for role in ("Werewolf", "Seer", "Guardian", "Villager"):
            assert role in text
    pages.shot(host, "werewolf-ending-phone", full=True)
    pages.shot(table, "werewolf-ending-table")

    spoken = table.evaluate("window.__spoken")
    assert "Night falls. Everyone, close your eyes." in spoken
    assert any("win" in line or "draw" in line for line in spoken)
    assert not [line for line in spoken if any(m in line for m in PRIVATE_MARKS)]
    for page in phones:
        assert page.evaluate("window.__spoken") == [], "a phone never speaks"
