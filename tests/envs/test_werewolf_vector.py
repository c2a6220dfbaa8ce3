"""The batched Werewolf environment on the kernel gives, step for step, the single
environment's observations, masks and rewards, and refuses bad input clearly.

Where several seats may act at once, each environment draws the one it asks from its own
generator; side by side, the single environment is made to ask the seat the batched one chose
(after checking that the game lets that seat act), so both play the same match."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("pettingzoo")

from wolfden.engine.errors import ConfigError
from wolfden.engine.types import Viewer
from wolfden.envs import werewolf_vector
from wolfden.envs.werewolf_v0 import raw_env
from wolfden.envs.werewolf_vector import VectorEnv, encode
from wolfden.kernel.rng import generator

CONFIGS: list[dict[str, Any]] = [
    {},
    {"players": 9, "pack_rounds": 1},
    {"players": 12, "public_ballots": False},
    {"players": 8, "werewolves": 2, "seers": 2, "guardians": 2, "villager_only": [0, 3]},
    {"players": 7, "round_limit": 2, "vote_seconds": 5},
    {"players": 10, "night_seconds": 10, "min_night_seconds": 0, "think_seconds": 3},
    {"players": 7, "vote_seconds": 5, "think_seconds": 6},
]


def _id(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"


def _split(options: dict[str, Any]) -> tuple[dict[str, Any], float]:
    game = dict(options)
    think = float(game.pop("think_seconds", 1.0))
    return game, think


@pytest.mark.parametrize("options", CONFIGS, ids=_id)
def test_every_step_matches_the_single_environment(options: dict[str, Any]) -> None:
    _side_by_side(options, seed=2000)


def test_the_ballot_tables_grow_without_changing_a_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """Room for one closed ballot at first: the tables grow between steps, as they must."""
    monkeypatch.setattr(werewolf_vector, "TALLY_ROWS", 1)
    rows = _side_by_side({"players": 9, "vote_seconds": 5, "think_seconds": 6}, seed=77)
    assert rows >= 4


class _DealtFrom:
    """Stands in for the single environment's generator so that it deals the match of a given
    seed: its first draw is that seed; the later ones (which seat is asked) come from a
    generator of its own, and the test overrides them anyway."""

    def __init__(self, seed: int) -> None:
        self.seed: int | None = seed
        self.rest = np.random.default_rng(0)

    def integers(self, low: int, high: int | None = None) -> Any:
        if self.seed is not None:
            seed, self.seed = self.seed, None
            return seed
        return self.rest.integers(low, high)


def _side_by_side(options: dict[str, Any], seed: int, rounds: int = 2) -> int:
    """Play both environments together, ``rounds`` matches in each slot (the later ones
    dealt by the batched environment as the earlier end), comparing every step; the ballot
    table's rows at the end."""
    game, think = _split(options)
    matches = 5
    venv = VectorEnv(matches, seed=seed, think_seconds=think, **game)
    obs, mask, seat = venv.reset()
    singles = [raw_env(think_seconds=think, **game) for _ in range(matches)]
    for i, env in enumerate(singles):
        env.reset(seed=seed + i)
        assert venv.match_seeds[i] == np.random.default_rng(seed + i).integers(0, 2**62)
    picks = np.random.default_rng(5)
    steps = 0
    left = [rounds] * matches
    ended = {"draw": 0, "won": 0}
    while any(left):
        actions = np.zeros(matches, dtype=np.int64)
        for i, env in enumerate(singles):
            if not left[i]:
                actions[i] = int(np.flatnonzero(mask[i])[0])
                continue
            where = f"slot {i}, match {rounds - left[i]}, step {steps}"
            assert int(seat[i]) in env.game.actors(env.state_), f"{where}: who may act"
            env.agent_selection = env.possible_agents[int(seat[i])]
            expected = env.observe(env.agent_selection)
            np.testing.assert_array_equal(mask[i], expected["action_mask"], err_msg=where)
            np.testing.assert_allclose(obs[i], expected["observation"], atol=1e-6, err_msg=where)
            actions[i] = int(picks.choice(np.flatnonzero(mask[i])))
        obs, mask, seat, rewards, done = venv.step(actions)
        for i, env in enumerate(singles):
            if not left[i]:
                continue
            env.step(int(actions[i]))
            where = f"slot {i}, match {rounds - left[i]}, step {steps}"
            got = {s: float(rewards[i, s]) for s in range(env.config.players)}
            want = {env.seat(a): float(r) for a, r in env.rewards.items()}
            assert got == want, f"{where}: rewards"
            assert bool(done[i]) == all(env.terminations.values()), where
            if done[i]:
                left[i] -= 1
                ended["won" if any(want.values()) else "draw"] += 1
                env._np_random = _DealtFrom(int(venv.match_seeds[i]))  # type: ignore[assignment]
                env.reset()
        steps += 1
    assert ended["won"] + ended["draw"] == rounds * matches
    if game.get("round_limit"):
        assert ended["draw"] > 0  # the limit was reached, and a draw rewards nobody
    return int(venv._tallies.shape[1])


def test_every_seat_view_is_encoded_as_the_single_environment_does() -> None:
    """Not only the seat asked to act: the waiting, the dead (open eyes or not) and every
    role's private blocks, at every step of a few matches."""
    for dead_see_all in (True, False):
        venv = VectorEnv(3, seed=40, players=8, dead_see_all=dead_see_all)
        _, _, seat = venv.reset()
        singles = [raw_env(players=8, dead_see_all=dead_see_all) for _ in range(3)]
        for i, env in enumerate(singles):
            env.reset(seed=40 + i)
        rng = generator(9)
        out = np.zeros(venv.observation_size, dtype=np.float32)
        dead_views = 0
        for _ in range(200):
            for i, env in enumerate(singles):
                dead_views += 8 - len(env.state_.alive)
                env.agent_selection = env.possible_agents[int(seat[i])]
                for s in range(8):
                    encode(
                        venv._states[i],
                        venv._tallies[i],
                        venv._cfg,
                        venv._flags,
                        venv._off,
                        s,
                        out,
                    )
                    want = env.encode(env.game.view(env.state_, Viewer.of(s)), s)
                    np.testing.assert_allclose(out, want, atol=1e-6, err_msg=f"seat {s}")
            actions = venv.random_actions(rng)
            _, _, seat, _, done = venv.step(actions)
            if done.any():
                break  # the finished match is dealt anew; the views above covered its end
            for i, env in enumerate(singles):
                env.step(int(actions[i]))
        assert dead_views > 0


def test_random_play_runs_many_matches_and_rewards_only_their_ends() -> None:
    venv = VectorEnv(64, players=7, seed=3)
    venv.reset()
    rng = generator(11)
    finished = 0
    for _ in range(400):
        _, mask, _, rewards, done = venv.step(venv.random_actions(rng))
        finished += int(done.sum())
        assert not rewards[~done].any()
        for row in rewards[done]:
            # a win: +1 to one team, -1 to the other (both present); a draw: 0 to all
            assert set(row.tolist()) in ({1.0, -1.0}, {0.0})
        assert (mask.sum(axis=1) > 0).all()
    assert finished >= 64


def test_bad_input_is_refused_and_nothing_moves() -> None:
    venv = VectorEnv(3, players=7, seed=1)
    obs, mask, _ = venv.reset()
    before = obs.copy()
    states = venv._states.copy()
    illegal = int(np.flatnonzero(mask[1] == 0)[0])
    actions = np.array([int(np.flatnonzero(mask[i])[0]) for i in range(3)])
    actions[1] = illegal
    with pytest.raises(ValueError, match=f"action {illegal} is not legal in match 1"):
        venv.step(actions)
    with pytest.raises(ValueError, match="not legal in match 2"):
        venv.step(np.array([*actions[:1], int(np.flatnonzero(mask[1])[0]), 29]))
    np.testing.assert_array_equal(venv.obs, before)
    np.testing.assert_array_equal(venv._states, states)
    with pytest.raises(ValueError, match="one action index per match"):
        venv.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="one action index per match"):
        venv.step(np.zeros(3, dtype=np.float64))
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv(0)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"talk": True}, ConfigError, "cannot play this config: .*talk"),
        ({"players": 4}, ConfigError, "players must be from 5 to 16"),
        ({"history": 4}, ConfigError, "no history option; use the single environment"),
        ({"max_cycles": 9, "dead_leave": True}, ConfigError, "no dead_leave, max_cycles option"),
        ({"colour": "red"}, ConfigError, "unknown option colour"),
        ({"think_seconds": 0}, ValueError, "think_seconds must be positive"),
        ({"think_seconds": "slow"}, ValueError, "think_seconds is a number of seconds"),
        ({"think_seconds": 90}, ValueError, "no match ends"),
    ],
)
def test_configs_it_cannot_play_are_refused(
    options: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        VectorEnv(2, **options)
