"""The toy game's bots: ``twos`` always picks 2."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wolfden.engine.rng import Rng
from wolfden.engine.types import Action


class TwosBot:
    needs_view = False

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def act(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        return next(a for a in legal if a.args == (2,))


BOTS = {"twos": TwosBot}
