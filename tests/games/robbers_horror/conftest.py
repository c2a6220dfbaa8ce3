"""Helpers that set up tables and piles the way a rulebook example describes them."""

from __future__ import annotations

from collections.abc import Sequence

from wolfden.engine.types import Action, Event
from wolfden.games import robbers_horror as rh
from wolfden.games.robbers_horror.cards import Card
from wolfden.games.robbers_horror.rules import arrange_deal, mask_of, role_of, score_deal
from wolfden.games.robbers_horror.state import DealInfo, DealResult, MatchInfo, State


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


def ids(cards: Sequence[str]) -> list[int]:
    out: list[int] = []
    for text in cards:
        card_id = Card(text).id
        if card_id in out:
            card_id += 1
        out.append(card_id)
    return out


def score(
    roles_from: Sequence[Sequence[str]],
    piles: Sequence[Sequence[str]],
    **options: object,
) -> DealResult:
    """Score a deal where seat i was dealt roles_from[i] (only its special cards matter for the
    role) and took the cards piles[i]."""
    n = len(piles)
    config = rh.Config(players=n, **options)  # type: ignore[arg-type]
    dealt = tuple(mask_of(ids(h)) for h in roles_from)
    deal = DealInfo(dealt, -1, tuple(role_of(m) for m in dealt), 9)
    match = MatchInfo(n, 0, 0, (0,) * n, (), 1, None)
    all_ids = ids([c for pile in piles for c in pile])
    masks = []
    i = 0
    for pile in piles:
        masks.append(mask_of(all_ids[i : i + len(pile)]))
        i += len(pile)
    return score_deal(config, match, deal, tuple(masks))
