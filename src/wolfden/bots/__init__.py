"""Bots: ``act(view, legal_actions, rng) -> Action``. They never receive the state.

Every game has a ``random`` bot (uniform over the legal actions) and a ``rules`` bot; a game's
bots live in the module its registry entry names (``wolfden.games.Entry.bots``) as a ``BOTS``
mapping of kind -> factory(seat); a game without one has the random bot only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from wolfden.engine.errors import ConfigError
from wolfden.engine.rng import Rng
from wolfden.engine.types import Action, Seat


class RandomBot:
    """Uniform over the legal actions. It does not even look at its view."""

    needs_view = False

    def __init__(self, seat: Seat) -> None:
        self.seat = seat

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        return legal[rng.below(len(legal))]


BotFactory = Callable[[Seat], Any]


def kinds(game_id: str) -> dict[str, BotFactory]:
    """The bot kinds of a game, by name (``random`` first)."""
    from wolfden import games

    module = games.part(game_id, "bots")
    return {"random": RandomBot, **(module.BOTS if module is not None else {})}


def make(game_id: str, kind: str, seat: Seat) -> Any:
    available = kinds(game_id)
    factory = available.get(kind)
    if factory is None:
        raise ConfigError(f"unknown bot {kind!r} for {game_id}; choose {', '.join(available)}")
    return factory(seat)
