"""Playing in the terminal: one module per game draws its views (``render(view) -> str``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from wolfden.engine.types import Action


def module_for(game_id: str) -> ModuleType | None:
    """The game's terminal module as its registry entry names it (None: it names none)."""
    from wolfden import games

    return games.part(game_id, "terminal")


def render(game_id: str, view: Mapping[str, Any]) -> str:
    module = module_for(game_id)
    if module is None:
        return json.dumps(view, indent=1, ensure_ascii=False)
    text: str = module.render(view)
    return text


def describe(game_id: str, action: Action, view: Mapping[str, Any]) -> str:
    module = module_for(game_id)
    if module is not None and hasattr(module, "describe"):
        label: str = module.describe(action, view)
        return label
    return str(action)
