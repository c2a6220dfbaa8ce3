"""Werewolf setups written as text, and the built-in library of named setups.

A setup names every card of the deal, role by role, separated by commas:
``werewolf=3,seer,witch,hunter,villager=6`` (a role without ``=N`` counts once; a role not
named is not dealt). ``sheriff`` (no count) elects a Sheriff. The number of players is the
number of cards. One parser serves the command line (``--setup``), the server and, through the
server, the web client; every refusal says what was wrong and what is allowed.
"""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from wolfden.engine.errors import ConfigError
from wolfden.games.werewolf.config import MAX_PLAYERS, MIN_PLAYERS, Config

MAX_SETUP_LENGTH = 200
"""The longest setup text accepted (a 16-card setup with every role fits in half of it)."""

ROLES: tuple[tuple[str, str | None, str], ...] = (
    ("werewolf", "werewolves", "Werewolf"),
    ("seer", "seers", "Seer"),
    ("guardian", "guardians", "Guardian"),
    ("lycan", "lycans", "Lycan"),
    ("tanner", "tanners", "Tanner"),
    ("minion", "minions", "Minion"),
    ("hunter", "hunters", "Hunter"),
    ("village_idiot", "village_idiots", "Village Idiot"),
    ("witch", "witches", "Witch"),
    ("cupid", "cupids", "Cupid"),
    ("villager", None, "Villager"),
)
"""Each card's name in a setup, the Config option that counts it (None: the Villagers, who fill
the rest), and its title, in the order a setup is written."""

ROLE_NAMES: tuple[str, ...] = tuple(name for name, _, _ in ROLES)
SHERIFF = "sheriff"
_PLURALS = {
    "werewolves": "werewolf",
    "seers": "seer",
    "guardians": "guardian",
    "lycans": "lycan",
    "tanners": "tanner",
    "minions": "minion",
    "hunters": "hunter",
    "village_idiots": "village_idiot",
    "witches": "witch",
    "cupids": "cupid",
    "villagers": "villager",
}
_ROLE_WORD = re.compile(r"^[a-z_]+$")


class SetupError(ConfigError):
    """A setup that cannot be dealt; the message says why and what is allowed."""


@dataclass(frozen=True)
class Setup:
    """A deal by role: ``counts`` has every role of :data:`ROLE_NAMES` (0 when not dealt)."""

    counts: tuple[tuple[str, int], ...]
    sheriff: bool = False

    @property
    def players(self) -> int:
        return sum(n for _, n in self.counts)

    def count(self, role: str) -> int:
        return dict(self.counts)[role]

    def text(self) -> str:
        """The canonical text: roles in the order of :data:`ROLES`, ``=N`` only above 1."""
        items = [name if n == 1 else f"{name}={n}" for name, n in self.counts if n]
        return ",".join([*items, *([SHERIFF] if self.sheriff else [])])

    def describe(self) -> str:
        """For people: ``3 Werewolves, Seer, Witch, Hunter, 6 Villagers, Sheriff``."""
        titles = {name: title for name, _, title in ROLES}
        parts = []
        for name, n in self.counts:
            if n == 1:
                parts.append(titles[name])
            elif n:
                title = titles[name]
                plural = {"Werewolf": "Werewolves", "Witch": "Witches"}.get(title, title + "s")
                parts.append(f"{n} {plural}")
        return ", ".join([*parts, *(["Sheriff"] if self.sheriff else [])])

    def config(self, base: Config | None = None) -> Config:
        """This deal on ``base``'s timers and options (a default Config without one). Seat
        names and declined roles of ``base`` stay only when the number of players does."""
        base = base if base is not None else Config()
        options: dict[str, Any] = {
            option: self.count(name) for name, option, _ in ROLES if option is not None
        }
        options["sheriff"] = self.sheriff
        options["players"] = self.players
        if self.players != base.players:
            options["names"] = ()
            options["villager_only"] = ()
        config = dataclasses.replace(base, **options)
        try:
            config.validate()
        except ConfigError as error:
            raise SetupError(f"{self.text() or 'this setup'}: {error}") from None
        return config

    def changed(self, role: str, by: int) -> Setup | None:
        """This setup with one more (``by`` = 1) or one fewer (-1) ``role`` in place of a
        Villager (or a Villager in its place), or None when there is no such card to swap."""
        counts = dict(self.counts)
        if role == "villager" or counts[role] + by < 0 or counts["villager"] - by < 0:
            return None
        counts[role] += by
        counts["villager"] -= by
        return Setup(tuple((name, counts[name]) for name in ROLE_NAMES), self.sheriff)


def parse_setup(text: str) -> Setup:
    """Read a setup's text (see the module's description); :class:`SetupError` says what is
    wrong. The counts are checked here; whether they make a game, by :meth:`Setup.config`."""
    if not isinstance(text, str):
        raise SetupError("a setup is text such as werewolf=2,seer,guardian,villager=4")
    if len(text) > MAX_SETUP_LENGTH:
        raise SetupError(f"a setup is at most {MAX_SETUP_LENGTH} characters, got {len(text)}")
    items = [item.strip() for item in text.split(",")]
    if not text.strip():
        raise SetupError(
            "the setup is empty: name the roles, e.g. werewolf=2,seer,guardian,villager=4"
        )
    counts = dict.fromkeys(ROLE_NAMES, 0)
    named: set[str] = set()
    sheriff = False
    for item in items:
        if not item:
            raise SetupError(f"the setup {text.strip()!r} has an empty item between commas")
        word, equals, count_part = item.partition("=")
        word = re.sub(r"[\s-]+", "_", word.strip().lower())
        count_text = count_part.strip() if equals else None
        if _ROLE_WORD.match(word) is None:
            raise SetupError(f"{item!r}: write a role, or role=N with N a whole number")
        role = word
        role = _PLURALS.get(role, role)
        if role == SHERIFF:
            if count_text not in (None, "0", "1"):
                raise SetupError("sheriff takes no count: write sheriff to elect one")
            if SHERIFF in named:
                raise SetupError("sheriff is named twice")
            named.add(SHERIFF)
            sheriff = count_text != "0"
            continue
        if role not in counts:
            raise SetupError(
                f"unknown role {word!r}; the roles are {', '.join(ROLE_NAMES)} "
                f"(and {SHERIFF}, to elect a Sheriff)"
            )
        if role in named:
            raise SetupError(f"{role} is named twice; give its count once, as {role}=N")
        named.add(role)
        if count_text is None:
            count = 1
        elif count_text.isdigit() and len(count_text) <= 2:
            count = int(count_text)
        else:
            raise SetupError(
                f"{item!r}: the count of {role} must be a whole number from 0 to {MAX_PLAYERS}"
            )
        if count > MAX_PLAYERS:
            raise SetupError(f"{item!r}: a game has at most {MAX_PLAYERS} cards")
        counts[role] = count
    setup = Setup(tuple((name, counts[name]) for name in ROLE_NAMES), sheriff)
    if not MIN_PLAYERS <= setup.players <= MAX_PLAYERS:
        raise SetupError(
            f"{setup.text() or text.strip()!r} deals {setup.players} cards: a game needs one "
            f"card per player, {MIN_PLAYERS} to {MAX_PLAYERS}"
        )
    return setup


def setup_of(config: Config) -> Setup:
    """The deal of a Config as a setup."""
    counts = {
        name: (config.villager_count if option is None else getattr(config, option) or 0)
        for name, option, _ in ROLES
    }
    counts["werewolf"] = config.werewolf_count
    counts["seer"] = config.seer_count
    counts["guardian"] = config.guardian_count
    return Setup(tuple((name, counts[name]) for name in ROLE_NAMES), config.sheriff)


def config_from_setup(text: str, base: Config | None = None) -> Config:
    """Parse and deal in one step: the Config a setup's text makes (:class:`SetupError`)."""
    return parse_setup(text).config(base)


# -- the built-in library -------------------------------------------------------------------


@dataclass(frozen=True)
class Named:
    """A setup of the built-in library, with its balance as ``wolfden balance --setups``
    measured it (None until measured)."""

    key: str
    name: str
    setup: str
    about: str
    balance: dict[str, Any] | None = None


LIBRARY_SOURCE: tuple[tuple[str, str, str, str], ...] = (
    ("first-night", "First night", "werewolf,seer,villager=3", "5 players: one Werewolf."),
    ("small-village", "Small village", "werewolf,seer,guardian,villager=3", "6 players."),
    ("the-seed", "The seed", "werewolf=2,seer,guardian,villager=3", "The seed's 7 players."),
    (
        "witching-hour",
        "Witching hour",
        "werewolf=2,seer,witch,villager=4",
        "8 players: a Witch instead of the Guardian.",
    ),
    (
        "hunting-party",
        "Hunting party",
        "werewolf=2,seer,guardian,hunter,villager=4",
        "9 players with a Hunter.",
    ),
    (
        "fools-and-tanners",
        "Fools and tanners",
        "werewolf=2,seer,guardian,tanner,village_idiot,villager=3",
        "9 players: two roles that want the vote.",
    ),
    (
        "ten-classic",
        "Ten, classic",
        "werewolf=3,seer,guardian,villager=5",
        "The seed's 10 players.",
    ),
    (
        "lovers",
        "Lovers",
        "werewolf=2,seer,guardian,cupid,hunter,villager=4",
        "10 players with Cupid's Lovers.",
    ),
    (
        "wolf-pack",
        "Wolf pack",
        "werewolf=3,seer,guardian,minion,witch,villager=4",
        "11 players: a Minion helps the pack.",
    ),
    (
        "full-moon",
        "Full moon",
        "werewolf=3,seer,witch,hunter,villager=6",
        "12 players: three Werewolves against a Witch and a Hunter.",
    ),
    (
        "thirteen",
        "Thirteen",
        "werewolf=3,seer,guardian,lycan,hunter,villager=6,sheriff",
        "13 players with a Lycan and a Sheriff.",
    ),
    (
        "big-town",
        "Big town",
        "werewolf=4,seer,guardian,witch,hunter,villager=7",
        "15 players with a Witch and a Hunter.",
    ),
    (
        "festival",
        "Festival",
        "werewolf=4,seer=2,guardian,villager=8",
        "15 players, two Seers (the kernel plays it: 2,000 games).",
    ),
    (
        "everyone",
        "Everyone",
        "werewolf=4,seer,guardian,lycan,tanner,minion,hunter,village_idiot,witch,cupid,"
        "villager=3,sheriff",
        "16 players: every role.",
    ),
)
"""The built-in setups as (key, name, setup, about): 5 to 16 players."""

MEASURED = "setups_measured.json"
"""The library's measured balance, written by ``wolfden balance --setups`` beside this file."""


@cache
def library() -> tuple[Named, ...]:
    """The built-in setups, each with its measured balance when ``wolfden balance --setups``
    has measured it."""
    try:
        text = resources.files(__package__).joinpath(MEASURED).read_text(encoding="utf-8")
        measured: dict[str, Any] = json.loads(text)
    except FileNotFoundError:
        measured = {}
    return tuple(
        Named(key, name, setup, about, measured.get(key))
        for key, name, setup, about in LIBRARY_SOURCE
    )


def find_named(key: str) -> Named | None:
    return next((named for named in library() if named.key == key), None)
