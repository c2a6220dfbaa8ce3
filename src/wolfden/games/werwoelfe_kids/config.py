"""The options of a Werwölfe Kids match, with the defaults of the rulebook and our rulings."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from wolfden.engine.config import option
from wolfden.engine.errors import ConfigError


class Layout(enum.Enum):
    """The shape of the village."""

    STANDARD = "3x4"
    """3 rows of 4 houses, 10 people placed, 2 houses empty."""
    EXTRA_DIFFICULT = "4x4"
    """The extra difficult variant: 4 rows of 4 houses, all 13 people placed, 3 houses empty."""


class Doors(enum.Enum):
    EASY = "easy"
    """Every door looks different (its own colour and shape)."""
    DIFFICULT = "difficult"
    """All doors look the same."""


class DuelMode(enum.Enum):
    RACE = "race"
    """Real time: each team rolls its remaining dice whenever it likes; first to finish wins."""
    ROUNDS = "rounds"
    """Both teams roll their remaining dice once per round; first to finish wins."""


class Language(enum.Enum):
    EN = "en"
    DE = "de"


SIDE = 6
"""Faces of a die."""

MISSING_TO_WIN = 8
"""The missing persons grid next to the village: two rows of four."""

WEREWOLF_TILES = 3
"""Werewolf tiles in the box."""


@dataclass(frozen=True)
class Config:
    layout: Layout = option(  # noqa: RUF009
        Layout.STANDARD,
        "the village: 3x4 (10 people, 2 empty houses) or the extra difficult 4x4 "
        "(13 people, 3 empty houses)",
        label="Village size",
    )
    doors: Doors | None = option(  # noqa: RUF009
        None,
        "easy (every door looks different) or difficult (all doors look the same); "
        "unset: easy in the 3x4 village, difficult in the 4x4 one",
        label="Doors",
    )
    too_hard: bool = option(
        False,
        "'too hard for the werewolves?': a dice duel at every discovery, even of a werewolf "
        "already on its Discovered side",
        label="Too hard for the werewolves (a duel every time)",
        advanced=True,
    )
    symbol_faces: int = option(
        1,
        "how many of a die's 6 faces show the symbol (1 = one in six)",
        min=1,
        max=5,
        label="Faces with the symbol (of 6)",
        advanced=True,
    )
    dice_per_team: int = option(
        3, "dice each team rolls in a duel", min=1, max=6, label="Dice per team", advanced=True
    )
    duel: DuelMode = option(  # noqa: RUF009
        DuelMode.RACE,
        "race: each team taps to roll its remaining dice, first to finish wins (people); "
        "rounds: both teams roll once per round, a shared finish rolls again (bots, simulation)",
        label="Dice duel",
        advanced=True,
    )
    peek_seconds: float = option(
        5.0,
        "how long an opened door stays open before it closes by itself",
        min=1.0,
        max=60.0,
        label="Seconds a door stays open",
        advanced=True,
    )
    notebook: bool = option(
        False,
        "memory aid for young players: each team's view keeps a notebook of what it saw "
        "behind each door (off: the team has to remember)",
        label="Notebook memory aid",
    )
    handover: bool = option(
        False,
        "one shared device: before each team's turn a hand-over screen waits until that team "
        "taps that it is awake (and the other has turned around)",
        label="One shared device (hand-over screens)",
    )
    language: Language = option(  # noqa: RUF009
        Language.EN, "language of narration and sound cues: en or de", label="Language"
    )

    @property
    def rows(self) -> int:
        return 4 if self.layout is Layout.EXTRA_DIFFICULT else 3

    @property
    def cols(self) -> int:
        return 4

    @property
    def houses(self) -> int:
        return self.rows * self.cols

    @property
    def persons_placed(self) -> int:
        """How many of the 13 people the Village team places: 10, or all 13 in the 4x4 village."""
        return 13 if self.layout is Layout.EXTRA_DIFFICULT else 10

    @property
    def door_style(self) -> Doors:
        if self.doors is not None:
            return self.doors
        return Doors.DIFFICULT if self.layout is Layout.EXTRA_DIFFICULT else Doors.EASY

    @property
    def symbol_chance(self) -> float:
        return self.symbol_faces / SIDE

    def validate(self) -> None:
        if not isinstance(self.layout, Layout):
            raise ConfigError("layout: use '3x4' or '4x4'")
        if self.doors is not None and not isinstance(self.doors, Doors):
            raise ConfigError("doors: use 'easy' or 'difficult' (or leave it unset)")
        if not isinstance(self.duel, DuelMode):
            raise ConfigError("duel: use 'race' or 'rounds'")
        if not isinstance(self.language, Language):
            raise ConfigError("language: use 'en' or 'de'")
        for name in ("too_hard", "notebook", "handover"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"{name}: use true or false")
        for name, low, high in (("symbol_faces", 1, SIDE - 1), ("dice_per_team", 1, 6)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ConfigError(
                    f"{name}: {value!r} is not allowed; use a whole number {low}–{high}"
                )
        peek = self.peek_seconds
        if isinstance(peek, bool) or not isinstance(peek, (int, float)) or not 1.0 <= peek <= 60.0:
            raise ConfigError(f"peek_seconds: {peek!r} is not allowed; use 1 to 60 seconds")
