"""The state of a match: immutable tuples of small integers, built for speed.

Hands and piles are bit masks over the card ids of :mod:`.cards`, and all hands share one
integer. The parts that change once per match or per deal are records of their own; the state
holds them together with what changes per trick and per card, so that playing a card copies
only a few references and changes one integer.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import NamedTuple

from wolfden.engine.types import Outcome
from wolfden.games.robbers_horror.config import Config


class Phase(enum.Enum):
    PLAY = "play"
    OVER = "over"


class Role(enum.IntEnum):
    ROBBER = 0
    WEREWOLF = 1
    TRAITOR = 2

    @property
    def team(self) -> Team:
        return Team.ROBBERS if self is Role.ROBBER else Team.WEREWOLVES

    @property
    def label(self) -> str:
        return self.name.capitalize()


class Team(enum.Enum):
    ROBBERS = "robbers"
    WEREWOLVES = "werewolves"

    @property
    def label(self) -> str:
        return "robber team" if self is Team.ROBBERS else "werewolf team"


class Trick(NamedTuple):
    """A completed trick: its number in the deal (from 1), who led, the card ids, the winner."""

    number: int
    leader: int
    cards: tuple[int, ...]
    winner: int


class SeatScore(NamedTuple):
    """One seat's scoring in a deal."""

    role: Role
    pile: int
    """The cards taken, as a mask of card ids."""
    icons: int
    halved: bool
    points: int


class DealResult(NamedTuple):
    """A scored deal, with every figure of the arithmetic."""

    number: int
    dealer: int
    dealt: tuple[int, ...]
    """The hands as dealt, as masks of card ids."""
    undealt: int
    seats: tuple[SeatScore, ...]
    robber_sum: int
    werewolf_sum: int
    robber_multiplier: int
    werewolf_multiplier: int
    robber_total: int
    werewolf_total: int
    winner: Team | None
    points_after: tuple[int, ...]


class MatchInfo(NamedTuple):
    """What changes once per deal: the deal counter, the dealer, game points, the RNG."""

    deals: int
    deal_no: int
    dealer: int
    points: tuple[int, ...]
    results: tuple[DealResult, ...]
    rng: int
    outcome: Outcome | None


class DealInfo(NamedTuple):
    """Fixed for a deal: the hands as dealt (masks), the undealt card id (or -1), the roles."""

    dealt: tuple[int, ...]
    undealt: int
    roles: tuple[Role, ...]
    hand_size: int


class Chips(NamedTuple):
    """The chips in front of the players: the seats that took a Werewolf chip, in order, and
    the seat with the Traitor chip (-1 while nobody has it)."""

    werewolf: tuple[int, ...]
    traitor: int


HAND_BITS = 36
"""Bits of one hand in :attr:`State.held` (one per card id)."""
HAND_MASK = (1 << HAND_BITS) - 1


def pack_hands(hands: Iterable[int]) -> int:
    """Hand masks, one per seat, in one integer (see :attr:`State.held`)."""
    held = 0
    for seat, hand in enumerate(hands):
        held |= hand << (HAND_BITS * seat)
    return held


class State(NamedTuple):
    config: Config
    match: MatchInfo
    deal: DealInfo
    chips: Chips
    tricks: tuple[tuple[int, ...], ...]
    """The completed tricks of the deal, each as its card ids in play order. (The piles follow
    from the tricks and their winners.)"""
    winners: tuple[int, ...]
    """The seat that took each completed trick."""
    held: int
    """Every seat's hand in one integer: seat ``s`` holds the card ids of bits ``36 * s`` to
    ``36 * s + 35`` (playing a card then changes one integer instead of a tuple of hands)."""
    trick: tuple[int, ...]
    turn: int
    """The seat to play, or -1 when the match is over."""

    @property
    def hands(self) -> tuple[int, ...]:
        """Each seat's hand as a mask of card ids."""
        held = self.held
        return tuple(held >> (HAND_BITS * s) & HAND_MASK for s in range(self.config.players))

    def hand(self, seat: int) -> int:
        """One seat's hand as a mask of card ids."""
        return self.held >> (HAND_BITS * seat) & HAND_MASK

    @property
    def leader(self) -> int:
        """The seat that leads the current trick: the last trick's winner, or at the start of
        a deal the seat left of the dealer."""
        winners = self.winners
        return winners[-1] if winners else (self.match.dealer + 1) % self.config.players

    @property
    def phase(self) -> Phase:
        return Phase.PLAY if self.turn >= 0 else Phase.OVER

    @property
    def players(self) -> int:
        return self.config.players
