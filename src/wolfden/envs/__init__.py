"""Every wolfden game as a PettingZoo AEC environment (``pip install wolfden[rl]``).

``wolfden.envs.werewolf_v0.env()`` and friends, ``parallel_env()`` for the parallel API;
each game's registry entry (``wolfden.games.Entry.env``) names its environment module. See
docs/rl.md for the observation and action layouts (``python -m wolfden.envs`` prints them,
``python -m wolfden.envs --write docs/rl.md`` refreshes the tables there).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import ModuleType
from typing import Any

from wolfden import games
from wolfden.engine.errors import UnknownGame


def ids() -> list[str]:
    """The registered games that have an environment, in registration order."""
    return [g for g in games.ids() if games.entry(g).env is not None]


def module(game_id: str) -> ModuleType:
    """The environment module of a game (``env``, ``raw_env``)."""
    found = games.part(game_id, "env") if game_id in games.ids() else None
    if found is None:
        raise UnknownGame(
            f"no environment for {game_id!r}; the environments are {', '.join(ids())}"
        )
    return found


def env(game_id: str, **kwargs: Any) -> Any:
    """The wrapped environment of a game, e.g. ``env("werewolf", players=9)``."""
    return module(game_id).env(**kwargs)


def parallel_env(game_id: str, **kwargs: Any) -> Any:
    """The parallel environment of a game, e.g. ``parallel_env("werewolf", players=9)``."""
    return module(game_id).parallel_env(**kwargs)


def layout_markdown(game_id: str) -> str:
    """The observation and action tables of a game's environment with its default config."""
    raw = module(game_id).raw_env()
    obs = raw.observation_layout
    acts = raw.action_layout
    row = raw.event_layout
    hidden = raw.hidden_layout
    text = (
        f"Default config: {len(raw.possible_agents)} agents, observation of {obs.size} "
        f"entries, {acts.size} actions.\n\n"
        f"Observation:\n\n{obs.describe()}\n\nActions:\n\n{acts.describe()}\n\n"
        f"History row (`history=K` appends K of them, {row.size} entries each):\n\n"
        f"{row.describe()}\n"
    )
    if hidden is not None:
        text += f"\nWhat no seat sees, at the end of `state()`:\n\n{hidden.describe()}\n"
    return text


def _marker(game_id: str) -> tuple[str, str]:
    return f"<!-- layout:{game_id} -->", f"<!-- /layout:{game_id} -->"


def _constant(section: str) -> Callable[[re.Match[str]], str]:
    return lambda _match: section


def refresh_tables(text: str) -> str:
    """``text`` with every ``<!-- layout:GAME -->`` section replaced by the current tables."""
    for game_id in ids():
        start, end = _marker(game_id)
        pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.DOTALL)
        section = f"{start}\n{layout_markdown(game_id)}{end}"
        text = pattern.sub(_constant(section), text)
    return text
