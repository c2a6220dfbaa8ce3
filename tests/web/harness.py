"""Fast, targeted browser checks of one game screen: a real view, made by the game's own rules
and encoded as the server sends it, drawn by the game's renderer in a real page (with the real
stylesheet), without a whole match around it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from wolfden import games
from wolfden.engine.types import TABLE, Viewer
from wolfden.server.wire import encode as _json


def wire(obj: Any) -> Any:
    """What the client receives: the server's own JSON encoding, parsed back."""
    return json.loads(_json(obj))


def play(
    game_id: str,
    config: dict[str, Any],
    seed: int,
    until: Callable[[Any, Any], bool],
    *,
    choose: Callable[[Any, int | None, list[Any]], Any] | None = None,
    limit: int = 5000,
) -> Any:
    """Play the game from its setup, each actor taking a legal action (``choose``'s pick, or
    one drawn with the seed), the clock's action when nobody acts, until
    ``until(game, state)``."""
    game = games.get(game_id)
    state = game.setup(game.Config(**config), seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if until(game, state):
            return state
        actors = sorted(game.actors(state))
        if actors:
            seat: int | None = rng.choice(actors)
            legal = game.legal_actions(state, seat)
            action = choose(state, seat, legal) if choose else rng.choice(legal)
        else:
            deadline = game.deadline(state)
            assert deadline is not None, f"nobody can act in {game_id} and no clock runs"
            seat, action = None, deadline.action
        state, _ = game.apply(state, seat, action)
    raise AssertionError("the wanted state never came")


def view_of(game_id: str, state: Any, seat: int | None) -> dict[str, Any]:
    game = games.get(game_id)
    return wire(game.view(state, TABLE if seat is None else Viewer.of(seat)))  # type: ignore[no-any-return]


def legal_of(game_id: str, state: Any, seat: int | None) -> list[dict[str, Any]]:
    game = games.get(game_id)
    if seat is not None and seat not in game.actors(state):
        return []
    return [{"name": a.name, "args": list(a.args)} for a in game.legal_actions(state, seat)]


RENDER = """
async ({game, renderer, view, legal, seat, table, host, names, local, outcome, deadline,
        hidden, bots, fresh, device, events}) => {
  const mod = (await import(`/games/${renderer}.js`)).default;
  const seats = names.map((name, i) => bots.includes(i)
    ? {seat: i, name, participant: null, bot: 'rules', connected: true}
    : {seat: i, name, participant: 'p' + i, connected: true});
  const ctx = {
    view, legal, hostActions: [], deadline, paused: false, outcome, version: 1, match: 'm',
    events, log: [], you: {seat, role: table ? 'table' : 'player', host},
    seat, isTable: table, device, isHost: host,
    room: {code: 'ABCD', game, status: outcome ? 'ended' : 'live', seats, participants: []},
    busy: false, ended: Boolean(outcome),
    local: (window.__local = fresh ? local : window.__local || local),
    act: async (a) => { (window.__acted = window.__acted || []).push(a); return true; },
    hostAct: async () => true,
    drafting: (on) => (window.__drafting = window.__drafting || []).push(on),
    legalNamed: (n) => legal.filter((a) => a.name === n),
    can: (n, ...args) => legal.some((a) => a.name === n && args.every((x, i) => a.args[i] === x)),
    seatInfo: (s) => seats[s],
    rerender: () => window.__draw(),
    private: hidden !== null,
    get hidden() { return window.__hidden; },
    reveal: () => { window.__hidden = false; window.__draw(); },
    hideNow: () => { window.__hidden = hidden !== null; window.__draw(); },
  };
  window.__hidden = Boolean(hidden);
  window.__draw = () => {
    const main = document.getElementById('main');
    const box = document.createElement('div');
    box.className = `match game-${game}` + (table ? ' is-table' : '');
    box.appendChild(mod.render(ctx));
    main.replaceChildren(box);
  };
  document.body.dataset.screen = 'match';
  document.body.dataset.device = table ? 'table' : 'phone';
  window.__draw();
}
"""


def show(
    page: Any,
    game_id: str,
    view: dict[str, Any],
    *,
    legal: list[dict[str, Any]] | None = None,
    seat: int | None = None,
    table: bool = False,
    host: bool = False,
    names: list[str] | None = None,
    local: dict[str, Any] | None = None,
    outcome: dict[str, Any] | None = None,
    deadline: dict[str, Any] | None = None,
    hidden: bool | None = None,
    bots: tuple[int, ...] = (),
    fresh: bool = True,
    device: dict[str, Any] | None = None,
    events: list[dict[str, Any]] | None = None,
) -> None:
    """Draw ``view`` with the game's renderer on the page (opened at the home page first).
    ``hidden``: None for a screen outside the privacy model (a table, a shared device, the
    setting off), else whether this phone's screen is hidden now. ``bots``: the seats bots
    hold. ``fresh=False`` keeps the screen's local state (a draft) from the last drawing.
    ``device``: a shared device's state (``{"shown": seat, ...}``) when the screen is on one.
    ``events``: the events the view came with, as the server sends them."""
    if page.url == "about:blank":
        page.goto("/")
        page.wait_for_selector("form.create")
    page.evaluate(
        RENDER,
        {
            "game": game_id,
            "renderer": game_id,
            "view": view,
            "legal": legal or [],
            "seat": seat,
            "table": table,
            "host": host,
            "names": names or [f"P{i + 1}" for i in range(len(view.get("seats", [])) or 12)],
            "local": local or {},
            "outcome": outcome,
            "deadline": deadline,
            "hidden": hidden,
            "bots": list(bots),
            "fresh": fresh,
            "device": device,
            "events": events or [],
        },
    )
