"""Every wolfden game as a PettingZoo *parallel* environment.

``werewolf_v0.parallel_env(**kwargs)`` and friends take the options of the game's AEC
environment (:mod:`wolfden.envs.base`) and one more, ``illegal`` (below). One ``step`` is one
moment of the match:

- **Who acts.** Every live agent is in ``env.agents`` and must be given an action (PettingZoo's
  convention), but only the seats the game waits for act: their mask marks their legal
  indices. Every other agent's mask is all zeros and whatever it is given is ignored. At a
  Werewolf night the Werewolves, the Seer and the Guardian act in the same step; at a ballot
  every living voter; in Robbers' Horror the one seat whose turn it is.
- **Order inside a step.** The actions are applied to the game one by one in an order drawn
  from the environment's seeded generator, as the AEC environment serialises them. When one
  action makes another impossible (in Werewords only one question can be open, so of several
  seats asking at once the first in that order is heard), the overtaken action is dropped:
  it was legal when chosen, so it is no fault of its agent.
- **The clock.** A step takes ``think_seconds`` of virtual time for everyone (they think at
  once); the host's and the deadlines' actions are then applied as in the AEC environment.
- **Illegal actions.** ``illegal="terminate"`` (default, as PettingZoo's classic wrappers do):
  the match ends at once, −1 to the agent who chose an index outside its mask and 0 to the
  others; ``"raise"``: ``IllegalAction`` is raised and nothing is applied; ``"skip"``: the
  index is dropped and its seat is asked again next step (a hesitation, which the clock
  still charges).
- ``max_cycles`` truncates every agent after that many steps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import ParallelEnv

from wolfden.engine.errors import IllegalAction
from wolfden.engine.types import Seat
from wolfden.envs.base import Observation, WolfdenEnv

ILLEGAL = ("terminate", "raise", "skip")

Returns = tuple[
    dict[str, Observation],
    dict[str, float],
    dict[str, bool],
    dict[str, bool],
    dict[str, dict[str, Any]],
]


class WolfdenParallelEnv(ParallelEnv[str, Observation, int]):
    """A game's AEC environment (its encoding, rewards and clock) stepped a moment at a time."""

    def __init__(
        self, aec_class: Callable[..., WolfdenEnv], *, illegal: str = "terminate", **kwargs: Any
    ) -> None:
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL)}; got {illegal!r}")
        self.aec = aec_class(**kwargs)
        self.illegal = illegal
        self.metadata = {**self.aec.metadata, "is_parallelizable": True}
        self.render_mode = self.aec.render_mode
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.state_space = self.aec.state_space
        self.cycles = 0
        self._actors: list[Seat] = []
        # counted here in steps of the whole table, not by the AEC environment in agent steps
        self._max_cycles = self.aec.max_cycles
        self.aec.max_cycles = None

    @property
    def max_cycles(self) -> int | None:
        return self._max_cycles

    @max_cycles.setter
    def max_cycles(self, value: int | None) -> None:
        if value is not None and value < 1:
            raise ValueError(f"max_cycles must be at least 1 (or None), got {value}")
        self._max_cycles = value

    @property
    def unwrapped(self) -> WolfdenParallelEnv:
        return self

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        aec = self.aec
        aec._start(seed)
        self.cycles = 0
        self._actors = aec._settle()
        self.agents = [a for a in aec.possible_agents if not self._gone(a)]
        observations = {a: aec.observe(a) for a in self.agents}
        return observations, {a: dict(aec.infos[a]) for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> Returns:
        aec = self.aec
        if not self.agents:
            raise IllegalAction("the match is over: call reset() before step()")
        live = list(self.agents)
        for agent in live:
            aec.rewards[agent] = 0.0
        chosen: list[tuple[Seat, int]] = []
        offender: str | None = None
        for seat in self._actors:
            agent = aec.possible_agents[seat]
            _, indices = aec._legal(agent, seat)
            index = actions.get(agent)
            if index is None or int(index) not in indices:
                if self.illegal == "raise":
                    raise IllegalAction(
                        f"action {index} is not legal for {agent} now; legal indices: "
                        f"{sorted(indices)}"
                    )
                if self.illegal == "terminate":
                    offender = agent
                    break
                continue  # "skip"
            chosen.append((seat, int(index)))
        if offender is not None:
            return self._end_for(offender, live)
        assert aec._np_random is not None
        game = aec.game
        # one action needs no order (drawing one would not move the generator)
        order = aec._np_random.permutation(len(chosen)) if len(chosen) > 1 else range(len(chosen))
        for k in order:
            seat, index = chosen[int(k)]
            if game.outcome(aec.state_) is not None:
                break
            if seat not in game.actors(aec.state_):
                continue  # overtaken: another action ended this seat's turn
            legal, indices = aec._legal(aec.possible_agents[seat], seat)
            if index in indices:
                aec._apply(seat, aec.to_action(seat, index, legal))
                aec.steps += 1
        aec.now += aec.think_seconds
        self.cycles += 1
        self._actors = aec._settle()
        if self._max_cycles is not None and aec.outcome is None and self.cycles >= self._max_cycles:
            for agent in live:
                aec.truncations[agent] = True
            self._actors = []
        return self._returns(live)

    def _gone(self, agent: str) -> bool:
        return bool(self.aec.terminations[agent] or self.aec.truncations[agent])

    def _returns(self, live: list[str]) -> Returns:
        aec = self.aec
        aec._obs_cache = {}  # a truncation or a termination empties the masks
        observations = {a: aec.observe(a) for a in live}
        rewards = {a: aec.rewards[a] for a in live}
        terminations = {a: bool(aec.terminations[a]) for a in live}
        truncations = {a: bool(aec.truncations[a]) for a in live}
        infos = {a: dict(aec.infos[a]) for a in live}
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def _end_for(self, offender: str, live: list[str]) -> Returns:
        """An illegal index under ``illegal="terminate"``: −1 to its agent, the match ends."""
        aec = self.aec
        for agent in live:
            aec.terminations[agent] = True
            aec.infos[agent] = {"illegal_move": agent == offender}
        aec.rewards[offender] = -1.0
        self._actors = []
        return self._returns(live)

    def state(self) -> np.ndarray:
        return self.aec.state()

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()

    # -- helpers for training scripts, as on the AEC environment ------------------------

    def seat(self, agent: str) -> Seat:
        return self.aec.seat(agent)

    def acting(self) -> list[str]:
        """The agents whose actions the next step applies (the seats the game waits for)."""
        return [self.aec.possible_agents[s] for s in self._actors]


def parallel_env_of(aec_class: Callable[..., WolfdenEnv]) -> Callable[..., WolfdenParallelEnv]:
    """The ``parallel_env`` constructor of a game's environment module."""

    def parallel_env(**kwargs: Any) -> WolfdenParallelEnv:
        return WolfdenParallelEnv(aec_class, **kwargs)

    parallel_env.__doc__ = (
        f"{aec_class.__name__} of {getattr(aec_class, 'game_id', '?')} as a PettingZoo "
        "parallel environment (see wolfden.envs.parallel)."
    )
    return parallel_env
