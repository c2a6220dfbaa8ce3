"""The village's fixed parts: the 13 people, the door tiles and the grid of houses."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple


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

PERSON_INDEX: dict[str, int] = {p.id: i for i, p in enumerate(CAST)}

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
    Door(c[0], s[0], c[1], s[1], c[2] + s[2]) for c in COLOURS for s in SHAPES
)
"""16 easy door tiles, each its own colour and shape."""

PLAIN_DOOR = Door("red", "plain", "rot", "schlicht", "▒▒")
"""The difficult side: every door looks the same."""

ROW_NAMES = "ABCD"


@cache
def labels(rows: int, cols: int) -> tuple[str, ...]:
    """House names, row by row: A1 A2 A3 A4 / B1 … ."""
    return tuple(f"{ROW_NAMES[r]}{c + 1}" for r in range(rows) for c in range(cols))


@cache
def label_index(rows: int, cols: int) -> dict[str, int]:
    return {name: i for i, name in enumerate(labels(rows, cols))}


@cache
def reach(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For every house, the houses a werewolf may move to: 1 or 2 orthogonal steps away.

    Turning is allowed and only the destination matters, so these are the houses at
    Manhattan distance 1 or 2; in a full rectangle every one of them has a path inside it.
    """
    out = []
    for h in range(rows * cols):
        r, c = divmod(h, cols)
        near = []
        for t in range(rows * cols):
            tr, tc = divmod(t, cols)
            if 1 <= abs(tr - r) + abs(tc - c) <= 2:
                near.append(t)
        out.append(tuple(near))
    return tuple(out)
