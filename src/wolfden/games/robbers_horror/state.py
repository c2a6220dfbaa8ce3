"""The state of a match: frozen dataclasses, changed with ``dataclasses.replace``.

Hands, piles and tricks are tuples of :class:`Card` in card order (tricks in play order); the
two Werewolves and the two Knives are equal cards, so a hand holding both has ``W`` twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from wolfden.engine.types import Outcome, Seat
from wolfden.games.robbers_horror.components import Card, Phase, Role, Team
from wolfden.games.robbers_horror.config import Config


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: its number in the deal (from 1), who led, the cards, who took it."""

    number: int
    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat


@dataclass(frozen=True, slots=True)
class Chips:
    """The chips in front of the players: the seats that played a Werewolf, in order, and the
    seat that played the Traitor (None while nobody has)."""

    werewolf: tuple[Seat, ...] = ()
    traitor: Seat | None = None


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's scoring in a deal: its role, the cards it took, the icons they carry that
    its role scores, whether they were halved, and the points."""

    role: Role
    pile: tuple[Card, ...]
    icons: int
    halved: bool
    points: int


@dataclass(frozen=True, slots=True)
class DealResult:
    """A scored deal, with every figure of the arithmetic."""

    number: int
    dealer: Seat
    dealt: tuple[tuple[Card, ...], ...]
    """The hands as dealt."""
    undealt: Card | None
    seats: tuple[SeatScore, ...]
    robber_sum: int
    werewolf_sum: int
    robber_multiplier: int
    werewolf_multiplier: int
    robber_total: int
    werewolf_total: int
    winner: Team | None
    points_after: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State:
    config: Config
    rng: int
    """The seeded generator's state after this deal's shuffle (the next deal shuffles on)."""
    deals: int
    """Deals in the match."""
    deal: int
    """The deal being played, counted from 0."""
    dealer: Seat
    dealt: tuple[tuple[Card, ...], ...]
    """Each seat's hand as dealt: the roles follow from it."""
    undealt: Card | None
    """The card left out of this deal with 3 and 5 players."""
    roles: tuple[Role, ...]
    hands: tuple[tuple[Card, ...], ...]
    piles: tuple[tuple[Card, ...], ...]
    """The cards each seat took this deal, face down."""
    tricks: tuple[Trick, ...]
    """The completed tricks of this deal."""
    leader: Seat
    """Who leads the current trick."""
    trick: tuple[Card, ...]
    """The cards of the current trick, in play order."""
    turn: Seat | None
    """The seat to play; None once the match is over."""
    chips: Chips
    points: tuple[int, ...]
    """Game points."""
    results: tuple[DealResult, ...]
    """The deals scored so far."""
    outcome: Outcome | None = None

    @property
    def phase(self) -> Phase:
        return Phase.PLAY if self.turn is not None else Phase.OVER

    @property
    def players(self) -> int:
        return self.config.players

    @property
    def hand_size(self) -> int:
        return len(self.dealt[0])
