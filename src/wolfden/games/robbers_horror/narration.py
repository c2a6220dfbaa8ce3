"""What the game says: the events' texts and data, and a scored deal with every step of its
arithmetic."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from wolfden.engine.types import PUBLIC, Audience, Event, Outcome, Seat
from wolfden.games.robbers_horror.components import WEREWOLF, Card, Kind, Role, Team
from wolfden.games.robbers_horror.state import DealResult, Trick

if TYPE_CHECKING:
    from wolfden.games.robbers_horror.rules import Effective
    from wolfden.games.robbers_horror.state import State

ROLE_TEXT = {
    Role.ROBBER: "a Robber: you score the chest icons you take, halved if you take a Werewolf",
    Role.WEREWOLF: "a Werewolf: you score the robber icons you take, halved if you take a Knife",
    Role.TRAITOR: (
        "the Traitor: you score the chest icons you take for the werewolf team, "
        "halved if you take a Werewolf"
    ),
}


def cards_text(cards: Sequence[Card]) -> list[str]:
    return [card.notation for card in cards]


def seats_text(seats: Sequence[Seat]) -> str:
    """``seat 2`` or ``seats 0, 3``."""
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(map(str, seats))


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


# -- a deal and its cards ------------------------------------------------------------------------


def deal_event(state: State) -> Event:
    size = state.hand_size
    data = {
        "deal": state.deal + 1,
        "deals": state.deals,
        "dealer": state.dealer,
        "leader": state.leader,
        "hand_size": size,
        "undealt": 0 if state.undealt is None else 1,
    }
    text = (
        f"Deal {state.deal + 1} of {state.deals}: seat {state.dealer} deals "
        f"{size} cards each; seat {state.leader} leads."
    )
    return Event("deal", data, PUBLIC, text)


def hand_event(seat: Seat, hand: Sequence[Card], role: Role, audience: Audience) -> Event:
    data = {"seat": seat, "hand": cards_text(hand), "role": role.value}
    return Event("hand", data, audience, f"You are {ROLE_TEXT[role]}.")


def play_event(seat: Seat, card: Card) -> Event:
    return Event(
        "play", {"seat": seat, "card": card.notation}, PUBLIC, f"Seat {seat} plays {card}."
    )


def chip_event(seat: Seat, card: Card) -> Event:
    """The chip a Werewolf or the Traitor puts in front of its player."""
    if card is WEREWOLF:
        text = f"Seat {seat} takes a Werewolf chip: seat {seat} is a Werewolf."
        return Event("chip", {"seat": seat, "chip": "werewolf"}, PUBLIC, text)
    text = f"Seat {seat} takes the Traitor chip: seat {seat} is on the werewolf team."
    return Event("chip", {"seat": seat, "chip": "traitor"}, PUBLIC, text)


# -- a trick ---------------------------------------------------------------------------------------

LEAD_TEXT = {
    Kind.CHEST: "chests led, robbers trump",
    Kind.ROBBER: "robbers led, chests trump",
    None: "special cards only",
}


def effective_text(effective: Effective) -> str:
    """``C17``, or ``trump 16`` in a trick of special cards only."""
    if effective.suit in ("C", "R"):
        return f"{effective.suit}{effective.rank}"
    return f"{effective.suit} {effective.rank}"


def trick_event(trick: Trick, lead: Kind | None, effective: Sequence[Effective]) -> Event:
    """The completed trick, with its leading suit, what each card counted as and who took
    it."""
    place = (trick.winner - trick.leader) % len(trick.cards)
    card = trick.cards[place]
    texts = [effective_text(e) for e in effective]
    counting = "" if texts[place] == card.notation else f" (counting as {texts[place]})"
    data = {
        "number": trick.number,
        "leader": trick.leader,
        "cards": cards_text(trick.cards),
        "effective": texts,
        "lead_suit": None if lead is None else lead.value,
        "winner": trick.winner,
        "winning_card": card.notation,
    }
    text = (
        f"Trick {trick.number}, {LEAD_TEXT[lead]}: "
        f"seat {trick.winner} takes it with {card}{counting}."
    )
    return Event("trick", data, PUBLIC, text)


# -- the scoring -----------------------------------------------------------------------------------


def pile_text(pile: Sequence[Card], scored: Kind, icons: tuple[int, ...], total: int) -> str:
    """The icons a seat scores, written out: ``C1:5 + C4:4 = 9``, or ``none = 0``."""
    terms = [f"{card}:{icons[card.rank - 1]}" for card in pile if card.kind is scored and card.rank]
    return f"{' + '.join(terms)} = {total}" if terms else "none = 0"


def breakdown_lines(result: DealResult, icons: tuple[int, ...]) -> list[str]:
    """Every step of a deal's arithmetic, one line each."""
    lines = []
    robbers: list[Seat] = []
    werewolves: list[Seat] = []
    for seat, score in enumerate(result.seats):
        werewolf = score.role is Role.WEREWOLF
        scored = Kind.ROBBER if werewolf else Kind.CHEST
        line = (
            f"Seat {seat}, {score.role.label}: {'robber' if werewolf else 'chest'} icons "
            f"{pile_text(score.pile, scored, icons, score.icons)}"
        )
        if score.halved:
            halving = "a Knife" if werewolf else "a Werewolf"
            line += f"; took {halving}, halved (rounded down) to {score.points}"
        lines.append(line)
        (robbers if score.role.team is Team.ROBBERS else werewolves).append(seat)
    lines.append(
        f"Robber team ({seats_text(robbers)}): {sum_text(result, robbers)} × "
        f"{plural(len(werewolves), 'werewolf-team player')} = {result.robber_total}"
    )
    lines.append(
        f"Werewolf team ({seats_text(werewolves)}): {sum_text(result, werewolves)} × "
        f"{plural(len(robbers), 'robber-team player')} = {result.werewolf_total}"
    )
    if result.winner is None:
        lines.append(
            f"Tie at {result.robber_total}: nobody wins deal {result.number}, no game points."
        )
    else:
        team = robbers if result.winner is Team.ROBBERS else werewolves
        lines.append(
            f"The {result.winner.label} wins deal {result.number}: {seats_text(team)} "
            f"score{'s' if len(team) == 1 else ''} 1 game point."
        )
    return lines


def sum_text(result: DealResult, seats: Sequence[Seat]) -> str:
    """``3 + 5 = 8``, or ``3`` for a team of one."""
    points = [result.seats[seat].points for seat in seats]
    text = " + ".join(map(str, points))
    return f"{text} = {sum(points)}" if len(points) > 1 else text


def result_json(result: DealResult, icons: tuple[int, ...]) -> dict[str, Any]:
    """The scored deal as JSON."""
    return {
        "deal": result.number,
        "dealer": result.dealer,
        "hands_dealt": [cards_text(hand) for hand in result.dealt],
        "undealt": None if result.undealt is None else result.undealt.notation,
        "seats": [
            {
                "seat": seat,
                "role": score.role.value,
                "team": score.role.team.value,
                "pile": cards_text(score.pile),
                "icons": score.icons,
                "halved": score.halved,
                "points": score.points,
            }
            for seat, score in enumerate(result.seats)
        ],
        "robbers": {
            "sum": result.robber_sum,
            "multiplier": result.robber_multiplier,
            "total": result.robber_total,
        },
        "werewolves": {
            "sum": result.werewolf_sum,
            "multiplier": result.werewolf_multiplier,
            "total": result.werewolf_total,
        },
        "winner": None if result.winner is None else result.winner.value,
        "game_points": list(result.points_after),
        "steps": breakdown_lines(result, icons),
    }


def score_event(result: DealResult, icons: tuple[int, ...]) -> Event:
    text = "\n".join(breakdown_lines(result, icons))
    return Event("score", result_json(result, icons), PUBLIC, text)


# -- the match -------------------------------------------------------------------------------------


def match_summary(winners: frozenset[Seat], top: int) -> str:
    names = ", ".join(map(str, sorted(winners)))
    points = plural(top, "game point")
    if len(winners) == 1:
        return f"Seat {names} wins the match with {points}."
    return f"Seats {names} share the win with {points} each."


def ranking(points: tuple[int, ...]) -> list[dict[str, int]]:
    """Seats by game points, highest first; equal points share a place."""
    order = sorted(range(len(points)), key=lambda s: (-points[s], s))
    return [
        {"place": 1 + sum(1 for p in points if p > points[s]), "seat": s, "points": points[s]}
        for s in order
    ]


def match_over_event(outcome: Outcome, points: tuple[int, ...]) -> Event:
    data = {"points": list(points), "ranking": ranking(points), "winners": sorted(outcome.winners)}
    return Event("match_over", data, PUBLIC, outcome.summary)
