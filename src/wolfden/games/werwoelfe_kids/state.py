"""The state of a match: a small slotted object, copied (never mutated) by every rule."""

from __future__ import annotations

import enum
from typing import Any

from wolfden.games.werwoelfe_kids.config import Config

VILLAGE = 0
"""Seat 0 is the Village team."""
WEREWOLVES = 1
"""Seat 1 is the Werewolf team."""
TEAMS = ("village", "werewolves")

# What lies in a house frame: a person (0–12, an index into CAST), nothing, or a werewolf tile.
EMPTY = -1
WOLF = 13
"""A werewolf tile on its normal side."""
DISCOVERED = 14
"""A werewolf tile turned to its Discovered side (it won a dice duel)."""


def is_wolf(content: int) -> bool:
    return content >= WOLF


def is_person(content: int) -> bool:
    return 0 <= content < WOLF


class Phase(enum.Enum):
    PLACE = "place"
    """Setup: the Village team places its people (the Werewolf team has its eyes closed)."""
    HAUNT = "haunt"
    """Setup: the Werewolf team puts its 3 werewolves into 3 different houses."""
    DAY = "day"
    """The Village team opens one door."""
    PEEK = "peek"
    """A door stands open for the team that opened it, until it closes (or the time is up)."""
    DUEL = "duel"
    """Both teams are awake and roll dice."""
    NIGHT = "night"
    """The Werewolf team opens one door."""
    MOVE = "move"
    """The Werewolf team moves the werewolf it found (1–2 steps) or leaves it."""
    ESCAPE = "escape"
    """The night after a lost duel: the discovered werewolf flees instead of a door opening."""
    WAKE = "wake"
    """Hand-over screen on a shared device: the next team taps when it is awake."""
    OVER = "over"


Peek = tuple[tuple[int, int, int], ...]
"""Open doors: (house, what was there when the door was lifted, what is there now)."""


class State:
    """One moment of a match. Rules copy it with :meth:`evolve`; nothing mutates a state."""

    __slots__ = (
        "caught",
        "config",
        "day",
        "dice",
        "doors",
        "duel_house",
        "duel_rounds",
        "escape",
        "haunted",
        "houses",
        "last_roll",
        "missing",
        "missing_setup",
        "notebooks",
        "origin",
        "peek",
        "peek_team",
        "phase",
        "placing",
        "rng",
        "rolled",
        "selected",
        "seq",
        "stats",
        "wake_team",
        "wake_to",
        "winner",
    )

    config: Config
    phase: Phase
    seq: int
    rng: int
    houses: tuple[int, ...]
    doors: tuple[int, ...]
    missing: tuple[int, ...]
    missing_setup: int
    caught: int
    haunted: tuple[int, ...]
    peek_team: int
    peek: Peek
    origin: int
    escape: int
    duel_house: int
    dice: tuple[int, int]
    rolled: tuple[bool, bool]
    last_roll: tuple[tuple[int, int], tuple[int, int]]
    duel_rounds: int
    day: int
    wake_team: int
    wake_to: Phase
    winner: int
    selected: int
    placing: tuple[int, ...]
    """The houses the Village team has filled, in order (for undo)."""
    """The person the Village team has picked up while placing (-1: none)."""
    notebooks: tuple[tuple[tuple[int, int] | None, ...], ...]
    stats: tuple[int, ...]

    def evolve(self, **changes: Any) -> State:
        """A copy with some fields changed (the input is never touched)."""
        new: State = _copy(self)
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    def __repr__(self) -> str:
        return f"<werwoelfe-kids {self.phase.value} day {self.day} seq {self.seq}>"


def _make_copy() -> Any:
    lines = ["def _copy(self):", "    new = _new(State)"]
    lines += [f"    new.{name} = self.{name}" for name in State.__slots__]
    lines.append("    return new")
    namespace: dict[str, Any] = {"State": State, "_new": object.__new__}
    exec("\n".join(lines), namespace)
    return namespace["_copy"]


_copy = _make_copy()
"""Copies every slot of a state: generated once, so a copy is one plain function call."""


# Indices into State.stats (a tuple of counters, so copying a state stays cheap).
DUELS, DUELS_VILLAGE, DUELS_WEREWOLVES, ESCAPES, MOVES, BLOCKED, CAUGHT_WITHOUT_DUEL = range(7)
STAT_NAMES = (
    "duels",
    "duels_won_by_village",
    "duels_won_by_werewolves",
    "escapes",
    "werewolf_moves",
    "moves_blocked",
    "caught_without_duel",
)


def bump(stats: tuple[int, ...], index: int) -> tuple[int, ...]:
    return (*stats[:index], stats[index] + 1, *stats[index + 1 :])
