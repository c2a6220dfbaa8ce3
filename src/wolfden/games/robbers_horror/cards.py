"""The cards, their notation, and how a trick is won.

Notation (our ruling): ``C1``–``C15`` treasure chests, ``R1``–``R15`` robbers, ``W`` a Werewolf,
``S`` the Seer, ``K`` a Knife, ``T`` the Traitor. The two Werewolves (and the two Knives) are
identical cards, so they share one notation.

Inside the engine a card is a small integer, its *id*, so hands and piles are bit masks:
ids 0–14 are C1–C15, 15–29 are R1–R15, 30 and 31 the Werewolves, 32 the Seer, 33 and 34 the
Knives, 35 the Traitor. Trick resolution works on relative suits: each card gets an effective
value ``32 * trump + rank``, where ``trump`` says whether it counts in the trump suit (the suit
opposite to the one led). The highest value wins; on equal values the later card wins.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, NamedTuple

from wolfden.engine.errors import ParseError

NUM_IDS = 36
W1, W2, SEER, K1, K2, TRAITOR = 30, 31, 32, 33, 34, 35
WEREWOLF_MASK = (1 << W1) | (1 << W2)
KNIFE_MASK = (1 << K1) | (1 << K2)
TRAITOR_BIT = 1 << TRAITOR
CHEST_MASK = (1 << 15) - 1

TRUMP = 32
"""Added to a card's effective rank when it counts in the trump suit."""


class Kind(enum.Enum):
    CHEST = "C"
    ROBBER = "R"
    WEREWOLF = "W"
    SEER = "S"
    KNIFE = "K"
    TRAITOR = "T"


NOTATION: tuple[str, ...] = (
    *(f"C{r}" for r in range(1, 16)),
    *(f"R{r}" for r in range(1, 16)),
    "W",
    "W",
    "S",
    "K",
    "K",
    "T",
)

CANONICAL: tuple[int, ...] = tuple(NOTATION.index(NOTATION[i]) for i in range(NUM_IDS))
"""Each id's first id with the same notation (31 → 30, 34 → 33)."""

ID_OF: dict[str, int] = {NOTATION[i]: i for i in reversed(range(NUM_IDS))}

_ALLOWED = (
    "C1–C15 (treasure chests), R1–R15 (robbers), W (Werewolf), S (Seer), K (Knife), T (Traitor)"
)


class Card:
    """One card, written in the ruled notation: ``Card.parse("R7")``, ``str(card) == "R7"``.

    Cards are interned values: ``Card("W") is Card.parse("w")``. ``repr`` gives
    ``Card('R7')``, which you can type back.
    """

    __slots__ = ("id",)
    id: int
    _interned: ClassVar[dict[int, Card]] = {}

    def __new__(cls, notation: str | Card) -> Card:
        if isinstance(notation, Card):
            return notation
        return cls.from_id(_parse_id(notation))

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        """The card of an internal id (both Werewolf ids give the Werewolf card)."""
        canonical = CANONICAL[card_id]
        card = cls._interned.get(canonical)
        if card is None:
            card = object.__new__(cls)
            object.__setattr__(card, "id", canonical)
            cls._interned[canonical] = card
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card's notation, such as ``R7``, ``c15`` or ``W``."""
        return cls(text)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (str(self),))

    def __str__(self) -> str:
        return NOTATION[self.id]

    def __repr__(self) -> str:
        return f"Card({NOTATION[self.id]!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("Card", self.id))

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    @property
    def kind(self) -> Kind:
        return KIND_OF[self.id]

    @property
    def rank(self) -> int | None:
        """The printed rank of a chest or robber card; None for the special cards."""
        return self.id % 15 + 1 if self.id < 30 else None

    @property
    def is_normal(self) -> bool:
        return self.id < 30


KIND_OF: tuple[Kind, ...] = (
    *([Kind.CHEST] * 15),
    *([Kind.ROBBER] * 15),
    Kind.WEREWOLF,
    Kind.WEREWOLF,
    Kind.SEER,
    Kind.KNIFE,
    Kind.KNIFE,
    Kind.TRAITOR,
)


def _parse_id(text: str) -> int:
    if not isinstance(text, str):
        raise ParseError(f"a card is written as text such as 'R7'; the cards are {_ALLOWED}")
    card_id = ID_OF.get(text.strip().upper())
    if card_id is None:
        raise ParseError(f"unknown card {text!r}; the cards are {_ALLOWED}")
    return card_id


def deck_ids(players: int) -> tuple[int, ...]:
    """The deck for this many players, as the seed's table gives it.

    3 players: chests and robbers 13–15, one Werewolf and the Seer are left out (28 cards).
    4 and 5 players: all 36 cards.
    """
    if players == 3:
        normal = [i for i in range(30) if i % 15 < 12]
        return (*normal, W1, K1, K2, TRAITOR)
    return tuple(range(NUM_IDS))


def hand_size(players: int) -> int:
    """Cards in each hand: 9 for 3 and 4 players, 7 for 5; the remainder stays undealt."""
    return len(deck_ids(players)) // players


# -- the trick ------------------------------------------------------------------------------


def trick_values(ids: Sequence[int]) -> list[int]:
    """Each card's effective value ``32 * trump + rank`` in a complete trick of ids.

    - The leading suit is the suit of the first normal card; the other suit is trump.
    - A Werewolf led is 16 of the trump suit; otherwise it is the card just before it, plus one.
    - The Seer is 16 of the trump suit if no Werewolf is anywhere in the trick, else 0 of the
      leading suit.
    - A Knife is 0 of the trump suit; the Traitor 16 of the leading suit.
    With special cards only, the "leading suit" is the weak one and the "trump suit" the strong.
    """
    lead = -1
    for c in ids:
        if c < 30:
            lead = 0 if c < 15 else 1
            break
    has_werewolf = W1 in ids or W2 in ids
    values = []
    prev = 0
    for i, c in enumerate(ids):
        if c < 30:
            v = c % 15 + 1 + (TRUMP if (c >= 15) != lead else 0)
        elif c <= W2:
            v = TRUMP + 16 if i == 0 else prev + 1
        elif c == SEER:
            v = 0 if has_werewolf else TRUMP + 16
        elif c == TRAITOR:
            v = 16
        else:
            v = TRUMP
        values.append(v)
        prev = v
    return values


def winner_index(ids: Sequence[int]) -> int:
    """The index of the winning card of a complete trick of ids (the later of equals wins)."""
    values = trick_values(ids)
    best = 0
    top = values[0]
    for i in range(1, len(values)):
        if values[i] >= top:
            top = values[i]
            best = i
    return best


class Effective(NamedTuple):
    """A card's effective suit and rank in its trick.

    ``suit`` is ``"C"`` or ``"R"``; in a trick of special cards only it is ``"lead"`` (weak)
    or ``"trump"`` (strong). ``None`` fields are not known yet (the Seer before the trick is
    complete and before any Werewolf). ``trump`` tells whether the card counts in the trump suit.
    """

    suit: str | None
    rank: int | None
    trump: bool | None

    def __str__(self) -> str:
        if self.rank is None or self.suit is None:
            return "?"
        if self.suit in ("C", "R"):
            return f"{self.suit}{self.rank}"
        return f"{self.rank} of the {self.suit} suit"


def lead_suit(ids: Iterable[int]) -> str | None:
    """``"C"`` or ``"R"``: the suit of the first normal card, or None if there is none yet."""
    for c in ids:
        if c < 30:
            return "C" if c < 15 else "R"
    return None


def effective_of_ids(ids: Sequence[int], complete: bool = True) -> list[Effective]:
    """Effective suit and rank of each card, as far as it is known.

    In an incomplete trick everything is known except a Seer with no Werewolf before it,
    since a later Werewolf would make it 0 of the leading suit.
    """
    lead = lead_suit(ids)
    trump = None if lead is None else ("R" if lead == "C" else "C")
    has_werewolf = W1 in ids or W2 in ids
    out = []
    for c, v in zip(ids, trick_values(ids)):
        if c == SEER and not complete and not has_werewolf:
            out.append(Effective(None, None, None))
            continue
        is_trump = v >= TRUMP
        if lead is None or trump is None:
            suit = "trump" if is_trump else "lead"
        else:
            suit = trump if is_trump else lead
        out.append(Effective(suit, v - TRUMP if is_trump else v, is_trump))
    return out


def _trick_ids(cards: Sequence[Card | str]) -> list[int]:
    if isinstance(cards, str):
        raise ParseError("give the trick as a list of cards, such as ['C6', 'C15', 'R12', 'R3']")
    ids: list[int] = []
    for item in cards:
        card = Card(item)
        card_id = card.id
        if card_id in ids:
            if card_id in (W1, K1) and card_id + 1 not in ids:
                card_id += 1
            else:
                raise ParseError(
                    f"a trick cannot hold {card} that often: the deck has "
                    f"{2 if card_id in (W1, K1) else 1} of it"
                )
        ids.append(card_id)
    if not ids:
        raise ParseError("a trick has at least one card")
    return ids


def trick_winner(cards: Sequence[Card | str]) -> int:
    """The index of the winning card of a complete trick, given in play order.

    >>> trick_winner(["C6", "C15", "R12", "R3"])
    2
    """
    return winner_index(_trick_ids(cards))


def effective_cards(cards: Sequence[Card | str]) -> list[Effective]:
    """Each card's effective suit and rank in a complete trick, given in play order.

    >>> [str(e) for e in effective_cards(["W", "W", "R7", "C10"])]
    ['C16', 'C17', 'R7', 'C10']
    """
    return effective_of_ids(_trick_ids(cards))
