"""Werewolf's screens one at a time: real views from the rules, drawn by the renderer on a
phone-sized page (fast checks of what a player sees; the whole match is test_werewolf.py)."""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import Pages
from tests.web.harness import play, show, view_of


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
