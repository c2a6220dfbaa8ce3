"""What every screen of a match walked through in the browser must do, for any game.

A walkthrough plays a whole match with real taps and calls ``Walk.screen`` at every screen of
every device; the screen is checked at once (nothing sticks out sideways; the next thing to tap
is on the screen, or one scroll away) and its text is kept, with the view the page had drawn
it from. When the match is over, ``Walk.check_secrets`` replays the server's record of it and
holds every kept screen to what its viewer may know: the view the page had must be one the
rules gave that viewer, and no unit of the page's text (a line, a row, a button, a tile) may
name a secret the test computes from the true state and that view. ``results`` checks the end
table: one row per player.

    walk = Walk(pages, "werewolf")
    walk.screen(page, "night")               # at every screen
    ...
    rows = results(page, ".roles-table", names)
    walk.check_secrets(page, secrets)        # secrets(screen, state) -> [("Bea", "Seer"), ...]
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tests.web.conftest import PHONE, Pages
from wolfden import games
from wolfden.engine.record import MatchRecord, replay
from wolfden.engine.types import SPECTATOR, TABLE, Viewer
from wolfden.server.wire import encode

NEXT_TAP = (
    "button[data-action]:not([disabled])",
    ".handover-buttons button:not([disabled])",
    "[data-key='reveal']:not([disabled])",
)
"""What a person taps next, first things first: an action of the game; else "I am …, show me";
else "Show my screen"."""
ACTIONS = ", ".join(NEXT_TAP)
"""Any of them (a selector)."""

# The page's text in the units a person reads as one (hidden text included: a screen reader
# says it), each with its labels; the view the page had drawn it from; whose view it was; how
# wide the page is and how far down the next tap of each kind lies (one round trip a screen).
READ = """
async (nextTap) => {
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const bottoms = (sel) => [...document.querySelectorAll(sel)]
    .filter((b) => b.getClientRects().length)
    .map((b) => b.getBoundingClientRect().bottom + window.scrollY);
  const { app } = await import("/js/app.js");
  const units = "h1, h2, h3, h4, p, li, tr, th, td, button, label, caption, summary, legend";
  // text node by text node, so that a card's rank and suit ("14" "Chest") stay two words
  const nodes = (e) => {
    const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    const out = [];
    while (walk.nextNode()) out.push(walk.currentNode.nodeValue);
    return out;
  };
  const text = (e) => [...nodes(e), ...[e, ...e.querySelectorAll("[aria-label], [title]")]
    .flatMap((x) => [x.getAttribute("aria-label"), x.getAttribute("title")])
    .filter(Boolean)].join(" ").replace(/\\s+/g, " ").trim();
  const msg = app.msg;
  const you = app.you || {};
  const device = msg && msg.device;
  return {
    units: [...document.querySelectorAll(units)].map(text).filter(Boolean),
    view: msg ? msg.view : null,
    match: msg ? msg.match : null,
    seat: device ? device.shown : you.role === "player" ? you.seat : null,
    hidden: Boolean(document.querySelector(".privacy-bar.is-hidden")),
    wide: document.documentElement.scrollWidth,
    taps: nextTap.map(bottoms),
  };
}
"""


@dataclass
class Screen:
    """One screen as a person saw it."""

    name: str
    units: list[str]
    view: dict[str, Any] | None
    """The view the page had drawn this screen from (None: a lobby or a hand-over)."""
    seat: int | None
    """The seat whose view it was (None: the table's)."""
    match: str | None
    hidden: bool
    """A phone's screen hidden by the privacy model: it shows nothing of its own seat's secrets."""


def fits(page: Any, name: str, wide: int | None = None) -> None:
    """Nothing sticks out sideways (``wide``: the page's width, when already measured)."""
    if wide is None:
        wide = page.evaluate("() => document.documentElement.scrollWidth")
    width = page.viewport_size["width"]
    assert wide <= width + 1, f"{name}: the page is {wide} px wide on a {width} px screen"


def in_reach(
    page: Any, name: str, next_tap: Sequence[str] = NEXT_TAP, taps: list[list[float]] | None = None
) -> None:
    """The next thing to tap (the first of ``next_tap`` on the page) is on the first screen,
    or one scroll further at most (``taps``: how far down each lies, when already measured)."""
    if taps is None:
        taps = [page.evaluate(READ_TAP, selector) for selector in next_tap]
    for selector, bottoms in zip(next_tap, taps):
        if bottoms:
            height = page.viewport_size["height"]
            down = min(bottoms)
            assert down <= 2 * height, f"{name}: the next tap ({selector}) is {down:.0f} px down"
            return


READ_TAP = """sel => [...document.querySelectorAll(sel)]
  .filter((b) => b.getClientRects().length)
  .map((b) => b.getBoundingClientRect().bottom + window.scrollY)"""


def named(units: Iterable[str], words: tuple[str, ...]) -> list[str]:
    """The units that name every one of ``words`` (as whole words)."""
    patterns = [re.compile(rf"(?<!\w){re.escape(w)}(?!\w)") for w in words]
    return [u for u in units if all(p.search(u) for p in patterns)]


def results(page: Any, table: str, names: list[str]) -> list[list[str]]:
    """The results: a table with one row per player, in which each player's row names them,
    fitting the screen with no word broken across two lines. Answers each row's cells."""
    page.wait_for_selector(f"{table} tbody tr")
    assert page.eval_on_selector(table, "t => t.tagName") == "TABLE", f"{table} is not a table"
    rows: list[list[str]] = page.eval_on_selector_all(
        f"{table} tbody tr",
        "rows => rows.map((r) => [...r.cells].map((c) => c.innerText.trim()))",
    )
    assert len(rows) == len(names), f"{len(rows)} rows for {len(names)} players: {rows}"
    for name in names:
        assert len([r for r in rows if name in r]) == 1, f"no one row of its own for {name}: {rows}"
    fits(page, "results")
    broken = page.eval_on_selector(table, BROKEN_WORDS)
    assert not broken, f"{table} breaks words across lines: {broken}"
    return rows


# The words (split at hyphens, where a line may break) laid out on more than one line.
BROKEN_WORDS = """
(table) => {
  const broken = [];
  const walk = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    if (node.parentElement.closest(".visually-hidden")) continue;
    for (const m of node.nodeValue.matchAll(/[^\\s-]+-?/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      const lines = new Set(rects.map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}
"""


class Walk:
    """The screens of one match, kept as people saw them; the first screen of each kind is
    saved as ``{prefix}-{kind}`` (test-output/screenshots)."""

    def __init__(self, pages: Pages, prefix: str) -> None:
        self.pages = pages
        self.prefix = prefix
        self.screens: list[Screen] = []
        self.shots: set[str] = set()

    def screen(self, page: Any, name: str, *, next_tap: Sequence[str] = NEXT_TAP) -> Screen:
        """Check the screen now on ``page`` (on a phone: the next tap in reach) and keep it
        for the secrets check."""
        read = page.evaluate(READ, list(next_tap))
        fits(page, name, read["wide"])
        if page.viewport_size["width"] <= PHONE["width"]:
            in_reach(page, name, next_tap, read["taps"])
        seen = Screen(
            name, read["units"], read["view"], read["seat"], read["match"], read["hidden"]
        )
        self.screens.append(seen)
        if name not in self.shots:
            self.shots.add(name)
            self.pages.shot(page, f"{self.prefix}-{name}")
        return seen

    def check_secrets(
        self, page: Any, secrets: Callable[[Screen, Any], Iterable[tuple[str, ...]]]
    ) -> None:
        """Hold every kept screen to what its viewer may know, once the match (the one
        ``page`` played) is over: its view must be the rules' view for that viewer in some
        state of the match, and none of ``secrets(screen, state)`` (groups of words that, read
        in one unit, tell what that viewer may not know) may show."""
        read = page.evaluate(READ, [])
        answer = self.pages.server.api("GET", f"/api/matches/{read['match']}")
        record = MatchRecord.from_json(answer)
        game = games.get(record.game)
        states = [step[0] for step in replay(game, record)]
        for screen in self.screens:
            if screen.view is None or screen.match != read["match"]:
                continue
            viewers = [TABLE, SPECTATOR] if screen.seat is None else [Viewer.of(screen.seat)]
            state = next(
                (s for s in states for v in viewers if _wire(game.view(s, v)) == screen.view),
                None,
            )
            assert state is not None, f"{screen.name}: a view the rules never gave {viewers[0]}"
            for words in secrets(screen, state):
                shown = named(screen.units, words)
                assert not shown, f"{screen.name} (seat {screen.seat}) tells {words}: {shown}"


def _wire(obj: Any) -> Any:
    """What the page receives: the server's own JSON encoding, parsed back."""
    return json.loads(encode(obj))
