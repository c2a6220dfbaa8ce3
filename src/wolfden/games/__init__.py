"""The game registry: one :class:`Entry` per game, naming every part of it.

``wolfden.games.get("werewolf")`` returns the game's rules module (the game contract). The
other parts (bots, PettingZoo environment, terminal renderer, web client module) are named in
the same entry and found through it by the simulator, the server, the environments, the
terminal and the web client; nothing finds a part of a game from its id by a naming
convention. Adding a game means adding its folder and one :func:`register` call below.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from types import ModuleType

from wolfden.engine.contract import Game
from wolfden.engine.errors import UnknownGame

_CLIENT = re.compile(r"[a-z0-9][a-z0-9_-]*\.js")


@dataclass(frozen=True)
class Entry:
    """Where the parts of one game live (module paths, imported when first needed).

    ``rules`` implements :class:`wolfden.engine.contract.Game`. ``bots`` has a ``BOTS``
    mapping of kind -> factory(seat) (without it the game has the random bot only). ``env``
    has ``env``, ``raw_env`` and ``parallel_env`` (PettingZoo). ``terminal`` has
    ``render(view)`` and may have ``describe``, ``EXTRA_OPTIONS`` and ``apply_extra``
    (without it the terminal shows the view as JSON). ``client`` is the web client's module
    file in ``wolfden/web/games/`` (without it the web client's generic renderer plays it).
    """

    id: str
    rules: str
    bots: str | None = None
    env: str | None = None
    terminal: str | None = None
    client: str | None = None

    def __post_init__(self) -> None:
        if self.client is not None and not _CLIENT.fullmatch(self.client):
            raise ValueError(f"client is a file name such as 'werewolf.js', not {self.client!r}")


_ENTRIES: dict[str, Entry] = {}
_loaded: dict[str, Game] = {}


def register(entry: Entry) -> None:
    """Add a game (or replace the entry of the same id)."""
    _ENTRIES[entry.id] = entry
    _loaded.pop(entry.id, None)


def unregister(game_id: str) -> None:
    _ENTRIES.pop(game_id, None)
    _loaded.pop(game_id, None)


register(
    Entry(
        "werewolf",
        rules="wolfden.games.werewolf",
        bots="wolfden.bots.werewolf",
        env="wolfden.envs.werewolf_v0",
        terminal="wolfden.terminal.werewolf",
        client="werewolf.js",
    )
)
register(
    Entry(
        "werewords",
        rules="wolfden.games.werewords",
        bots="wolfden.bots.werewords",
        env="wolfden.envs.werewords_v0",
        terminal="wolfden.terminal.werewords",
        client="werewords.js",
    )
)
register(
    Entry(
        "werwoelfe-kids",
        rules="wolfden.games.werwoelfe_kids",
        bots="wolfden.bots.werwoelfe_kids",
        env="wolfden.envs.werwoelfe_kids_v0",
        terminal="wolfden.terminal.werwoelfe_kids",
        client="werwoelfe-kids.js",
    )
)
register(
    Entry(
        "robbers-horror",
        rules="wolfden.games.robbers_horror",
        bots="wolfden.bots.robbers_horror",
        env="wolfden.envs.robbers_horror_v0",
        terminal="wolfden.terminal.robbers_horror",
        client="robbers-horror.js",
    )
)


def ids() -> list[str]:
    return list(_ENTRIES)


def entry(game_id: str) -> Entry:
    """The registry entry of ``game_id``; UnknownGame names the registered ids otherwise."""
    found = _ENTRIES.get(game_id)
    if found is None:
        raise UnknownGame(f"unknown game {game_id!r}; the games are {', '.join(_ENTRIES)}")
    return found


def part(game_id: str, name: str) -> ModuleType | None:
    """The module of one part of a registered game (``"bots"``, ``"env"``, ``"terminal"``),
    or None when the entry names none (an unregistered game has none). An error while
    importing a named module is raised as it is."""
    found = _ENTRIES.get(game_id)
    path = getattr(found, name) if found is not None else None
    return None if path is None else importlib.import_module(path)


def get(game_id: str) -> Game:
    """The game registered under ``game_id``; UnknownGame names the registered ids otherwise."""
    game = _loaded.get(game_id)
    if game is None:
        game = importlib.import_module(entry(game_id).rules)
        _loaded[game_id] = game
    return game


def all() -> list[Game]:
    """Every registered game, in registration order."""
    return [get(game_id) for game_id in _ENTRIES]
