"""What is in the box, and the words of the game: the two teams, the 13 people, the door and
werewolf tiles, the village's grid of houses, and the phases of a round."""

from __future__ import annotations

import enum
from functools import cache
from typing import NamedTuple

from wolfden.games.werwoelfe_kids.config import Config

# -- the teams ---------------------------------------------------------------------------------

VILLAGE = 0
"""Seat 0 is the Village team."""
WEREWOLVES = 1
"""Seat 1 is the Werewolf team."""
TEAMS = ("village", "werewolves")
"""The teams' names, by seat."""


def team_names(config: Config) -> tuple[str, ...]:
    """The two teams, as the Outcome names them."""
    return TEAMS


def other_team(team: int) -> int:
    return WEREWOLVES if team == VILLAGE else VILLAGE


# -- the phases --------------------------------------------------------------------------------


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


# -- what lies in a house frame ----------------------------------------------------------------
# A person (0–12, their place in CAST), nothing, or a werewolf tile on one of its two sides.

EMPTY = -1
WOLF = 13
"""A werewolf tile on its normal side."""
DISCOVERED = 14
"""A werewolf tile turned to its Discovered side (it won a dice duel)."""


def is_wolf(content: int) -> bool:
    return content in (WOLF, DISCOVERED)


def is_person(content: int) -> bool:
    return 0 <= content < len(CAST)


def content_name(content: int) -> str:
    """How a house's content is written in a view: a person's id, empty, or a werewolf."""
    if content == EMPTY:
        return "empty"
    if content == WOLF:
        return "werewolf"
    if content == DISCOVERED:
        return "werewolf-discovered"
    return CAST[content].id


# -- the person tiles --------------------------------------------------------------------------


class Person(NamedTuple):
    id: str
    name: str
    look_en: str
    look_de: str


CAST: tuple[Person, ...] = (
    Person(
        "ada", "Ada", "the baker with a tall white hat", "die Bäckerin mit der hohen weißen Mütze"
    ),
    Person(
        "bruno", "Bruno", "the blacksmith with a sooty beard", "der Schmied mit dem rußigen Bart"
    ),
    Person("clara", "Clara", "the goose girl in a straw hat", "das Gänsemädchen mit dem Strohhut"),
    Person("dario", "Dario", "the drummer in a red cap", "der Trommler mit der roten Kappe"),
    Person("elsa", "Elsa", "the beekeeper with a veiled hat", "die Imkerin mit dem Schleierhut"),
    Person(
        "fritz", "Fritz", "the fisherman in yellow boots", "der Fischer mit den gelben Stiefeln"
    ),
    Person(
        "greta", "Greta", "the grandmother with knitting needles", "die Oma mit den Stricknadeln"
    ),
    Person("hugo", "Hugo", "the night watchman with a lantern", "der Nachtwächter mit der Laterne"),
    Person("ida", "Ida", "the girl with a kite", "das Mädchen mit dem Drachen"),
    Person("jonas", "Jonas", "the shepherd boy with a crook", "der Hirtenjunge mit dem Hirtenstab"),
    Person("kira", "Kira", "the painter in a colourful smock", "die Malerin mit dem bunten Kittel"),
    Person("lotte", "Lotte", "the postwoman with a big bag", "die Postbotin mit der großen Tasche"),
    Person("moritz", "Moritz", "the tailor with a tape measure", "der Schneider mit dem Maßband"),
)
"""The 13 people of the village (the project's own characters)."""


def person_named(person_id: str) -> int:
    """A person's place in CAST, from their id."""
    return next(i for i, person in enumerate(CAST) if person.id == person_id)


# -- the door tiles ----------------------------------------------------------------------------

COLOURS: tuple[tuple[str, str, str], ...] = (
    ("red", "rot", "R"),
    ("blue", "blau", "B"),
    ("green", "grün", "G"),
    ("yellow", "gelb", "Y"),
)
SHAPES: tuple[tuple[str, str, str], ...] = (
    ("round", "rund", "◯"),
    ("square", "eckig", "□"),
    ("arched", "Bogen", "∩"),
    ("pointed", "spitz", "△"),
)


class Door(NamedTuple):
    colour: str
    shape: str
    colour_de: str
    shape_de: str
    glyph: str

    @property
    def id(self) -> str:
        return f"{self.colour}-{self.shape}"


EASY_DOORS: tuple[Door, ...] = tuple(
    Door(colour, shape, colour_de, shape_de, c + s)
    for colour, colour_de, c in COLOURS
    for shape, shape_de, s in SHAPES
)
"""16 easy door tiles, each its own colour and shape."""

PLAIN_DOOR = Door("red", "plain", "rot", "schlicht", "▒▒")
"""The difficult side: every door looks the same."""

NO_DOOR_PICTURE = -1
"""A house's door on the difficult side (no easy tile of its own)."""


def door_id(door: int) -> str:
    """A house's door tile as a view names it."""
    return PLAIN_DOOR.id if door == NO_DOOR_PICTURE else EASY_DOORS[door].id


# -- the village grid --------------------------------------------------------------------------

ROW_NAMES = "ABCD"


@cache
def labels(rows: int, cols: int) -> tuple[str, ...]:
    """House names, row by row: A1 A2 A3 A4 / B1 … ."""
    return tuple(f"{ROW_NAMES[r]}{c + 1}" for r in range(rows) for c in range(cols))


def house_named(rows: int, cols: int, name: str) -> int:
    """A house's number (row by row, from 0), from its name."""
    return labels(rows, cols).index(name)


def steps_apart(rows: int, cols: int, a: int, b: int) -> int:
    """How many orthogonal steps lie between two houses (no diagonals, turning allowed)."""
    ar, ac = divmod(a, cols)
    br, bc = divmod(b, cols)
    return abs(ar - br) + abs(ac - bc)


def reach(rows: int, cols: int, house: int) -> tuple[int, ...]:
    """The houses a werewolf in ``house`` may move to: 1 or 2 orthogonal steps away.

    Turning is allowed and only the destination matters, so these are the houses at
    Manhattan distance 1 or 2; in a full rectangle every one of them has a path inside it.
    """
    return tuple(t for t in range(rows * cols) if 1 <= steps_apart(rows, cols, house, t) <= 2)
