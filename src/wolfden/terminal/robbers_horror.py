"""The Werewolves bEat Robbers' Horror in the terminal: the table as one viewer sees it.

Shows the viewer's hand and role, the current trick with what each card counts as, the last
trick and how it was won, piles, chips and game points, and, at the start of each deal and at
the end of the match, every step of the last deal's scoring.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wolfden.engine.types import Action
from wolfden.games.robbers_horror.components import Card
from wolfden.games.robbers_horror.rules import effective_of

_ROLE = {
    "robber": "a Robber (robber team): you score the chest icons you take, halved if you "
    "take a Werewolf",
    "werewolf": "a Werewolf (werewolf team): you score the robber icons you take, halved if "
    "you take a Knife",
    "traitor": "the Traitor (werewolf team): you score the chest icons you take for the "
    "werewolves, halved if you take a Werewolf",
}
_SUIT = {"C": "chests", "R": "robbers"}
_KIND = {
    "W": "Werewolf: led, 16 of trump; else one above the card before it",
    "S": "Seer: 16 of trump, or 0 of the leading suit if a Werewolf is in the trick",
    "K": "Knife: 0 of trump; halves a Werewolf's score",
    "T": "Traitor: 16 of the leading suit",
}


def _value(card: Mapping[str, Any]) -> str:
    suit, rank = card.get("suit"), card.get("rank")
    if suit is None or rank is None:
        return "not known yet (16 of trump unless a Werewolf follows)"
    if suit in _SUIT:
        return f"{suit}{rank}" + (" trump" if card.get("trump") else "")
    return f"{rank} of the {'trump' if suit == 'trump' else 'leading'} suit"


def _suits(lead: str | None) -> str:
    if lead is None:
        return "no normal card yet: the first one sets the leading suit"
    trump = "R" if lead == "C" else "C"
    return f"{_SUIT[lead]} led, {_SUIT[trump]} trump"


def _trick_lines(trick: Mapping[str, Any], title: str) -> list[str]:
    lines = [f"{title} (led by seat {trick['leader']}; {_suits(trick.get('lead_suit'))}):"]
    for card in trick["cards"]:
        lines.append(f"   seat {card['seat']}: {card['card']:<4} counts as {_value(card)}")
    if trick.get("winner") is not None:
        won = next(c for c in trick["cards"] if c["seat"] == trick["winner"])
        lines.append(f"   → seat {trick['winner']} wins with {won['card']} ({_value(won)})")
    return lines


def render(view: Mapping[str, Any]) -> str:
    n = view["players"]
    over = view["phase"] == "over"
    trick = view["trick"]
    lines = [
        f"== Deal {view['deal']} of {view['deals']} · dealer seat {view['dealer']}"
        + ("" if over else f" · trick {trick['number']} of {view['hand_size']}")
        + " =="
    ]
    lines.append(
        "Game points: " + " · ".join(f"seat {s}: {p}" for s, p in enumerate(view["points"]))
    )
    chips = view["chips"]
    werewolf = ", ".join(f"seat {s}" for s in chips["werewolf"]) or "none"
    traitor = "none" if chips["traitor"] is None else f"seat {chips['traitor']}"
    lines.append(f"Chips: Werewolf → {werewolf}; Traitor → {traitor}")
    if not over:
        lines.append(
            "Cards in hand: "
            + " · ".join(f"seat {s}: {view['hand_sizes'][s]}" for s in range(n))
            + (" · 1 undealt (hidden)" if view["undealt_cards"] else "")
        )
        won = view["tricks_won"]
        lines.append(
            "Piles (face down): "
            + " · ".join(f"seat {s}: {won[s]} trick{'s' if won[s] != 1 else ''}" for s in range(n))
        )
    result = view.get("last_deal")
    if result and (over or (trick["number"] == 1 and not trick["cards"])):
        lines.append("")
        lines.append(f"Deal {result['deal']} scored (undealt card: {result['undealt'] or 'none'}):")
        lines.extend(f"   {step}" for step in result["steps"])
    for t in view.get("history") or []:
        lines.append("")
        lines.extend(_trick_lines(t, f"Trick {t['number']}"))
    last = view.get("last_trick")
    if last and not view.get("history"):
        lines.append("")
        lines.extend(_trick_lines(last, f"Last trick, trick {last['number']}"))
    if not over:
        lines.append("")
        if trick["cards"]:
            lines.extend(_trick_lines(trick, f"Trick {trick['number']}"))
        else:
            lines.append(f"Trick {trick['number']}: no card played yet.")
        if view["turn"] is not None:
            lines.append(f"Seat {view['turn']} to play.")
    if view.get("hands") and not over:
        lines.append("")
        for s, hand in enumerate(view["hands"]):
            lines.append(f"Seat {s} ({view['roles'][s]}): {' '.join(hand) or '—'}")
    if view.get("hand") is not None and not over:
        lines.append("")
        lines.append(f"You are seat {view['seat']}, {_ROLE[view['role']]}.")
        lines.append("Your hand: " + " ".join(view["hand"]))
    if over:
        lines.append("")
        lines.append("Final ranking:")
        for entry in view.get("ranking", []):
            points = entry["points"]
            lines.append(
                f"   {entry['place']}. seat {entry['seat']}: {points} game "
                f"point{'' if points == 1 else 's'}"
            )
        winners = view.get("winners", [])
        if len(winners) == 1:
            lines.append(f"Seat {winners[0]} wins the match.")
        elif winners:
            lines.append("Seats " + ", ".join(map(str, winners)) + " share the win.")
    return "\n".join(lines)


def describe(action: Action, view: Mapping[str, Any]) -> str:
    """``R7: would count as R7 trump`` — the card and what it would count as if played now."""
    if action.name != "play" or not action.args:
        return str(action)
    card = str(action.args[0])
    played = [c["card"] for c in view["trick"]["cards"]]
    cards = [Card(text) for text in [*played, card]]
    now = effective_of(cards, complete=len(cards) == view["players"])[-1]
    what = _KIND[card] if card in _KIND else f"{_SUIT[card[0]][:-1]} {card[1:]}"
    value = _value({"suit": now.suit, "rank": now.rank, "trump": now.trump})
    return f"{card:<4} {what}; would count as {value}"
