"""What every screen of a walkthrough must do, whatever the game: nothing sticks out sideways,
the screen's primary action is on the first screen or one scroll below it, nothing names a
secret the view the server sent this screen does not hold, and the end shows the results as a
table with one row per player.

The view a screen was drawn from is the page's own: ``RECORD_VIEWS`` (an init script, added
with ``record_views``) keeps the last ``view`` message the page's WebSocket received, before
the page draws it, so the screen read together with it is never newer than it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

# Keeps the last "view" message each page received, as the server sent it (window.__lastView).
RECORD_VIEWS = """
(() => {
  const Native = window.WebSocket;
  window.__lastView = null;
  class Recorded extends Native {
    constructor(...args) {
      super(...args);
      // registered before the page's own handler, so it runs first
      this.addEventListener("message", (e) => {
        try {
          const msg = JSON.parse(e.data);
          if (msg && msg.type === "view") window.__lastView = msg;
        } catch (err) { /* not JSON: the page reports it */ }
      });
    }
  }
  window.WebSocket = Recorded;
})();
"""


def record_views(page: Any) -> None:
    """Record the views this page receives from now on (call before the page opens the room)."""
    page.context.add_init_script(RECORD_VIEWS)


def last_view(page: Any) -> dict[str, Any] | None:
    """The last ``view`` message this page received (view, legal, events, device, ...)."""
    msg = page.evaluate("() => window.__lastView")
    return msg if isinstance(msg, dict) else None


def no_horizontal_overflow(page: Any) -> None:
    """Nothing on the page is wider than the screen: no sideways scrolling."""
    found = page.evaluate(
        """() => {
             const width = document.documentElement.clientWidth;
             const wide = document.documentElement.scrollWidth;
             const out = [...document.querySelectorAll('body *')]
               .filter((e) => { const r = e.getBoundingClientRect();
                                return r.width > 0 && r.right > width + 1; })
               .slice(0, 5)
               .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`);
             return {width, wide, out};
           }"""
    )
    assert found["wide"] <= found["width"] + 1, (
        f"the page is {found['wide']} px wide on a {found['width']} px screen: {found['out']}"
    )


def primary_action_visible(page: Any, selector: str) -> None:
    """The first element matching ``selector`` is shown, enabled, and its bottom edge is on the
    first screen or at most one screen further down (one scroll)."""
    box = page.evaluate(
        """sel => {
             const e = document.querySelector(sel);
             if (!e) return null;
             const r = e.getBoundingClientRect();
             return {bottom: r.bottom + window.scrollY, width: r.width, height: r.height,
                     screen: window.innerHeight, disabled: Boolean(e.disabled)};
           }""",
        selector,
    )
    assert box is not None, f"no {selector} on the screen"
    assert box["width"] > 0 and box["height"] > 0, f"{selector} is not shown"
    assert not box["disabled"], f"{selector} is greyed"
    assert box["bottom"] <= 2 * box["screen"], (
        f"{selector} ends {box['bottom']:.0f} px down: more than one scroll "
        f"on a {box['screen']} px screen"
    )


def _named(text: str, secret: str) -> bool:
    """``secret`` stands in ``text`` as a word of its own (any case)."""
    return re.search(rf"(?<!\w){re.escape(secret)}(?!\w)", text, re.IGNORECASE) is not None


def secrets_on_screen(page: Any, view: dict[str, Any] | None, secrets: Iterable[str]) -> list[str]:
    """The secrets the screen names (in its text, or in an input's value) that ``view`` does
    not hold. ``view=None``: the last view the page received, read with the screen at once."""
    seen = page.evaluate(
        """() => ({
             text: document.body.innerText + '\\n' +
               [...document.querySelectorAll('input, textarea')].map((e) => e.value).join('\\n')
               + '\\n' + [...document.querySelectorAll('[aria-label]')]
                   .map((e) => e.getAttribute('aria-label')).join('\\n'),
             view: window.__lastView,
           })"""
    )
    told = json.dumps(seen["view"] if view is None else view, ensure_ascii=False)
    return [s for s in secrets if s and _named(seen["text"], s) and not _named(told, s)]


def results_table(page: Any, players: Sequence[str], selector: str = "table") -> list[list[str]]:
    """The results are a table with one row per player, in seat order, each row headed by the
    player's name; returns each row's cells (name first)."""
    table = page.locator(selector)
    assert table.count() == 1, f"{table.count()} results tables ({selector})"
    rows = page.eval_on_selector(
        selector,
        """t => [...t.querySelectorAll('tbody tr')].map((r) =>
                 [...r.querySelectorAll('th, td')].map((c) => c.innerText.trim()))""",
    )
    names = [row[0] for row in rows]
    assert len(rows) == len(players), f"{len(rows)} rows for {len(players)} players: {names}"
    for name, player in zip(names, players, strict=True):
        assert name == player or name.startswith(f"{player} "), f"row {name!r} for {player!r}"
    return [list(map(str, row)) for row in rows]
