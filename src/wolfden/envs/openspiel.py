"""Every wolfden game as an OpenSpiel game (``pip install wolfden[openspiel]``).

Importing this module registers, for every game, ``python_wolfden_<game>`` (``-`` becomes
``_``) with OpenSpiel, and for each game with simultaneous moves also a turn-based
``python_wolfden_<game>_turns``; load them with ``pyspiel.load_game``. They are built on the
game's PettingZoo environment (:mod:`wolfden.envs`): the same action indices, the same clock,
the same rewards, and information states and observations derived from the same views.

- **Game type.** Imperfect information; explicit chance (one chance node at the start);
  intermediate rewards (Werewords pays each round, Robbers' Horror each deal); general-sum,
  except Werwölfe Kids (two teams, zero-sum). Werewolf, Werewords and Werwölfe Kids are
  ``SIMULTANEOUS`` (a night, a ballot, several players free to ask, a race duel): a node where
  the game waits for several seats is a simultaneous node, one where it waits for one seat a
  sequential node of that player. At a simultaneous node a seat the game does not wait for
  has one legal action, ``pass`` (the last index). The joint action is applied seat by seat,
  starting from a seat that turns with each move; an action another one made impossible is
  dropped. The ``_turns`` games ask the seats one at a time in seat order instead (the later
  ones see only what their views show, so a ballot stays secret), which algorithms for
  sequential games (ISMCTS, CFR) need. Robbers' Horror is ``SEQUENTIAL``.
- **Chance.** The first node draws one of ``seeds`` seeds uniformly; the seed deals the game
  (``game.setup(config, seed)``) and, as the game's own generator, decides every later draw
  too, none of which any player sees. So the game is the uniform mixture of ``seeds`` deals.
- **Opening.** With ``opening=k`` the first k moves after the deal are played by the game's
  ``rules`` bot for every seat (as part of the chance draw, from the seed), and the players
  take over from there: a small endgame of a big game, for exact algorithms.
- **Information state** of a player: its seat, every action it took and every event the
  game let it see (``visible_events``), then its current view (perfect recall), as a string;
  the tensor is the environment's observation of the view followed by the last ``history``
  events the player saw (fixed size, so not perfect recall). **Observation**: the view (as
  JSON) and the environment's observation vector.
- ``max_moves`` ends a match that has not finished after that many moves (each seat's action
  in a simultaneous node counts once per node); its returns are the rewards so far.
- **Parameters**: besides those above, every field of the game's ``Config`` and every extra
  option of its environment (``deal_reward``, ``rounds``, …) is a game parameter, as in
  ``pyspiel.load_game("python_wolfden_robbers_horror(players=3,deals=1)")``. A field whose
  default is a tuple or None (Werewolf's ``werewolves``, Robbers' Horror's ``icons``) is a
  string parameter: empty for the default, else its values separated by spaces.

``resample_from_infostate`` draws a state the player cannot tell from the real one with the
game's ``perturb_hidden``; the other players' memories of events are dropped in it (the
player cannot know them). ISMCTS uses it.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import json
from collections.abc import Sequence
from typing import Any

import numpy as np

try:
    import pyspiel  # type: ignore[import-not-found]
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "wolfden.envs.openspiel needs OpenSpiel: pip install 'wolfden[openspiel]'"
    ) from error

from wolfden import bots, envs, games
from wolfden.engine.errors import ConfigError
from wolfden.engine.rng import Rng, derive_seed
from wolfden.engine.types import Action, Event, Seat, Viewer
from wolfden.envs.base import StuckEnvironment, WolfdenEnv

SIMULTANEOUS = frozenset({"werewolf", "werewords", "werwoelfe-kids"})
"""The games with phases in which several seats act at once."""
ZERO_SUM = frozenset({"werwoelfe-kids"})

DEFAULT_PARAMS: dict[str, Any] = {
    "seeds": 1000,
    "opening": 0,
    "max_moves": 2000,
    "history": 16,
    "think_seconds": 1.0,
}


_ENV_OPTIONS = frozenset(
    {"config", "render_mode", "max_cycles", "think_seconds", "dead_leave", "history"}
)


def game_parameters(game_id: str) -> dict[str, Any]:
    """The game's own OpenSpiel parameters and their defaults: its Config's fields and its
    environment's extra options. Enums are given by value; tuple and None fields as strings
    (empty: the default)."""
    out: dict[str, Any] = {}
    config = games.get(game_id).Config()
    for field in dataclasses.fields(config):
        value = getattr(config, field.name)
        if isinstance(value, enum.Enum):
            value = value.value
        if value is None or isinstance(value, tuple):
            value = ""
        out[field.name] = value
    signature = inspect.signature(envs.module(game_id).raw_env.__init__)
    for p in signature.parameters.values():
        if p.kind is p.KEYWORD_ONLY and p.name not in _ENV_OPTIONS:
            out[p.name] = p.default
    return out


def _token(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def environment_options(game_id: str, params: dict[str, Any]) -> dict[str, Any]:
    """The environment's keyword options from a game's OpenSpiel parameters."""
    config = games.get(game_id).Config()
    out: dict[str, Any] = {}
    for name, default in game_parameters(game_id).items():
        value = params.get(name, default)
        if hasattr(config, name) and default == "" and not isinstance(getattr(config, name), str):
            if value == "":
                continue  # the Config's own default
            tokens = [_token(v) for v in str(value).split()]
            value = tokens if isinstance(getattr(config, name), tuple) else tokens[0]
        out[name] = value
    return out


def game_name(game_id: str, turn_based: bool = False) -> str:
    """The OpenSpiel name of a wolfden game, e.g. ``python_wolfden_robbers_horror``."""
    return "python_wolfden_" + game_id.replace("-", "_") + ("_turns" if turn_based else "")


def names() -> list[str]:
    """Every registered name."""
    out = []
    for game_id in envs.ids():
        out.append(game_name(game_id))
        if game_id in SIMULTANEOUS:
            out.append(game_name(game_id, turn_based=True))
    return out


class _Same:
    """A value shared, not copied, when OpenSpiel clones a state (it deep-copies the state's
    attributes): wolfden states are never changed in place, nor are these tuples."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Same:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Same, (self.value,))


def _game_type(game_id: str, turn_based: bool) -> Any:
    gt = pyspiel.GameType
    simultaneous = game_id in SIMULTANEOUS and not turn_based
    title = games.get(game_id).title
    return pyspiel.GameType(
        short_name=game_name(game_id, turn_based),
        long_name=f"wolfden {title}" + (" (turn-based)" if turn_based else ""),
        dynamics=gt.Dynamics.SIMULTANEOUS if simultaneous else gt.Dynamics.SEQUENTIAL,
        chance_mode=gt.ChanceMode.EXPLICIT_STOCHASTIC,
        information=gt.Information.IMPERFECT_INFORMATION,
        utility=gt.Utility.ZERO_SUM if game_id in ZERO_SUM else gt.Utility.GENERAL_SUM,
        reward_model=gt.RewardModel.REWARDS,
        max_num_players=64,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={**DEFAULT_PARAMS, **game_parameters(game_id)},
    )


class Setup:
    """What a game's states need: its environment (encoding, rewards, clock) and parameters.

    Kept beside the OpenSpiel game object, not on it, and found again by the game's name and
    parameters, so that a game OpenSpiel rebuilds (deserialising, unpickling) finds it too."""

    def __init__(self, game_id: str, turn_based: bool, params: dict[str, Any]) -> None:
        params = {**DEFAULT_PARAMS, **game_parameters(game_id), **params}
        options = environment_options(game_id, params)
        for name in ("seeds", "max_moves"):
            if params[name] < 1:
                raise ConfigError(f"{name} must be at least 1, got {params[name]}")
        if params["opening"] < 0:
            raise ConfigError(f"opening must be 0 or more, got {params['opening']}")
        self.game_id = game_id
        self.params = params
        self.env: WolfdenEnv = envs.module(game_id).raw_env(
            history=params["history"], think_seconds=params["think_seconds"], **options
        )
        self.simultaneous = game_id in SIMULTANEOUS and not turn_based
        self.players = len(self.env.possible_agents)
        self.actions = self.env.action_layout.size
        self.pass_action = self.actions if self.simultaneous else None
        self.seeds = int(params["seeds"])
        self.opening = int(params["opening"])
        self.max_moves = int(params["max_moves"])


_SETUPS: dict[str, Setup] = {}


def setup_of(game: Any) -> Setup:
    """The :class:`Setup` of a loaded wolfden game."""
    key = str(game)
    found = _SETUPS.get(key)
    if found is None:
        name = game.get_type().short_name
        game_id = next(g for g in envs.ids() if name.startswith(game_name(g)))
        found = Setup(game_id, name.endswith("_turns"), dict(game.get_parameters()))
        _SETUPS[key] = found
    return found


class WolfdenGame(pyspiel.Game):
    """One wolfden game config, as OpenSpiel sees it."""

    game_id: str = ""
    turn_based: bool = False

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULT_PARAMS, **game_parameters(self.game_id), **(params or {})}
        setup = Setup(self.game_id, self.turn_based, params)
        bound = setup.env.max_return()
        super().__init__(
            _game_type(self.game_id, self.turn_based),
            pyspiel.GameInfo(
                num_distinct_actions=setup.actions + (1 if setup.simultaneous else 0),
                max_chance_outcomes=setup.seeds,
                num_players=setup.players,
                min_utility=-bound,
                max_utility=bound,
                utility_sum=0.0 if self.game_id in ZERO_SUM else None,
                max_game_length=1 + setup.max_moves * (setup.players if setup.simultaneous else 1),
            ),
            params,
        )
        _SETUPS[str(self)] = setup

    def new_initial_state(self) -> WolfdenState:
        return WolfdenState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> WolfdenObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return WolfdenObserver(setup_of(self), perfect_recall)


class WolfdenState(pyspiel.State):
    """A match in progress: the wolfden state, the virtual clock, what each seat has seen."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        setup = setup_of(game)
        self._key = str(game)  # the setup is found by it (a state pickles without it)
        n = setup.players
        self._state = _Same(None)
        self._dealt = False
        self._terminal = False
        self._truncated = False
        self._actors: tuple[Seat, ...] = ()
        self._now = 0.0
        self._started: dict[int, float] = {}
        self._moves = 0
        self._rewards = [0.0] * n
        self._returns = [0.0] * n
        # per seat: its actions, the events it saw (JSON), its history rows
        self._own = _Same(tuple(() for _ in range(n)))
        self._seen = _Same(tuple(() for _ in range(n)))
        self._rows = _Same(tuple(() for _ in range(n)))
        self._asked = _Same(tuple(() for _ in range(n)))  # the states it chose in, for bots

    # -- what the adapter reads ----------------------------------------------------------

    @property
    def _game(self) -> _Same:
        setup = _SETUPS.get(self._key)
        if setup is None:
            setup = setup_of(pyspiel.load_game(self._key))
        return _Same(setup)

    @property
    def wolfden_state(self) -> Any:
        """The wolfden game state (None before the chance node)."""
        return self._state.value

    @property
    def acting(self) -> tuple[Seat, ...]:
        """The seats the game waits for now."""
        return self._actors

    # -- OpenSpiel API ---------------------------------------------------------------------

    def current_player(self) -> int:
        if self._terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if not self._dealt:
            return int(pyspiel.PlayerId.CHANCE)
        if self._game.value.simultaneous and len(self._actors) > 1:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return self._actors[0]

    def _legal_actions(self, player: int) -> list[int]:
        if self._terminal or not self._dealt:
            return []
        game: Setup = self._game.value
        if game.simultaneous and len(self._actors) > 1:
            if player in self._actors:
                return self._indices(player)
            return [int(game.pass_action)]  # type: ignore[arg-type]
        return self._indices(player) if player == self._actors[0] else []

    def _env(self) -> WolfdenEnv:
        """The game's environment, looking at this state (a game's index hooks may read it:
        Werewords numbers the answer to the oldest open question)."""
        env: WolfdenEnv = self._game.value.env
        env.state_ = self._state.value
        return env

    def _indices(self, seat: Seat) -> list[int]:
        env = self._env()
        legal = env.game.legal_actions(self._state.value, seat)
        return sorted(set(env.legal_indices(seat, legal)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        seeds = self._game.value.seeds
        return [(i, 1.0 / seeds) for i in range(seeds)]

    def _apply_action(self, action: int) -> None:
        game: Setup = self._game.value
        self._rewards = [0.0] * game.players
        if not self._dealt:
            self._deal(int(action))
            return
        seat = self.current_player()
        self._play(seat, int(action))
        self._now += game.env.think_seconds
        self._moves += 1
        self._settle()

    def _apply_actions(self, actions: Sequence[int]) -> None:
        game: Setup = self._game.value
        self._rewards = [0.0] * game.players
        n = game.players
        first = self._moves % n
        for seat in sorted(self._actors, key=lambda s: (s - first) % n):
            if self._terminal or game.env.game.outcome(self._state.value) is not None:
                break
            if seat not in game.env.game.actors(self._state.value):
                continue  # another's action ended this seat's turn
            if int(actions[seat]) in self._indices(seat):
                self._play(seat, int(actions[seat]))
        self._now += game.env.think_seconds
        self._moves += 1
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        game: Setup = self._game.value
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        if action == game.pass_action:
            return "pass"
        return str(game.env.action_layout.actions[action])

    def is_terminal(self) -> bool:
        return self._terminal

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def returns(self) -> list[float]:
        return list(self._returns)

    def __str__(self) -> str:
        if not self._dealt:
            return "(not dealt)"
        game: Setup = self._game.value
        from wolfden.engine.types import OMNISCIENT

        view = game.env.game.view(self._state.value, OMNISCIENT)
        return json.dumps(view, sort_keys=True, default=str)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> WolfdenState:
        """A state ``player_id`` cannot tell from this one (``perturb_hidden``), in which the
        other players remember no events (the player cannot know what they saw)."""
        clone: WolfdenState = self.clone()
        if not self._dealt or self._terminal:
            return clone
        game: Setup = self._game.value
        seed = int(probability_sampler() * 2**62) if callable(probability_sampler) else 0
        twin = game.env.game.perturb_hidden(self._state.value, Viewer.of(player_id), Rng(seed))
        if twin is not None:
            clone._state = _Same(twin)
        keep = player_id

        def only_mine(per_seat: tuple[Any, ...]) -> tuple[Any, ...]:
            return tuple(v if s == keep else () for s, v in enumerate(per_seat))

        clone._seen = _Same(only_mine(self._seen.value))
        clone._own = _Same(only_mine(self._own.value))
        clone._rows = _Same(only_mine(self._rows.value))
        clone._asked = _Same(only_mine(self._asked.value))
        return clone

    # -- the moderator, as in the environment ---------------------------------------------

    def _deal(self, seed: int) -> None:
        game: Setup = self._game.value
        env = game.env
        self._state = _Same(env.game.setup(env.config, seed))
        self._dealt = True
        self._settle()
        if game.opening:
            seated = {s: bots.make(env.game_id, "rules", s) for s in range(game.players)}
            rng = Rng(derive_seed(seed, 0x0BE7))
            for _ in range(game.opening):
                if self._terminal:
                    break
                seat = self._actors[0]
                view = env.game.view(self._state.value, Viewer.of(seat))
                legal = env.game.legal_actions(self._state.value, seat)
                action = seated[seat].act(view, legal, rng)
                self._note_asked(seat)
                self._apply(seat, action)
                self._now += env.think_seconds
                self._settle()

    def _play(self, seat: Seat, index: int) -> None:
        env = self._env()
        legal = env.game.legal_actions(self._state.value, seat)
        if index not in env.legal_indices(seat, legal):
            raise pyspiel.SpielError(f"action {index} is not legal for seat {seat} now")
        own = list(self._own.value)
        own[seat] = (*own[seat], index)
        self._own = _Same(tuple(own))
        self._note_asked(seat)
        self._apply(seat, env.to_action(seat, index, legal))

    def _note_asked(self, seat: Seat) -> None:
        asked = list(self._asked.value)
        asked[seat] = (*asked[seat], self._state.value)
        self._asked = _Same(tuple(asked))

    def _apply(self, seat: Seat | None, action: Action) -> None:
        game: Setup = self._game.value
        env = game.env
        before = self._state.value
        after, events = env.game.apply(before, seat, action)
        self._state = _Same(after)
        for s, r in env.step_rewards(before, after, events).items():
            self._rewards[s] += r
            self._returns[s] += r
        if events:
            self._remember(after, events)

    def _remember(self, state: Any, events: Sequence[Event]) -> None:
        env = self._game.value.env
        seen = list(self._seen.value)
        rows = list(self._rows.value)
        for s in range(len(seen)):
            visible = env.game.visible_events(state, events, Viewer.of(s))
            if not visible:
                continue
            seen[s] = (*seen[s], *(json.dumps(e, sort_keys=True) for e in visible))
            if env.history:
                kept = (*rows[s], *env.history_rows(state, events, s))
                rows[s] = kept[-env.history :]
        self._seen = _Same(tuple(seen))
        self._rows = _Same(tuple(rows))

    def _settle(self) -> None:
        game: Setup = self._game.value
        env = game.env
        rules = env.game
        while True:
            state = self._state.value
            outcome = rules.outcome(state)
            if outcome is not None:
                for s, r in env.final_rewards(outcome).items():
                    self._rewards[s] += r
                    self._returns[s] += r
                self._terminal, self._actors = True, ()
                return
            if self._moves >= game.max_moves:
                self._terminal, self._truncated, self._actors = True, True, ()
                return
            host = env.host_action(state)
            if host is not None:
                self._apply(None, host)
                continue
            self._started.setdefault(rules.phase_seq(state), self._now)
            actors = sorted(rules.actors(state))
            due = rules.deadline(state)
            if due is not None:
                ends = self._started.setdefault(due.phase, self._now) + due.seconds
                if not actors or self._now + env.think_seconds >= ends:
                    self._now = max(self._now, ends)
                    self._apply(None, due.action)
                    continue
            if not actors:
                raise StuckEnvironment(f"{env.game_id}: nobody may act and no deadline is set")
            self._actors = tuple(actors)
            return


class WolfdenObserver:
    """OpenSpiel's observer: information states (perfect recall) or observations."""

    def __init__(self, game: Setup, perfect_recall: bool) -> None:
        env = game.env
        self.game = game
        self.perfect_recall = perfect_recall
        size = env.observation_layout.size
        history = env.history * env.event_layout.size if perfect_recall else 0
        self.tensor = np.zeros(size + history, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if history:
            self.dict["history"] = self.tensor[size:]

    def set_from(self, state: WolfdenState, player: int) -> None:
        self.tensor.fill(0.0)
        if not state._dealt:
            return
        env = self.game.env
        view = env.game.view(state.wolfden_state, Viewer.of(player))
        self.dict["observation"][:] = env.encode(view, player)
        if "history" in self.dict:
            rows = state._rows.value[player]
            if rows:
                newest_first = np.concatenate(rows[::-1])
                self.dict["history"][: newest_first.size] = newest_first

    def string_from(self, state: WolfdenState, player: int) -> str:
        if not state._dealt:
            return f"seat {player}: not dealt"
        env = self.game.env
        view = json.dumps(
            env.game.view(state.wolfden_state, Viewer.of(player)), sort_keys=True, default=str
        )
        if not self.perfect_recall:
            return view
        mine = ",".join(str(a) for a in state._own.value[player])
        seen = "\n".join(state._seen.value[player])
        return f"seat {player}\nmy actions: {mine}\nseen:\n{seen}\nview: {view}"


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for game_id in envs.ids():
        variants = [False, True] if game_id in SIMULTANEOUS else [False]
        for turn_based in variants:
            name = game_name(game_id, turn_based)
            if name in registered:
                continue
            class_name = "Game_" + name.removeprefix("python_wolfden_")
            cls = type(
                class_name,
                (WolfdenGame,),
                {"game_id": game_id, "turn_based": turn_based, "__module__": __name__},
            )
            globals()[class_name] = cls  # so that a game pickles, as OpenSpiel's checks ask
            pyspiel.register_game(_game_type(game_id, turn_based), cls)


_register()


# -- policies and measures ----------------------------------------------------------------


def bot_policy(game: Any, kind: str = "rules", samples: int = 16) -> Any:
    """A wolfden bot as an OpenSpiel policy. At each decision a new bot of that kind is
    shown, in order, the views and legal actions of the player's earlier decisions (so a bot
    that remembers what it saw remembers it here too), then the current one; the policy is
    the frequency of its choices over ``samples`` draws of its random numbers (a bot that
    draws none gives its one choice probability 1)."""
    from open_spiel.python import policy as policy_lib  # type: ignore[import-untyped]

    wolfden_game = setup_of(game)
    env = wolfden_game.env
    rules = env.game

    class BotPolicy(policy_lib.Policy):
        def __init__(self) -> None:
            super().__init__(game, list(range(game.num_players())))

        def action_probabilities(
            self, state: WolfdenState, player_id: int | None = None
        ) -> dict[int, float]:
            seat = state.current_player() if player_id is None else player_id
            offered = state.legal_actions(seat)
            if offered == [wolfden_game.pass_action]:
                return {offered[0]: 1.0}
            state._env()
            past = [*state._asked.value[seat], state.wolfden_state]
            shown = [(rules.view(s, Viewer.of(seat)), rules.legal_actions(s, seat)) for s in past]
            counts: dict[int, float] = {}
            for k in range(samples):
                bot = bots.make(env.game_id, kind, seat)
                for i, (view, legal) in enumerate(shown):
                    action = bot.act(view, legal, Rng(derive_seed(k, i)))
                legal_now = shown[-1][1]
                index = env.legal_indices(seat, [action])[0] if action in legal_now else -1
                if index not in offered:
                    raise pyspiel.SpielError(f"the {kind} bot chose {action}, not a legal move")
                counts[index] = counts.get(index, 0.0) + 1.0 / samples
            return counts

    return BotPolicy()


def nash_conv(game: Any, policy: Any) -> float:
    """OpenSpiel's NashConv of a policy: the sum over players of what each gains by a best
    response against the others (exploitability is NashConv / players)."""
    from open_spiel.python.algorithms import exploitability  # type: ignore[import-untyped]

    return float(exploitability.nash_conv(game, policy))


def load(game_id: str, turn_based: bool = False, **params: Any) -> Any:
    """``pyspiel.load_game`` of a wolfden game with its parameters (a tuple or None field may
    be given as a list or None)."""
    for name, value in list(params.items()):
        if value is None or isinstance(value, (list, tuple)):
            params[name] = "" if value is None else " ".join(str(v) for v in value)
    return pyspiel.load_game(game_name(game_id, turn_based), params)


ENDGAME_PLAYERS = 3


def robbers_horror_endgame(tricks: int = 3, seeds: int = 10) -> Any:
    """The small Robbers' Horror for exact algorithms (CFR, NashConv): three players, one
    deal, only the deal's result as reward (``match_reward=0``); the ``rules`` bot plays every
    trick but the last ``tricks`` (the ``opening``), drawn from ``seeds`` deals."""
    options: dict[str, Any] = {"players": ENDGAME_PLAYERS, "deals": 1, "match_reward": 0.0}
    env = envs.module("robbers-horror").raw_env(**options)
    hand = env.game.view(env.game.setup(env.config, 0), Viewer.of(0))["hand_size"]
    if not 1 <= tricks <= hand:
        raise ConfigError(f"tricks is from 1 to {hand} (the hand size), got {tricks}")
    return load(
        "robbers-horror",
        **options,
        seeds=seeds,
        opening=ENDGAME_PLAYERS * (hand - tricks),
    )
