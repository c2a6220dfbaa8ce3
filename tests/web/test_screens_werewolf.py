"""Werewolf's screens one at a time: real views from the rules, drawn by the renderer on a
phone-sized page (fast checks of what a player sees; the whole match is test_werewolf.py)."""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import DESKTOP, Pages
from tests.web.harness import legal_of, play, show, view_of


def ended() -> Any:
    return play("werewolf", {"players": 7}, 3, lambda g, s: g.outcome(s) is not None)


def test_the_every_card_table_keeps_its_rows_on_the_werewolf_rows(pages: Pages) -> None:
    page = pages.new()
    view = view_of("werewolf", ended(), 0)
    show(page, "werewolf", view, seat=0, outcome={"winners": [1, 2]})
    wolves = page.locator(".roles-table tbody tr").filter(
        has=page.locator("td", has_text=re.compile(r"^\W*Werewolf$"))
    )
    assert wolves.count() == 2
    displays = wolves.first.evaluate(
        "tr => [tr, ...tr.cells].map(c => getComputedStyle(c).display)"
    )
    assert displays == ["table-row"] + ["table-cell"] * 4, displays
    pages.shot(page, "screen-werewolf-end")


def night_one() -> Any:
    # seed 3 deals: villager, werewolf, werewolf, villager, villager, guardian, seer
    return play("werewolf", {"players": 7}, 3, lambda g, s: True)


def screen_text(page: Any) -> str:
    return str(page.inner_text("#main")).replace(" (you)", "")


def test_a_hidden_phone_names_no_role_team_or_pack(pages: Pages) -> None:
    """Hidden (the default on a phone) a Werewolf's, the Guardian's and a Villager's screens
    are word for word the same: no own role, no action panel title, no packmates."""
    page = pages.new()
    state = night_one()
    texts = {}
    for seat, role in ((1, "werewolf"), (5, "guardian"), (0, "villager")):
        view = view_of("werewolf", state, seat)
        assert view["you"]["role"] == role
        show(
            page, "werewolf", view, seat=seat, legal=legal_of("werewolf", state, seat), hidden=True
        )
        texts[role] = screen_text(page)
        assert page.locator(".packmate, .role-card:not(.role-hidden)").count() == 0
        icons = page.eval_on_selector_all("#main .role-icon", "els => els.map(e => e.classList[1])")
        assert set(icons) <= {"role-icon-unknown"}, icons
        pages.shot(page, f"screen-werewolf-hidden-{role}")
    assert texts["werewolf"] == texts["guardian"] == texts["villager"]
    body = texts["werewolf"].replace(page.inner_text(".deal-line"), "")
    for word in ("Werewolf", "Seer", "Guardian", "Villager", "pack", "protect"):
        assert word not in body, word

    # Shown, the Werewolf sees the card, the pack and the targets.
    view = view_of("werewolf", state, 1)
    show(page, "werewolf", view, seat=1, legal=legal_of("werewolf", state, 1), hidden=False)
    assert "Your pack" in page.inner_text(".role-card")
    assert page.locator(".packmate").count() == 2
    assert page.locator("button[data-action^='pick']").count() == 5


def test_the_table_tells_the_night_one_line_at_a_time(pages: Pages) -> None:
    page = pages.new(DESKTOP)
    state = play("werewolf", {"players": 7}, 1, lambda g, s: True)
    view = view_of("werewolf", state, None)
    lines = view["narration"]
    assert len(lines) >= 3
    # a short night: each line gets the shortest pause, three seconds
    deadline = {"at": None, "seconds": 3 * len(lines), "label": "night"}
    show(page, "werewolf", view, table=True, deadline=deadline)
    shown = page.locator(".narration li")
    assert shown.count() == 1, "one line at a time"
    assert shown.first.inner_text() == lines[0]
    assert "current" in (shown.first.get_attribute("class") or "")
    page.wait_for_selector(".narration li.current:nth-child(2)", timeout=15000)
    assert page.inner_text(".narration li.current") == lines[1]
    assert page.locator(".narration li.said").count() == 1
    big, small = page.evaluate(
        "[...document.querySelectorAll('.narration li')].map("
        "(e) => parseFloat(getComputedStyle(e).fontSize))"
    )[::-1]
    assert big > small * 1.4, "the line being said is large"
    pages.shot(page, "screen-werewolf-table-narration")


def test_claims_are_big_buttons_and_read_out_in_the_days_log(pages: Pages) -> None:
    """With structured talk the discussion offers claims as buttons; a pressed one sends the
    claim, and the day's claims are listed for everyone, the table screen included."""
    from wolfden.games import werewolf

    def talked(game: Any, state: Any) -> bool:
        return state.phase is werewolf.Phase.DISCUSSION and len(state.claims) >= 1

    def choose(state: Any, seat: int | None, legal: list[Any]) -> Any:
        wanted = [a for a in legal if a.name == "suspect"]
        return wanted[0] if wanted else legal[0]

    state = play("werewolf", {"players": 7, "talk": True}, 3, talked, choose=choose)
    claim = state.claims[0]
    seat = next(s for s in sorted(state.pending) if s != claim.seat)
    page = pages.new()
    show(
        page,
        "werewolf",
        view_of("werewolf", state, seat),
        seat=seat,
        legal=legal_of("werewolf", state, seat),
    )
    said = page.locator(".talk .claims li")
    assert said.count() == 1
    assert "I suspect" in said.first.inner_text()
    page.get_by_role("button", name="I am the Seer").click()
    page.get_by_role("button", name="I trust…").click()
    target = next(t for t in sorted(state.alive) if t != seat)
    page.locator(f'[data-action="trust {target}"]').click()
    acted = page.evaluate("window.__acted")
    assert acted == [
        {"name": "claim_role", "args": ["seer"]},
        {"name": "trust", "args": [target]},
    ]
    pages.shot(page, "screen-werewolf-claims")
    show(page, "werewolf", view_of("werewolf", state, None), table=True)
    assert page.locator(".talk .claims li").count() == 1
