"""Werwölfe Kids' immutable state: frozen dataclasses, changed only by ``dataclasses.replace``.

Per-team facts are pairs indexed by team (seat 0 the Village team, seat 1 the Werewolf team);
houses are numbered row by row from 0 and hold a content of :mod:`.pieces`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from wolfden.games.werwoelfe_kids.config import Config
from wolfden.games.werwoelfe_kids.pieces import VILLAGE, Phase

T = TypeVar("T")


def for_team(pair: tuple[T, T], team: int, value: T) -> tuple[T, T]:
    """A per-team pair with one team's entry changed."""
    return (value, pair[1]) if team == VILLAGE else (pair[0], value)


def with_content(houses: tuple[int, ...], house: int, content: int) -> tuple[int, ...]:
    """The houses with one house's content changed."""
    return tuple(content if h == house else old for h, old in enumerate(houses))


@dataclass(frozen=True, slots=True)
class Look:
    """An open door: the house, what was there when the door was lifted, what is there now."""

    house: int
    found: int
    now: int


@dataclass(frozen=True, slots=True)
class Note:
    """A notebook entry (the memory aid): what the team saw in a house, and on which day."""

    saw: int
    day: int


@dataclass(frozen=True, slots=True)
class Roll:
    """A team's last roll in the dice duel: how many dice, how many showed the symbol."""

    dice: int = 0
    symbols: int = 0


@dataclass(frozen=True, slots=True)
class Stats:
    """Counters of the match, for the outcome's statistics (in the order they are reported)."""

    duels: int = 0
    duels_won_by_village: int = 0
    duels_won_by_werewolves: int = 0
    escapes: int = 0
    werewolf_moves: int = 0
    moves_blocked: int = 0
    caught_without_duel: int = 0


@dataclass(frozen=True, slots=True)
class State:
    """One moment of a match. ``apply`` never changes a state; it returns a new one."""

    config: Config
    phase: Phase
    seq: int
    """The number of the current phase (an open door's clock belongs to one phase)."""
    rng: int
    """The seeded generator's state (the app's scattering and the dice)."""
    houses: tuple[int, ...]
    """What lies in each house frame."""
    doors: tuple[int, ...]
    """Each house's easy door tile (its place in EASY_DOORS), or NO_DOOR_PICTURE."""
    missing: tuple[int, ...] = ()
    """The people driven out, in order."""
    missing_setup: int = 0
    """How many of them went missing while the werewolves moved in (setup step 3)."""
    caught: int = 0
    """Werewolves caught and placed at the edge of the village."""
    haunted: tuple[int, ...] = ()
    """The houses the Werewolf team chose in setup step 3."""
    peek_team: int = -1
    """The team a door stands open for (-1: none)."""
    peek: tuple[Look, ...] = ()
    origin: int = -1
    """The house of the werewolf the Werewolf team is moving (-1: none)."""
    escape: int = -1
    """The discovered werewolf's house, which escapes in the next night (-1: none)."""
    duel_house: int = -1
    dice: tuple[int, int] = (0, 0)
    """Each team's dice still to roll in the duel."""
    rolled: tuple[bool, bool] = (False, False)
    """In a duel by rounds: which teams are ready to roll this round."""
    last_roll: tuple[Roll, Roll] = (Roll(), Roll())
    duel_rounds: int = 0
    day: int = 0
    wake_team: int = -1
    """On a shared device: the team the hand-over screen waits for (-1: none)."""
    wake_to: Phase = Phase.PLACE
    """The phase that team's turn begins with."""
    winner: int = -1
    selected: int = -1
    """The person the Village team has picked up while placing (-1: none)."""
    placing: tuple[int, ...] = ()
    """The houses the Village team has filled, in order (for undo)."""
    notebooks: tuple[tuple[Note | None, ...], tuple[Note | None, ...]] = ((), ())
    """Each team's notes by house (with the ``notebook`` aid; else empty)."""
    stats: Stats = Stats()

    def __repr__(self) -> str:
        return f"<werwoelfe-kids {self.phase.value} day {self.day} seq {self.seq}>"
