"""What each viewer may see, and the information wall's perturbation.

A seat sees its own hand and role; everyone sees the current trick with each card's effective
suit and rank as far as it is known, the last completed trick (config ``show_last_trick``),
every completed trick of the deal if ``show_history`` is on, pile sizes, chips, game points and
the breakdown of the deals already scored. Other hands and the undealt card never appear
before the deal is scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Event, Viewer, ViewerKind, filter_events
from wolfden.games.robbers_horror.cards import NOTATION, effective_of_ids, lead_suit
from wolfden.games.robbers_horror.rules import (
    cards_text,
    completed_tricks,
    ranking,
    result_json,
    role_of,
)
from wolfden.games.robbers_horror.state import State, Trick, pack_hands

GAME_ID = "robbers-horror"


def _cards_json(
    leader: int, n: int, cards: tuple[int, ...], complete: bool
) -> list[dict[str, Any]]:
    return [
        {
            "seat": (leader + i) % n,
            "card": NOTATION[c],
            "suit": e.suit,
            "rank": e.rank,
            "trump": e.trump,
        }
        for i, (c, e) in enumerate(zip(cards, effective_of_ids(cards, complete)))
    ]


def trick_json(trick: Trick, n: int) -> dict[str, Any]:
    return {
        "number": trick.number,
        "leader": trick.leader,
        "lead_suit": lead_suit(trick.cards),
        "cards": _cards_json(trick.leader, n, trick.cards, True),
        "winner": trick.winner,
    }


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    config = state.config
    match = state.match
    deal = state.deal
    n = config.players
    over = state.turn < 0
    seat = viewer.seat if viewer.kind is ViewerKind.SEAT else None
    leader = state.leader
    chips = state.chips
    tricks_won = [0] * n
    for winner in state.winners:
        tricks_won[winner] += 1
    out: dict[str, Any] = {
        "game": GAME_ID,
        "phase": state.phase.value,
        "players": n,
        "seat": seat,
        "deal": match.deal_no + 1,
        "deals": match.deals,
        "dealer": match.dealer,
        "turn": None if over else state.turn,
        "hand_size": deal.hand_size,
        "hand_sizes": [h.bit_count() for h in state.hands],
        "undealt_cards": 1 if deal.undealt >= 0 else 0,
        "trick": {
            "number": len(state.winners) + 1,
            "leader": leader,
            "lead_suit": lead_suit(state.trick),
            "cards": _cards_json(leader, n, state.trick, len(state.trick) == n),
        },
        "tricks_won": tricks_won,
        "piles": [t * n for t in tricks_won],
        "chips": {
            "werewolf": list(chips.werewolf),
            "traitor": chips.traitor if chips.traitor >= 0 else None,
        },
        "points": list(match.points),
        "icons": list(config.icons),
        "deal_winners": [r.winner.value if r.winner else "tie" for r in match.results],
        "last_deal": result_json(match.results[-1], config.icons) if match.results else None,
    }
    if config.show_last_trick or config.show_history:
        done = completed_tricks(state)
        if config.show_last_trick:
            out["last_trick"] = trick_json(done[-1], n) if done else None
        if config.show_history:
            out["history"] = [trick_json(t, n) for t in done]
    if seat is not None and 0 <= seat < n:
        role = deal.roles[seat]
        out["hand"] = cards_text(state.hands[seat])
        out["role"] = role.name.lower()
        out["team"] = role.team.value
    if viewer.kind is ViewerKind.OMNISCIENT:
        out["hands"] = [cards_text(h) for h in state.hands]
        out["roles"] = [r.name.lower() for r in deal.roles]
        out["undealt"] = NOTATION[deal.undealt] if deal.undealt >= 0 else None
    if over:
        out["ranking"] = ranking(match.points)
        outcome = match.outcome
        out["winners"] = sorted(outcome.winners) if outcome is not None else []
    return out


def visible_events(state: State, events: Sequence[Event], viewer: Viewer) -> list[dict[str, Any]]:
    return filter_events(events, viewer)


def perturb_hidden(state: State, viewer: Viewer, rng: Rng) -> State | None:
    """Deal the cards this viewer cannot see (other hands and the undealt card) anew among
    their holders, keeping every hand's size; the roles follow from the new hands together
    with the cards each seat has already played this deal."""
    if state.turn < 0 or viewer.kind is ViewerKind.OMNISCIENT:
        return None
    deal = state.deal
    n = state.config.players
    hidden = [s for s in range(n) if s != viewer.seat]
    pool: list[int] = []
    for s in hidden:
        pool.extend(_ids(state.hands[s]))
    if deal.undealt >= 0:
        pool.append(deal.undealt)
    if len(pool) < 2:
        return None
    rng.shuffle(pool)
    hands = list(state.hands)
    dealt = list(deal.dealt)
    i = 0
    for s in hidden:
        size = hands[s].bit_count()
        new = 0
        for c in pool[i : i + size]:
            new |= 1 << c
        i += size
        dealt[s] = (dealt[s] & ~hands[s]) | new
        hands[s] = new
    undealt = pool[i] if deal.undealt >= 0 else -1
    roles = tuple(role_of(d) for d in dealt)
    new_deal = deal._replace(dealt=tuple(dealt), undealt=undealt, roles=roles)
    return state._replace(deal=new_deal, held=pack_hands(hands))


def _ids(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
