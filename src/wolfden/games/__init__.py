"""The game registry: ``wolfden.games.get("werewolf")`` returns the game module."""

from __future__ import annotations

import importlib

from wolfden.engine.contract import Game
from wolfden.engine.errors import UnknownGame

# game id -> module. Each module implements wolfden.engine.contract.Game.
_MODULES: dict[str, str] = {
    "werewolf": "wolfden.games.werewolf",
    "werewords": "wolfden.games.werewords",
    "werwoelfe-kids": "wolfden.games.werwoelfe_kids",
    "robbers-horror": "wolfden.games.robbers_horror",
}

_loaded: dict[str, Game] = {}


def ids() -> list[str]:
    return list(_MODULES)


def get(game_id: str) -> Game:
    """The game registered under ``game_id``; UnknownGame names the registered ids otherwise."""
    game = _loaded.get(game_id)
    if game is None:
        module = _MODULES.get(game_id)
        if module is None:
            raise UnknownGame(f"unknown game {game_id!r}; the games are {', '.join(_MODULES)}")
        game = importlib.import_module(module)
        _loaded[game_id] = game
    return game


def all() -> list[Game]:
    """Every registered game, in registration order."""
    return [get(game_id) for game_id in _MODULES]
