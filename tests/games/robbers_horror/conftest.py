"""Helpers that set up tables and piles the way a rulebook example describes them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from wolfden.engine.errors import ConfigError, IllegalAction
from wolfden.engine.types import Action, Event
from wolfden.games import robbers_horror as rh
from wolfden.games.robbers_horror.components import Card, deck
from wolfden.games.robbers_horror.rules import role_of, score_deal
from wolfden.games.robbers_horror.state import DealResult, State


def arrange_deal(state: State, hands: Sequence[Sequence[str]], undealt: str | None = None) -> State:
    """The state at the start of its deal, with the given hands instead of the shuffled ones:
    ``hands`` lists each seat's cards in notation; with ``undealt`` they must be exactly this
    player count's deck."""
    if state.trick or state.tricks or state.turn is None:
        raise IllegalAction("hands can only be arranged before the first card of a deal")
    players = state.players
    if len(hands) != players:
        raise ConfigError(f"give {players} hands, one per seat, not {len(hands)}")
    arranged = tuple(tuple(sorted(Card(text) for text in hand)) for hand in hands)
    left_out = None if undealt is None else Card(undealt)
    cards = sorted([*(c for hand in arranged for c in hand), *([left_out] if left_out else [])])
    if cards != list(deck(players)) or len({len(h) for h in hands}) != 1:
        raise ConfigError(
            f"the hands (and the undealt card) must be the {len(deck(players))}-card deck "
            f"for {players} players, dealt equally"
        )
    return replace(
        state,
        dealt=arranged,
        hands=arranged,
        undealt=left_out,
        roles=tuple(role_of(hand) for hand in arranged),
    )


def table(hands: Sequence[Sequence[str]], undealt: str | None = None, **options: object) -> State:
    """A fresh match whose first deal gives seat i the cards hands[i]."""
    config = rh.Config(players=len(hands), **options)  # type: ignore[arg-type]
    return arrange_deal(rh.setup(config, seed=1), hands, undealt)


def play(state: State, *cards: str) -> tuple[State, list[Event]]:
    """Each card in turn is played by whoever's turn it is."""
    events: list[Event] = []
    for card in cards:
        state, more = rh.apply(state, state.turn, Action("play", (card,)))
        events += more
    return state, events


def score(
    roles_from: Sequence[Sequence[str]],
    piles: Sequence[Sequence[str]],
    **options: object,
) -> DealResult:
    """Score a deal where seat i was dealt roles_from[i] (only its special cards matter for the
    role) and took the cards piles[i]."""
    players = len(piles)
    config = rh.Config(players=players, **options)  # type: ignore[arg-type]
    dealt = tuple(tuple(sorted(Card(text) for text in hand)) for hand in roles_from)
    state = replace(
        rh.setup(rh.Config(players=players), seed=1),
        config=config,  # not validated: the scoring of any icons table
        dealt=dealt,
        roles=tuple(role_of(hand) for hand in dealt),
        piles=tuple(tuple(sorted(Card(text) for text in pile)) for pile in piles),
    )
    return score_deal(state)
