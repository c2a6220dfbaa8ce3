"""Helpers: a table with chosen cards, and actions written as text."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from wolfden.engine.types import Action, Event, Viewer
from wolfden.games import werewords as game
from wolfden.games.werewords import rules
from wolfden.games.werewords.config import Config, Role
from wolfden.games.werewords.state import Phase, State

R = Role


def rigged(config: Config, mayor: int, cards: Sequence[Role], seed: int = 7) -> State:
    """A new round in which seat ``mayor`` holds the Mayor card and ``cards[s]`` is each
    seat's role card (the Mayor's is their secret role)."""
    assert sorted(r.value for r in cards) == sorted(r.value for r in config.role_cards())
    state = game.setup(config, seed)
    state = dataclasses.replace(
        state, mayor=mayor, cards=tuple(cards), notes=((),) * config.players, step=0, copied=None
    )
    return rules.enter_step(state, [])


def play(state: State, seat: int | None, text: str) -> tuple[State, list[Event]]:
    return game.apply(state, seat, Action.parse(text))


def run(state: State, *moves: tuple[int | None, str]) -> State:
    for seat, text in moves:
        state, _ = play(state, seat, text)
    return state


def through_night(state: State, *, word: int = 0) -> State:
    """Every called role does the plain thing until the day begins."""
    while state.phase is Phase.NIGHT:
        actors = sorted(game.actors(state))
        if not actors:
            state, _ = game.apply(state, None, rules.TIME_UP)
            continue
        seat = actors[0]
        legal = game.legal_actions(state, seat)
        choice = Action("choose", (word,)) if legal[0].name == "choose" else legal[0]
        if rules.CONFIRM in legal:
            choice = rules.CONFIRM
        state, _ = game.apply(state, seat, choice)
    return state


def notes(state: State, seat: int) -> dict[str, Any]:
    you = game.view(state, Viewer.of(seat))["you"]
    return {n["kind"]: n["value"] for n in you["notes"]}


def until_step(state: State, step: str) -> State:
    while game.view(state, Viewer.of(0))["step"] != step:
        actors = sorted(game.actors(state))
        if not actors:
            state, _ = game.apply(state, None, rules.TIME_UP)
            continue
        legal = game.legal_actions(state, actors[0])
        choice = rules.CONFIRM if rules.CONFIRM in legal else legal[0]
        state, _ = game.apply(state, actors[0], choice)
    return state
