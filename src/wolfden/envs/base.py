"""The PettingZoo AEC environment shared by every wolfden game.

A game's environment module only says how to build its config, its action layout, its
observation layout and how to encode one view; everything else comes from the game contract:

- **Agents** are the game's seats, named ``player_0`` … (a game may name them otherwise).
- **Observations** are ``{"observation": float32 vector in [0, 1], "action_mask": int8}``.
  The vector encodes ``game.view(state, Viewer.of(seat))`` and nothing else: the view is the
  information wall, so an agent never learns what its seat could not. The mask marks the
  indices of ``game.legal_actions(state, seat)``.
- **Turns.** The game may wait for several seats at once (a night, a secret ballot). The
  environment asks them one at a time, in an order drawn from its seeded generator; an agent's
  choice reaches the others only through their own views, exactly as at the table.
- **The clock** is virtual, as in the match runner: every agent action takes
  ``think_seconds``; when the game waits for nobody, or a phase's deadline has passed, the
  environment applies the deadline's action (seat ``None``) itself.
- **Leaving.** An agent whose seat is out of the game (eliminated) stays, never asked to act,
  until the end, so that it receives its team's result with everyone else. With
  ``dead_leave=True`` (the behaviour before) it is terminated at once and leaves after its
  last ``step(None)``, receiving nothing more.
- **Rewards** come at the end by team result: +1 to every seat of the winning team, −1 to
  every other seat, 0 to everyone in a draw. A game may add rewards along the way (Robbers'
  Horror scores every deal).
- ``max_cycles`` truncates a match after ``max_cycles × seats`` agent steps.
- ``history=K`` appends the last K events the seat has seen (``game.visible_events``, the
  same wall as the view) to the observation, one fixed-size row each, newest first.
- ``state()`` is the omniscient observation for centralised critics: every seat's
  observation end to end in seat order, then what no seat sees (``hidden_layout``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from wolfden import games, terminal
from wolfden.engine.config import config_from_json
from wolfden.engine.contract import Game
from wolfden.engine.errors import ConfigError, IllegalAction
from wolfden.engine.types import OMNISCIENT, TABLE, Action, Event, Outcome, Seat, Viewer
from wolfden.envs.layout import ActionLayout, Block, ObsLayout, ObsWriter

Observation = dict[str, np.ndarray]


class StuckEnvironment(RuntimeError):
    """The game waits for nobody and sets no deadline: a bug in the game."""


class WolfdenEnv(AECEnv[str, Observation, int]):
    """One wolfden game as an AEC environment. Subclasses fill in the class hooks below."""

    game_id: ClassVar[str]
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "wolfden_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        *,
        config: Any = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        think_seconds: float = 1.0,
        dead_leave: bool = False,
        history: int = 0,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game: Game = games.get(self.game_id)
        if config is None:
            config = self.make_config(**options)
        elif options:
            raise ConfigError(
                f"give either config= or game options, not both (got {sorted(options)})"
            )
        config.validate()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {render_mode!r} is not offered; use one of "
                f"{self.metadata['render_modes']} or None"
            )
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be at least 1 (or None), got {max_cycles}")
        if think_seconds <= 0:
            raise ValueError(f"think_seconds must be positive, got {think_seconds}")
        if isinstance(history, bool) or not isinstance(history, int) or history < 0:
            raise ValueError(f"history is a number of events, 0 or more, got {history!r}")
        self.config = config
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.think_seconds = float(think_seconds)
        self.dead_leave = dead_leave
        self.history = history
        seats = self.game.num_seats(config)
        self.possible_agents = [self.agent_name(s) for s in range(seats)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self.action_layout: ActionLayout = self.make_action_layout(config)
        self.observation_layout: ObsLayout = self.make_observation_layout(config)
        self.event_layout: ObsLayout = self.make_event_layout(config)
        self.hidden_layout: ObsLayout | None = self.make_hidden_layout(config)
        self._event_type = {t: i for i, t in enumerate(self.event_types)}
        self.observation_size = self.observation_layout.size + history * self.event_layout.size
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.observation_size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.action_layout.size,), dtype=np.int8),
            }
        )
        hidden = 0 if self.hidden_layout is None else self.hidden_layout.size
        self.state_space = spaces.Box(
            0.0, 1.0, (seats * self.observation_layout.size + hidden,), dtype=np.float32
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.action_layout.size) for a in self.possible_agents
        }
        self._np_random: np.random.Generator | None = None
        self.state_: Any = None
        self.agents: list[str] = []

    # -- hooks for a game's environment --------------------------------------------------

    def make_config(self, **options: Any) -> Any:
        """The game's config from keyword options: the Config's fields, enums also by value
        (``layout="4x4"``) and tuples also as lists. Unknown options are a ConfigError."""
        return config_from_json(self.game.Config, options)

    @classmethod
    def accepts(cls, config: Any) -> bool:
        """Whether this environment plays the given game config (all, unless it says not)."""
        return True

    def agent_name(self, seat: Seat) -> str:
        return f"player_{seat}"

    def make_action_layout(self, config: Any) -> ActionLayout:
        raise NotImplementedError

    def make_observation_layout(self, config: Any) -> ObsLayout:
        raise NotImplementedError

    def encode(self, view: Mapping[str, Any], seat: Seat) -> np.ndarray:
        """The observation vector of one view (use ``self.observation_layout.writer()``)."""
        raise NotImplementedError

    def encode_state(self, state: Any, seat: Seat) -> np.ndarray:
        """The observation vector of ``seat`` in ``state``: :meth:`encode` of the seat's view.

        This is what every observation and ``state()`` are made of. A game's environment may
        override it with a faster computation from the game's state that gives exactly the
        same vector (the view's encoding stays the definition): ``tests/envs/test_fast_obs.py``
        compares the two for every seat at every step of seeded matches."""
        return np.asarray(
            self.encode(self.game.view(state, Viewer.of(seat)), seat), dtype=np.float32
        )

    def legal_indices(self, seat: Seat, legal: Sequence[Action]) -> list[int]:
        """The action indices offered to ``seat`` for these legal actions."""
        index = self.action_layout.index
        out = []
        for action in legal:
            i = index.get(action)
            if i is None:
                raise StuckEnvironment(
                    f"{self.game_id}: legal action '{action}' has no index in the action layout"
                )
            out.append(i)
        return out

    def to_action(self, seat: Seat, index: int, legal: Sequence[Action]) -> Action:
        """The game action for an index chosen by ``seat`` (whose legal actions are given)."""
        return self.action_layout.actions[index]

    def host_action(self, state: Any) -> Action | None:
        """A host control (seat ``None``) the environment applies now, or None (the default)."""
        return None

    def seat_out(self, state: Any, seat: Seat) -> bool:
        """Whether this seat has left the game for good (eliminated)."""
        return False

    def step_rewards(
        self, before: Any, after: Any, events: Sequence[Event]
    ) -> Mapping[Seat, float]:
        """Rewards earned by one applied action, before the final result (none by default)."""
        return {}

    def max_return(self) -> float:
        """The largest total reward any seat can get in a match, in absolute value."""
        return 1.0

    offers_only_to_actors: ClassVar[bool] = False
    """True when the game offers legal actions only to the seats in ``game.actors(state)``: the
    mask of any other seat is then all zeros without asking the game (the fast-observation
    tests check the masks against the game's legal actions for every seat)."""

    event_types: ClassVar[tuple[str, ...]] = ()
    """The event types the history rows name one by one (any other is ``other``)."""

    def make_event_layout(self, config: Any) -> ObsLayout:
        """One row of the history: the event's type, who did it, to whom, whether it was
        public, and the game's own details (:meth:`event_blocks`)."""
        n = self.game.num_seats(config)
        types = ", ".join(self.event_types) if self.event_types else "(none named)"
        return ObsLayout(
            [
                Block("event", len(self.event_types) + 1, f"one-hot: {types}, other"),
                Block("who", n, "the seat the event names as acting (seat, guesser)"),
                Block("whom", n, "the seat the event names as its target"),
                Block("private", 1, "1 when the shared table screen did not show it"),
                *self.event_blocks(config),
            ]
        )

    def event_blocks(self, config: Any) -> Sequence[Block]:
        """A game's extra history columns (none by default)."""
        return ()

    def event_seat(self, seat: Any, viewer: Seat) -> int:
        """How a seat named by an event is numbered in the history (absolute by default)."""
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else -1

    def encode_event(self, event: Mapping[str, Any], viewer: Seat, w: ObsWriter) -> None:
        """A game's extra history columns of one event (nothing by default)."""

    def make_hidden_layout(self, config: Any) -> ObsLayout | None:
        """What no seat sees, appended to ``state()`` (nothing by default)."""
        return None

    def encode_hidden(self, view: Mapping[str, Any]) -> np.ndarray:
        """The ``hidden_layout`` part of ``state()`` from the omniscient view."""
        raise NotImplementedError

    def final_rewards(self, outcome: Outcome) -> Mapping[Seat, float]:
        """The end of the match: +1 to the winners, −1 to everyone else, 0 all round in a draw."""
        seats = range(len(self.possible_agents))
        if not outcome.winners:
            return dict.fromkeys(seats, 0.0)
        return {s: 1.0 if s in outcome.winners else -1.0 for s in seats}

    # -- PettingZoo API ------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._start(seed)
        self._skip_agent_selection = None
        self.agent_selection = self.agents[0]
        self._advance()
        self._deads_step_first()

    def _start(self, seed: int | None) -> None:
        """A new match: deal it from the seeded generator, nobody selected yet."""
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        game_seed = int(self._np_random.integers(0, 2**62))
        self.state_ = self.game.setup(self.config, game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.outcome: Outcome | None = None
        self.steps = 0
        self.now = 0.0
        self._started: dict[int, float] = {}
        self._obs_cache: dict[str, Observation] = {}
        self._legal_cache: dict[str, tuple[Any, list[Action], list[int]]] = {}
        self._seen: list[list[np.ndarray]] = [[] for _ in self.possible_agents]
        self._actors_of: Any = None
        self._actor_seats: frozenset[Seat] = frozenset()

    def observe(self, agent: str) -> Observation:
        cached = self._obs_cache.get(agent)
        if cached is not None:
            return cached
        seat = self._seat_of[agent]
        vector = self.encode_state(self.state_, seat)
        if self.history:
            vector = np.concatenate([vector, self._history_vector(seat)])
        mask = np.zeros(self.action_layout.size, dtype=np.int8)
        if not (
            self.terminations.get(agent)
            or self.truncations.get(agent)
            or (
                self.offers_only_to_actors
                and self._actors_of is self.state_
                and seat not in self._actor_seats
            )
        ):
            _, indices = self._legal(agent, seat)
            mask[indices] = 1
        obs: Observation = {"observation": vector, "action_mask": mask}
        self._obs_cache[agent] = obs
        return obs

    def _legal(self, agent: str, seat: Seat) -> tuple[list[Action], list[int]]:
        """The seat's legal actions and their indices, asked of the game once per state."""
        cached = self._legal_cache.get(agent)
        if cached is not None and cached[0] is self.state_:
            return cached[1], cached[2]
        legal = self.game.legal_actions(self.state_, seat)
        indices = self.legal_indices(seat, legal)
        self._legal_cache[agent] = (self.state_, legal, indices)
        return legal, indices

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} is still playing: choose an action index, not None")
        index = int(action)
        seat = self._seat_of[agent]
        legal, indices = self._legal(agent, seat)
        if index not in indices:
            raise IllegalAction(
                f"action {index} is not legal for {agent} now; legal indices: {sorted(indices)}"
            )
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.now += self.think_seconds
        self._apply(seat, self.to_action(seat, index, legal))
        self.steps += 1
        self._advance()
        if (
            self.max_cycles is not None
            and self.outcome is None
            and self.steps >= self.max_cycles * len(self.possible_agents)
        ):
            for a in self.agents:
                self.truncations[a] = True
        self._accumulate_rewards()
        self._deads_step_first()

    def state(self) -> np.ndarray:
        """The omniscient observation, for a centralised critic: every seat's observation
        vector (without history) end to end in seat order, then what no seat sees."""
        parts = [self.encode_state(self.state_, s) for s in range(len(self.possible_agents))]
        if self.hidden_layout is not None:
            omniscient = self.game.view(self.state_, OMNISCIENT)
            parts.append(np.asarray(self.encode_hidden(omniscient), dtype=np.float32))
        return np.concatenate(parts)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() was called without a render_mode; pass render_mode='ansi' or 'human'"
            )
            return None
        text = terminal.render(self.game_id, self.game.view(self.state_, TABLE))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self._obs_cache = {}

    # -- helpers for training scripts ----------------------------------------------------

    def seat(self, agent: str) -> Seat:
        return self._seat_of[agent]

    def view(self, agent: str) -> dict[str, Any]:
        """The game's own view for this agent (what a bot would be given)."""
        return self.game.view(self.state_, Viewer.of(self._seat_of[agent]))

    def legal_actions(self, agent: str) -> list[Action]:
        return self.game.legal_actions(self.state_, self._seat_of[agent])

    def action_index(self, agent: str, action: Action) -> int:
        """The index of one of this agent's legal actions."""
        seat = self._seat_of[agent]
        legal = self.game.legal_actions(self.state_, seat)
        for a, i in zip(legal, self.legal_indices(seat, legal)):
            if a == action:
                return i
        raise IllegalAction(f"'{action}' is not legal for {agent} now")

    # -- the moderator -------------------------------------------------------------------

    def _apply(self, seat: Seat | None, action: Action) -> None:
        before = self.state_
        self.state_, events = self.game.apply(before, seat, action)
        self._obs_cache = {}
        if self.history and events:
            self._remember(events)
        for s, r in self.step_rewards(before, self.state_, events).items():
            agent = self.possible_agents[s]
            if agent in self.rewards:
                self.rewards[agent] += r

    def _remember(self, events: Sequence[Event]) -> None:
        """Each seat's history rows for the events it may see, as the game filters them."""
        public = self.game.visible_events(self.state_, events, TABLE)
        for seat, rows in enumerate(self._seen):
            rows.extend(self.history_rows(self.state_, events, seat, public))
            del rows[: -self.history]

    def history_rows(
        self,
        state: Any,
        events: Sequence[Event],
        seat: Seat,
        public: Sequence[Mapping[str, Any]] | None = None,
    ) -> list[np.ndarray]:
        """The history rows ``seat`` gets for ``events`` (``state`` is the state after them):
        one per event that ``game.visible_events`` lets this seat see, oldest first."""
        game = self.game
        if public is None:
            public = game.visible_events(state, events, TABLE)
        rows = []
        for event in game.visible_events(state, events, Viewer.of(seat)):
            w = self.event_layout.writer()
            w.set("event", self._event_type.get(event.get("type", ""), len(self.event_types)))
            w.set("who", self.event_seat(event.get("seat", event.get("guesser")), seat))
            w.set("whom", self.event_seat(event.get("target"), seat))
            w.scalar("private", float(event not in public))
            self.encode_event(event, seat, w)
            rows.append(w.vector)
        return rows

    def _history_vector(self, seat: Seat) -> np.ndarray:
        rows = self._seen[seat]
        out = np.zeros(self.history * self.event_layout.size, dtype=np.float32)
        if rows:
            newest_first = np.concatenate(rows[::-1])
            out[: newest_first.size] = newest_first
        return out

    def _advance(self) -> None:
        """Apply the clock until an agent may act or the match is over; select that agent."""
        actors = self._settle()
        if len(actors) == 1:  # a draw from one would not move the generator
            self.agent_selection = self.possible_agents[actors[0]]
        elif actors:
            assert self._np_random is not None
            seat = actors[int(self._np_random.integers(len(actors)))]
            self.agent_selection = self.possible_agents[seat]

    def _settle(self) -> list[Seat]:
        """Apply the host's and the clock's actions until some seat may act; those seats, in
        order (none when the match is over)."""
        game = self.game
        while True:
            outcome = game.outcome(self.state_)
            if outcome is not None:
                self._finish(outcome)
                return []
            host = self.host_action(self.state_)
            if host is not None:
                self._apply(None, host)
                continue
            self._retire_the_out()
            self._started.setdefault(game.phase_seq(self.state_), self.now)
            self._actor_seats = game.actors(self.state_)
            self._actors_of = self.state_
            actors = sorted(
                s
                for s in self._actor_seats
                if self.possible_agents[s] in self.terminations
                and not self.terminations[self.possible_agents[s]]
            )
            dl = game.deadline(self.state_)
            if dl is not None:
                ends = self._started.setdefault(dl.phase, self.now) + dl.seconds
                if not actors or self.now + self.think_seconds >= ends:
                    self.now = max(self.now, ends)
                    self._apply(None, dl.action)
                    continue
            if not actors:
                raise StuckEnvironment(f"{self.game_id}: nobody may act and no deadline is set")
            return actors

    def _retire_the_out(self) -> None:
        if not self.dead_leave:
            return
        for agent in self.agents:
            if not self.terminations[agent] and self.seat_out(self.state_, self._seat_of[agent]):
                self.terminations[agent] = True

    def _finish(self, outcome: Outcome) -> None:
        self.outcome = outcome
        for s, r in self.final_rewards(outcome).items():
            agent = self.possible_agents[s]
            if agent in self.rewards and not self.terminations[agent]:
                self.rewards[agent] += r
        for agent in self.agents:
            self.terminations[agent] = True
            self.infos[agent] = {"outcome": outcome.to_json()}


def wrap(env: WolfdenEnv) -> Any:
    """Wrapped as PettingZoo's classic games are: an illegal action ends the match with −1 for
    the agent who made it; out-of-range actions are caught; the API order is enforced."""
    wrapped: Any = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
