"""The batched Robbers' Horror environment on the kernel gives, step for step, the single
environment's observations, masks and rewards, and refuses bad input clearly."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
pytest.importorskip("pettingzoo")

from wolfden.envs.robbers_horror_v0 import raw_env
from wolfden.envs.robbers_horror_vector import VectorEnv
from wolfden.kernel.rng import generator

CONFIGS = [
    {"players": 4},
    {"players": 3, "deals": 2},
    {"players": 5, "show_history": True},
    {"players": 4, "show_last_trick": False, "deals": 3},
    {"players": 4, "show_last_trick": False, "show_history": True, "deals": 2},
]


@pytest.mark.parametrize(
    "options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
def test_every_step_matches_the_single_environment(options: dict[str, object]) -> None:
    matches, seed = 6, 1000
    venv = VectorEnv(matches, seed=seed, **options)
    obs, mask, seat = venv.reset()
    singles = [raw_env(**options) for _ in range(matches)]
    for i, env in enumerate(singles):
        env.reset(seed=seed + i)
    picks = np.random.default_rng(5)
    steps = 0
    live = [True] * matches
    while any(live):
        actions = np.zeros(matches, dtype=np.int64)
        for i, env in enumerate(singles):
            if not live[i]:
                actions[i] = int(np.flatnonzero(mask[i])[0])
                continue
            agent = env.agent_selection
            expected = env.observe(agent)
            assert seat[i] == env.seat(agent), f"match {i}, step {steps}: who plays"
            np.testing.assert_array_equal(mask[i], expected["action_mask"])
            np.testing.assert_allclose(
                obs[i], expected["observation"], atol=1e-6, err_msg=f"match {i}, step {steps}"
            )
            actions[i] = int(picks.choice(np.flatnonzero(mask[i])))
        obs, mask, seat, rewards, done = venv.step(actions)
        for i, env in enumerate(singles):
            if not live[i]:
                continue
            env.step(int(actions[i]))
            got = {s: float(rewards[i, s]) for s in range(env.config.players)}
            want = {env.seat(a): float(r) for a, r in env.rewards.items()}
            assert got == want, f"match {i}, step {steps}: rewards"
            assert bool(done[i]) == all(env.terminations.values())
            if done[i]:
                live[i] = False
        steps += 1
    assert steps > 0


def test_random_play_runs_many_matches_with_zero_sum_deals() -> None:
    venv = VectorEnv(64, players=4, seed=3)
    venv.reset()
    rng = generator(11)
    finished = 0
    for _ in range(9 * 4 * 5):
        _, _, _, rewards, done = venv.step(venv.random_actions(rng))
        finished += int(done.sum())
        # a deal gives +1 to one team and -1 to the other: never all +1
        assert (rewards.sum(axis=1) <= 4).all()
    assert finished >= 64


def test_bad_input_is_refused_and_nothing_moves() -> None:
    venv = VectorEnv(3, players=4, seed=1)
    obs, mask, _ = venv.reset()
    before = obs.copy()
    illegal = int(np.flatnonzero(mask[1] == 0)[0])
    actions = np.array([int(np.flatnonzero(mask[i])[0]) for i in range(3)])
    actions[1] = illegal
    with pytest.raises(ValueError, match=f"action {illegal} is not legal in match 1"):
        venv.step(actions)
    np.testing.assert_array_equal(venv.obs, before)
    with pytest.raises(ValueError, match="one action index per match"):
        venv.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv(0)
