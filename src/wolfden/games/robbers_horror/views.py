"""What each viewer may see, and the information wall's perturbation.

A seat sees its own hand and role; everyone sees the current trick with each card's effective
suit and rank as far as it is known, the last completed trick (config ``show_last_trick``),
every completed trick of the deal if ``show_history`` is on, pile sizes, chips, game points and
the breakdown of the deals already scored. Other hands and the undealt card never appear
before the deal is scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Event, Viewer, ViewerKind, filter_events
from wolfden.games.robbers_horror.components import Card
from wolfden.games.robbers_horror.narration import cards_text, ranking, result_json
from wolfden.games.robbers_horror.rules import effective_of, leading_suit, role_of, without
from wolfden.games.robbers_horror.state import State, Trick

GAME_ID = "robbers-horror"


def trick_json(
    number: int, leader: int, cards: Sequence[Card], players: int, complete: bool
) -> dict[str, Any]:
    lead = leading_suit(cards)
    return {
        "number": number,
        "leader": leader,
        "lead_suit": None if lead is None else lead.value,
        "cards": [
            {
                "seat": (leader + i) % players,
                "card": card.notation,
                "suit": e.suit,
                "rank": e.rank,
                "trump": e.trump,
            }
            for i, (card, e) in enumerate(zip(cards, effective_of(cards, complete)))
        ],
    }


def completed_trick_json(trick: Trick, players: int) -> dict[str, Any]:
    return {
        **trick_json(trick.number, trick.leader, trick.cards, players, complete=True),
        "winner": trick.winner,
    }


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    config = state.config
    players = config.players
    over = state.turn is None
    seat = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    tricks_won = [sum(1 for t in state.tricks if t.winner == s) for s in range(players)]
    current = trick_json(
        len(state.tricks) + 1,
        state.leader,
        state.trick,
        players,
        complete=len(state.trick) == players,
    )
    out: dict[str, Any] = {
        "game": GAME_ID,
        "phase": state.phase.value,
        "players": players,
        "seat": seat,
        "deal": state.deal + 1,
        "deals": state.deals,
        "dealer": state.dealer,
        "turn": state.turn,
        "hand_size": state.hand_size,
        "hand_sizes": [len(hand) for hand in state.hands],
        "undealt_cards": 0 if state.undealt is None else 1,
        "trick": current,
        "tricks_won": tricks_won,
        "piles": [len(pile) for pile in state.piles],
        "chips": {"werewolf": list(state.chips.werewolf), "traitor": state.chips.traitor},
        "points": list(state.points),
        "icons": list(config.icons),
        "deal_winners": [r.winner.value if r.winner else "tie" for r in state.results],
        "last_deal": result_json(state.results[-1], config.icons) if state.results else None,
    }
    if config.show_last_trick:
        out["last_trick"] = (
            completed_trick_json(state.tricks[-1], players) if state.tricks else None
        )
    if config.show_history:
        out["history"] = [completed_trick_json(t, players) for t in state.tricks]
    if seat is not None and 0 <= seat < players:
        role = state.roles[seat]
        out["hand"] = cards_text(state.hands[seat])
        out["role"] = role.value
        out["team"] = role.team.value
    if viewer.kind is ViewerKind.OMNISCIENT:
        out["hands"] = [cards_text(hand) for hand in state.hands]
        out["roles"] = [role.value for role in state.roles]
        out["undealt"] = None if state.undealt is None else state.undealt.notation
    if over:
        out["ranking"] = ranking(state.points)
        out["winners"] = sorted(state.outcome.winners) if state.outcome is not None else []
    return out


def visible_events(state: State, events: Sequence[Event], viewer: Viewer) -> list[dict[str, Any]]:
    return filter_events(events, viewer)


def perturb_hidden(state: State, viewer: Viewer, rng: Rng) -> State | None:
    """Deal the cards this viewer cannot see (other hands and the undealt card) anew among
    their holders, keeping every hand's size; the roles follow from the new hands together
    with the cards each seat has already played this deal."""
    if state.turn is None or viewer.kind is ViewerKind.OMNISCIENT:
        return None
    hidden = [s for s in range(state.players) if s != viewer.seat]
    pool = [card for s in hidden for card in state.hands[s]]
    if state.undealt is not None:
        pool.append(state.undealt)
    if len(pool) < 2:
        return None
    rng.shuffle(pool)
    hands = list(state.hands)
    dealt = list(state.dealt)
    for s in hidden:
        new = tuple(sorted(pool[: len(hands[s])]))
        del pool[: len(hands[s])]
        dealt[s] = tuple(sorted((*without(dealt[s], hands[s]), *new)))
        hands[s] = new
    return replace(
        state,
        hands=tuple(hands),
        dealt=tuple(dealt),
        undealt=pool[0] if state.undealt is not None else None,
        roles=tuple(role_of(hand) for hand in dealt),
    )
