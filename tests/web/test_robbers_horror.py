"""The card game in real browsers: two people tap cards from their hands, two bots play along,
the table screen follows; one deal, scored, and the final standings."""

from __future__ import annotations

import re
import time

from tests.web.conftest import DESKTOP, Pages, join_table, next_change


def test_a_deal_of_robbers_horror_through_the_screens(pages: Pages) -> None:
    ada, bea = pages.new(hidden=False), pages.new(hidden=False)
    ada.goto("/")
    ada.check("input[name=game][value=robbers-horror]")
    ada.fill("#opt-robbers-horror-deals", "1")
    ada.fill("#create-name", "Ada")
    ada.click("text=Create the room")
    ada.wait_for_selector(".seats")
    code = ada.text_content(".big-code .code").strip()
    bea.goto(f"/#/r/{code}")
    bea.fill("#join-name", "Bea")
    bea.click("form.join button[type=submit]")
    bea.wait_for_selector(".seats")
    table = pages.new(DESKTOP)
    join_table(table, ada, code, "Table")
    ada.select_option("#fill-with", "rules")
    ada.click("[data-key='start']")
    for page in (ada, bea, table):
        page.wait_for_selector(".robbers .scoreboard")
    assert table.locator(".hand").count() == 0, "the table shows no hand"
    hand = ada.locator(".hand .card-button").count()
    assert hand >= 8

    shots: set[str] = set()
    reloaded = False
    deadline = time.monotonic() + 120
    while not ada.locator(".ending").count():
        assert time.monotonic() < deadline, "the deal did not end in time"
        for page in (ada, bea):
            playable = page.locator(".hand .card-button:not([disabled])")
            if playable.count():
                if "turn" not in shots and page.locator(".trick-card").count():
                    shots.add("turn")
                    pages.shot(page, "robbers-your-turn", full=True)
                playable.first.click()
        if table.locator(".last-trick").count() and "table" not in shots:
            shots.add("table")
            pages.shot(table, "robbers-table")
        if not reloaded and ada.locator(".last-trick").count():
            bea.reload()
            bea.wait_for_selector(".robbers .hand")
            assert bea.locator("#join-name").count() == 0
            reloaded = True
        next_change(ada)
    for page in (ada, bea, table):
        page.wait_for_selector(".ending .score-table")
        page.wait_for_selector(".deal-score")
    assert ada.locator(".ending tbody tr").count() == 4
    assert "Robbers:" in ada.text_content(".deal-score")
    pages.shot(ada, "robbers-final-phone", full=True)
    pages.shot(table, "robbers-final-table", full=True)
    assert reloaded and "table" in shots
    # What happened, read and heard, names the people and the cards, never seat numbers or codes.
    ada.click(".log summary")
    told = [ada.inner_text(".log-list"), "\n".join(table.evaluate("window.__spoken"))]
    for text in told:
        assert "Ada plays" in text or "Bea plays" in text, text
        assert not re.search(r"\b[Ss]eats? \d|\b[CR]\d{1,2}\b", text), text
    assert re.search(r"(Chest|Robber) \d", told[0])
