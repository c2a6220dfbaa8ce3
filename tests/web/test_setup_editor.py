"""The Werewolf setup editor in a browser: the host builds a custom setup by role, sees its
balance and the suggested change, is told why a setup cannot be dealt, saves and shares it,
then starts it and plays it to the end."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.web.conftest import Pages, copy_shot, next_change, until

IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


def create_room(page: Any) -> str:
    page.goto("/")
    page.check("input[name=game][value=werewolf]")
    page.fill("#opt-werewolf-night_seconds", "10")
    page.fill("#opt-werewolf-discussion_seconds", "10")
    page.fill("#opt-werewolf-vote_seconds", "5")
    page.click("form.create .more-options summary")
    page.fill("#opt-werewolf-min_night_seconds", "0")
    page.fill("#create-name", "Ada")
    page.click("text=Create the room")
    page.wait_for_selector(".setup-editor .setup-roles")
    return page.text_content(".big-code .code").strip()


def estimate_for(page: Any, players: int) -> str:
    """Wait until the editor shows the balance of a setup of ``players`` cards."""
    page.wait_for_function(
        "(n) => { const e = document.querySelector('[data-testid=estimate]');"
        " const t = document.getElementById('setup-title');"
        " return e && !e.textContent.includes('updating') && t &&"
        " t.textContent.includes(n + ' players'); }",
        arg=players,
        timeout=180_000,
    )
    return page.text_content("[data-testid=estimate]")


def test_the_host_builds_a_setup_sees_its_balance_and_plays_it(pages: Pages) -> None:
    host = pages.new(hidden=False)
    create_room(host)
    # the seed's 7 players first
    text = estimate_for(host, 7)
    assert "Town wins" in text and "2,000 simulated games with rules bots" in text
    assert "Closest to even" in host.text_content("[data-testid=suggestion]")

    # Build a custom setup of 5: a Witch instead of the Guardian, two Villagers fewer.
    for key in ("guardian-less", "witch-more", "villager-less", "villager-less"):
        host.click(f"[data-key='setup-{key}']")
    host.wait_for_function(
        "() => document.querySelector('[data-testid=count-villager]').textContent === '1'"
    )
    text = estimate_for(host, 5)
    assert "Town wins" in text and "fewer games" in text  # a Witch: the rules play in Python
    until(host, "document.querySelectorAll('.seats > li').length === 5")
    host.locator("#setup-title").scroll_into_view_if_needed()
    host.evaluate("() => document.getElementById('setup-title').scrollIntoView()")
    pages.shot(host, "setup-editor-phone")

    # A setup that cannot be dealt says why and leaves the room's setup as it was.
    host.click("[data-key='setup-villager-less']")
    host.wait_for_selector(".setup-error")
    assert "a game needs one card per player, 5 to 16" in host.text_content(".setup-error")
    pages.shot(host, "setup-editor-refused")
    assert host.locator(".seats > li").count() == 5
    host.click("[data-key='setup-villager-more']")
    estimate_for(host, 5)

    # Save it under a name; its code loads it again on another phone's room.
    host.click("[data-key='setup-share'] summary")
    host.fill("#setup-name", "Witch night")
    host.click("[data-key='setup-save']")
    host.wait_for_selector("[data-testid=saved]")
    saved = host.text_content("[data-testid=saved] strong").strip()
    assert len(saved) == 6
    host.evaluate("() => document.querySelector('[data-key=setup-share]').scrollIntoView()")
    pages.shot(host, "setup-editor-saved")
    other = pages.new(hidden=False)
    create_room(other)
    other.click("[data-key='setup-share'] summary")
    other.fill("#setup-code", saved.lower())
    other.click("[data-key='setup-load']")
    estimate_for(other, 5)
    assert other.text_content("[data-testid=count-witch]") == "1"
    assert other.text_content("[data-testid=count-guardian]") == "0"

    # Start it with bots in the empty seats and play the host's seat to the end.
    host.click("[data-key='start']")
    host.wait_for_selector(".werewolf")
    deadline = time.monotonic() + 240
    while not host.locator(".ending").count():
        assert time.monotonic() < deadline, "the match did not end in time"
        offered = host.eval_on_selector_all(
            "button[data-action]:not([disabled])", "els => els.map(e => e.dataset.action)"
        )
        if offered:
            host.click(f"button[data-action='{offered[0]}']")
        if host.locator("[data-key='host-end_discussion-']").count():
            host.click("[data-key='host-end_discussion-']")
        next_change(host)
    host.wait_for_selector(".roles-table")
    table = host.text_content(".roles-table")
    assert host.locator(".roles-table tbody tr").count() == 5
    assert "Witch" in table and "Guardian" not in table
    until(host, "document.querySelector('.ending') !== null")
    for name in ("setup-editor-phone", "setup-editor-refused", "setup-editor-saved"):
        copy_shot(name, IMAGES / f"{name}.png")
