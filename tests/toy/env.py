"""The toy game as a PettingZoo environment: pick 1, 2 or 3; see the round and the points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from wolfden.engine.types import Seat
from wolfden.envs.base import WolfdenEnv, wrap
from wolfden.envs.layout import ActionGroup, ActionLayout, Block, ObsLayout
from wolfden.envs.parallel import parallel_env_of

from ..sim import sim_tinygame as tiny


class raw_env(WolfdenEnv):
    game_id = "toy"
    metadata: ClassVar[dict[str, Any]] = {**WolfdenEnv.metadata, "name": "toy_v0"}

    def make_action_layout(self, config: Any) -> ActionLayout:
        return ActionLayout([ActionGroup("pick k", tiny.PICKS, "pick 1, 2 or 3")])

    def make_observation_layout(self, config: Any) -> ObsLayout:
        return ObsLayout(
            [
                Block("round", 1, "round / 20"),
                Block("points", 2, "evens' and odds' points / target"),
                Block("picked", 1, "1 when I have picked this round"),
            ]
        )

    def encode(self, view: Mapping[str, Any], seat: Seat) -> np.ndarray:
        w = self.observation_layout.writer()
        w.scalar("round", min(1.0, view["round"] / 20))
        w.fill("points", [p / self.config.target for p in view["points"]])
        w.scalar("picked", 1.0 if view.get("my_pick") else 0.0)
        return w.vector


def env(**kwargs: Any) -> Any:
    return wrap(raw_env(**kwargs))


parallel_env = parallel_env_of(raw_env)
