"""Helpers that set up Werewolf tables the way a rulebook example describes them."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from wolfden.engine.types import Action, Event
from wolfden.games import werewolf
from wolfden.games.werewolf import PRINT_DECK, Card, Role, State
from wolfden.games.werewolf.roles import CARD_TEXTS

W, S, G, V = Role.WEREWOLF, Role.SEER, Role.GUARDIAN, Role.VILLAGER


def table(roles: Sequence[Role], **options: object) -> State:
    """A fresh first night where seat i holds roles[i] (cards from the print deck; a variant
    role's cards numbered on). The options must deal the same roles (e.g. ``lycans=1``)."""
    config = werewolf.Config(players=len(roles), **options)  # type: ignore[arg-type]
    state = werewolf.setup(config, seed=1)
    pool = {role: [c for c in PRINT_DECK if c.role is role] for role in Role}
    extra = iter(range(len(PRINT_DECK) + 1, 100))

    def card(role: Role) -> Card:
        if pool[role]:
            return pool[role].pop(0)
        # A variant role (or one more copy than the print deck has): numbered on, as dealt.
        return Card(f"R_WEREWOLF-{next(extra):03d}", role, role.title, CARD_TEXTS[role])

    cards: list[Card] = [card(role) for role in roles]
    state = dataclasses.replace(state, cards=tuple(cards))
    return dataclasses.replace(state, pending=werewolf.rules.night_actors(state))


def act(state: State, seat: int | None, text: str) -> tuple[State, list[Event]]:
    return werewolf.apply(state, seat, Action.parse(text))


def run(state: State, *steps: tuple[int | None, str]) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for seat, text in steps:
        state, more = act(state, seat, text)
        events += more
    return state, events


def texts(events: Sequence[Event]) -> list[str]:
    return [e.text for e in events if e.audience.public and e.text]


def day(state: State) -> State:
    """From a night where everyone has acted: dawn, then the end of the discussion."""
    state, _ = act(state, None, "dawn")
    if state.phase is werewolf.Phase.DISCUSSION:
        state, _ = act(state, None, "end_discussion")
    return state


@pytest.fixture
def seven() -> State:
    """Seats 0,1 Werewolves; 2 Seer; 3 Guardian; 4,5,6 Villagers."""
    return table([W, W, S, G, V, V, V])
