"""Werewords' part of the walkthrough checks: which secrets a screen must keep (the Mayor's
candidate words and the Magic Word, read from the match as the server holds it), which control
is a Werewords screen's primary action, what a screen is called, and that the role names shown
are the ones the screen's view gives."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from tests.web.conftest import Pages
from tests.web.screen_checks import (
    last_view,
    no_horizontal_overflow,
    primary_action_visible,
    secrets_on_screen,
)
from wolfden import games
from wolfden.engine.config import config_from_json
from wolfden.engine.types import Action

# The renderer's names for the roles (games/werewords.js ROLE_NAMES).
ROLE_NAMES = {
    "villager": "Villager",
    "seer": "Seer",
    "fortune_teller": "Fortune Teller",
    "apprentice": "Apprentice",
    "werewolf": "Werewolf",
    "minion": "Minion",
    "mason": "Mason",
    "thing": "Thing",
    "beholder": "Beholder",
    "doppelganger": "Doppelgänger",
}

# A Werewords screen's primary action, in order: the first one shown and enabled is the one a
# person looks for.
PRIMARY = (
    ".handover-buttons button:not([disabled])",
    "[data-key^='comp-show-']:not([disabled])",
    "[data-key='reveal']:not([disabled])",
    "[data-key='claim']:not([disabled])",
    "button[data-action]:not([disabled])",
    "[data-key='ready']:not([disabled])",
    "form.ask-form .ask-send:not([disabled])",
    "[data-key='host-next-']:not([disabled])",
    "[data-key='ww-play_again-']:not([disabled]), [data-key='host-play_again-']:not([disabled])",
)


def match_state(server: Any, code: str) -> Any:
    """The room's latest match as the server holds it: its setup and every action, replayed
    by the rules (what no screen may show more of than its view holds)."""
    game = games.get("werewords")
    db = sqlite3.connect(f"file:{server.db}?mode=ro", uri=True)
    try:
        row = db.execute(
            "SELECT id, config, seed FROM matches WHERE room = ? ORDER BY started DESC LIMIT 1",
            (code,),
        ).fetchone()
        if row is None:
            return None
        match, config, seed = row
        actions = db.execute(
            "SELECT seat, action FROM match_actions WHERE match = ? ORDER BY idx", (match,)
        ).fetchall()
    finally:
        db.close()
    state = game.setup(config_from_json(game.Config, json.loads(config)), int(seed))
    for seat, text in actions:
        state, _ = game.apply(state, seat, Action.parse(text))
    return state


class Secrets:
    """The words of the round no screen may name unless its view holds them: the Mayor's
    candidates (the Magic Word is one of them), learnt from the server's match once drawn."""

    def __init__(self, server: Any, code: str) -> None:
        self.server, self.code = server, code
        self.candidates: tuple[str, ...] = ()
        self.word: str | None = None

    def words(self) -> tuple[str, ...]:
        if not self.candidates or self.word is None:
            state = match_state(self.server, self.code)
            if state is None:
                return ()
            self.candidates = tuple(state.candidates)
            self.word = state.word
        return self.candidates


def primary(page: Any) -> str | None:
    """The selector of this screen's primary action, or None on a screen that only waits."""
    for selector in PRIMARY:
        if page.locator(selector).count():
            return selector
    return None


def screen_name(page: Any) -> str:
    """A name for the kind of screen: its phase, and what its viewer may do on it."""
    return str(
        page.evaluate(
            """() => {
                 if (document.querySelector('.handover-screen')) return 'handover';
                 const msg = window.__lastView;
                 if (!msg || !msg.view) return 'lobby';
                 const v = msg.view;
                 const acts = [...new Set((msg.legal || []).map((a) => a.name))]
                   .filter((n) => !n.startsWith('ask')).sort();
                 const who = document.body.dataset.device === 'table' ? 'table'
                   : v.you && v.you.mayor ? 'mayor' : 'player';
                 const asking = document.querySelector('form.ask-form') ? ['asking'] : [];
                 return [v.mode === 'companion' ? 'companion' : 'online', who, v.phase,
                         v.step, ...acts, ...asking].filter(Boolean).join('-');
               }"""
        )
    )


def roles_shown_are_known(page: Any) -> None:
    """Every role named on the card and in the table of cards is one the view gives: the
    viewer's own card, or a card revealed to them."""
    seen = page.evaluate(
        """() => ({
             card: [...document.querySelectorAll('.card-panel .role-name')]
               .map((e) => e.innerText.trim()),
             rows: [...document.querySelectorAll('.roles-table tbody tr')]
               .map((r) => [r.querySelector('th').innerText.trim(),
                            r.querySelector('td').innerText.trim()]),
             view: window.__lastView && window.__lastView.view,
           })"""
    )
    view = seen["view"] or {}
    you = view.get("you") or {}
    own = {ROLE_NAMES.get(r, r) for r in (you.get("role"), you.get("role_now")) if r}
    for name in seen["card"]:
        assert name in own, f"the card says {name!r}; the view gives {own or 'no role'}"
    revealed = {ROLE_NAMES.get(r, r) for r in (view.get("revealed") or {}).values()}
    for who, role in seen["rows"]:
        assert role in revealed | own or role not in ROLE_NAMES.values(), (
            f"{who}'s row says {role!r}; the view reveals {revealed}"
        )


def check_screen(
    page: Any,
    pages: Pages,
    shots: set[str],
    secrets: Secrets,
    *,
    prefix: str,
    table: bool = False,
) -> str:
    """What every Werewords screen must do; a screenshot of each kind of screen, once."""
    name = screen_name(page)
    if table:
        # the table screen is seen by everyone: it keeps its width as a phone does
        no_horizontal_overflow(page)
    else:
        no_horizontal_overflow(page)
        selector = primary(page)
        if selector:
            primary_action_visible(page, selector)
    words = secrets.words()
    leaked = secrets_on_screen(page, None, words)
    assert not leaked, f"{prefix} {name}: names {leaked}, which its view does not hold"
    if table:
        # the Mayor's other candidates are never on a table screen, whatever its view holds
        others = [w for w in words if w != secrets.word]
        shown = secrets_on_screen(page, {}, others)
        assert not shown, f"{prefix} {name}: the table screen shows the candidates {shown}"
    roles_shown_are_known(page)
    if page.locator(".privacy-bar.is-hidden").count():
        # a hidden phone names neither its owner's card nor a word they know, whatever the
        # view holds: whoever looks over their shoulder sees nothing (once the word is
        # public, found or at the result, it is no secret)
        name += "-hidden"
        shown = secrets_on_screen(page, {}, words)
        # the server's state read after the screen: a word public now was public then or not
        # shown at all (it only ever becomes public)
        if shown and match_state(secrets.server, secrets.code).word_public:
            shown = []
        assert not shown, f"{prefix} {name}: the hidden phone shows {shown}"
        cards = page.locator(".card-panel .role-name").count()
        assert cards == 0, f"{prefix} {name}: the hidden phone shows its card"
    if name not in shots:
        shots.add(name)
        pages.shot(page, f"walk-werewords-{prefix}-{name}")
    return name


def view_of(page: Any) -> dict[str, Any]:
    msg = last_view(page)
    return dict(msg["view"]) if msg and msg.get("view") else {}


def legal_of(page: Any) -> list[str]:
    msg = last_view(page)
    return [" ".join([a["name"], *map(str, a["args"])]) for a in (msg or {}).get("legal") or []]
