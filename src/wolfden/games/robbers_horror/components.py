"""The game's components: the cards and the deck, the roles and teams, the phases.

Card notation (our ruling): ``C1``–``C15`` treasure chests, ``R1``–``R15`` robbers, ``W`` a
Werewolf, ``S`` the Seer, ``K`` a Knife, ``T`` the Traitor. The two Werewolves (and the two
Knives) are identical cards, so they share one notation and one :class:`Card` value.
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar

from wolfden.engine.errors import ParseError


class Kind(enum.Enum):
    CHEST = "C"
    ROBBER = "R"
    WEREWOLF = "W"
    SEER = "S"
    KNIFE = "K"
    TRAITOR = "T"


NORMAL_KINDS = (Kind.CHEST, Kind.ROBBER)
"""The two suits of normal cards, ranked 1 to 15."""

NOTATIONS: tuple[str, ...] = (
    *(f"C{rank}" for rank in range(1, 16)),
    *(f"R{rank}" for rank in range(1, 16)),
    "W",
    "S",
    "K",
    "T",
)
"""Every card's notation, in card order: chests, robbers, Werewolf, Seer, Knife, Traitor."""

_ALLOWED = (
    "C1–C15 (treasure chests), R1–R15 (robbers), W (Werewolf), S (Seer), K (Knife), T (Traitor)"
)


class Card:
    """One card, written in the ruled notation: ``Card.parse("R7")``, ``str(card) == "R7"``.

    There is one value per notation (``Card("W") is Card.parse("w")``); ``repr`` gives
    ``Card('R7')``, which you can type back. Cards sort in card order (see :data:`NOTATIONS`).
    """

    __slots__ = ("kind", "notation", "order", "rank")
    kind: Kind
    rank: int | None
    """The printed rank of a chest or robber card; None for the special cards."""
    notation: str
    order: int
    """The card's place in card order."""
    _cards: ClassVar[dict[str, Card]] = {}

    def __new__(cls, notation: str | Card) -> Card:
        if isinstance(notation, Card):
            return notation
        if not isinstance(notation, str):
            raise ParseError(f"a card is written as text such as 'R7'; the cards are {_ALLOWED}")
        card = cls._cards.get(notation.strip().upper())
        if card is None:
            raise ParseError(f"unknown card {notation!r}; the cards are {_ALLOWED}")
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card's notation, such as ``R7``, ``c15`` or ``W``."""
        return cls(text)

    @classmethod
    def _make(cls, order: int, notation: str) -> None:
        card = object.__new__(cls)
        kind = Kind(notation[0])
        for name, value in (
            ("kind", kind),
            ("rank", int(notation[1:]) if kind in NORMAL_KINDS else None),
            ("notation", notation),
            ("order", order),
        ):
            object.__setattr__(card, name, value)
        cls._cards[notation] = card

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return (Card, (self.notation,))

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Card({self.notation!r})"

    def __lt__(self, other: Card) -> bool:
        return self.order < other.order

    @property
    def is_normal(self) -> bool:
        """A chest or a robber card (the others are the special cards)."""
        return self.kind in NORMAL_KINDS


for _order, _notation in enumerate(NOTATIONS):
    Card._make(_order, _notation)

WEREWOLF = Card("W")
SEER = Card("S")
KNIFE = Card("K")
TRAITOR = Card("T")


FULL_DECK: tuple[Card, ...] = (
    *(Card(text) for text in NOTATIONS[:30]),
    WEREWOLF,
    WEREWOLF,
    SEER,
    KNIFE,
    KNIFE,
    TRAITOR,
)
"""The 36 cards, in card order: two Werewolves and two Knives, one of every other card."""

THREE_PLAYER_DECK: tuple[Card, ...] = (
    *(Card(f"{suit}{rank}") for suit in "CR" for rank in range(1, 13)),
    WEREWOLF,
    KNIFE,
    KNIFE,
    TRAITOR,
)
"""3 players: chests and robbers 13–15, one Werewolf and the Seer are left out (28 cards)."""


def deck(players: int) -> tuple[Card, ...]:
    """The deck for this many players, in card order, as the seed's table gives it."""
    return THREE_PLAYER_DECK if players == 3 else FULL_DECK


def hand_size(players: int) -> int:
    """Cards in each hand: 9 for 3 and 4 players, 7 for 5; the remainder stays undealt."""
    return len(deck(players)) // players


class Team(enum.Enum):
    ROBBERS = "robbers"
    WEREWOLVES = "werewolves"

    @property
    def label(self) -> str:
        return "robber team" if self is Team.ROBBERS else "werewolf team"


class Role(enum.Enum):
    """A player's role in a deal; the Werewolves and the Traitor are the werewolf team."""

    ROBBER = "robber"
    WEREWOLF = "werewolf"
    TRAITOR = "traitor"

    @property
    def team(self) -> Team:
        return Team.ROBBERS if self is Role.ROBBER else Team.WEREWOLVES

    @property
    def label(self) -> str:
        return self.name.capitalize()


class Phase(enum.Enum):
    PLAY = "play"
    OVER = "over"
