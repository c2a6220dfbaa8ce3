"""The parallel environments: PettingZoo's own parallel tests, the AEC ↔ parallel conversions,
simultaneous moves applied in one step, and the illegal-action modes."""

from __future__ import annotations

import functools
import types
import warnings
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import (
    api_test,
    max_cycles_test,
    parallel_api_test,
    parallel_seed_test,
    seed_test,
)
from pettingzoo.utils.conversions import aec_to_parallel, aec_to_parallel_wrapper, parallel_to_aec

from wolfden import envs, games
from wolfden.engine.errors import IllegalAction
from wolfden.envs import werewolf_v0, werewords_v0

GAMES = [g for g in games.ids() if g in envs.ids()]


def module(game_id: str) -> ModuleType:
    return envs.module(game_id)


def sample_configs(game_id: str) -> list[Any]:
    accepts = module(game_id).raw_env.accepts
    sample = [c for c in games.get(game_id).sample_configs() if accepts(c)]
    return [sample[0], sample[-1]] if len(sample) > 1 else sample


def random_actions(env: Any, obs: dict[str, Any], rng: np.random.Generator) -> dict[str, int]:
    """A masked random index for each agent asked; 0 for the agents with nothing to do."""
    actions = {}
    for agent in env.agents:
        legal = np.flatnonzero(obs[agent]["action_mask"])
        actions[agent] = int(rng.choice(legal)) if legal.size else 0
    return actions


def play(env: Any, seed: int, steps: int = 5000) -> list[Any]:
    """Masked random play to the end; the trace of every step's observations and rewards."""
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    trace: list[Any] = []
    for _ in range(steps):
        if not env.agents:
            break
        obs, rewards, terms, truncs, _ = env.step(random_actions(env, obs, rng))
        trace.append(
            (
                {
                    a: o["observation"].tobytes() + o["action_mask"].tobytes()
                    for a, o in obs.items()
                },
                rewards,
                terms,
                truncs,
            )
        )
    return trace


@pytest.mark.parametrize("game_id", GAMES)
def test_passes_pettingzoos_parallel_api_test(game_id: str) -> None:
    for config in sample_configs(game_id):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            parallel_api_test(module(game_id).parallel_env(config=config), num_cycles=400)


@pytest.mark.parametrize("game_id", GAMES)
def test_passes_pettingzoos_parallel_seed_test(game_id: str) -> None:
    config = sample_configs(game_id)[-1]
    parallel_seed_test(lambda: module(game_id).parallel_env(config=config), num_cycles=300)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_aec_form_of_the_parallel_env_passes_api_and_seed_tests(game_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(parallel_to_aec(module(game_id).parallel_env()), num_cycles=300)
    seed_test(lambda: parallel_to_aec(module(game_id).parallel_env()), num_cycles=300)


@pytest.mark.parametrize("game_id", GAMES)
def test_converted_back_to_parallel_it_plays_the_same_match(game_id: str) -> None:
    """parallel → AEC → parallel through PettingZoo's own wrappers (not the shortcut that
    hands the original back) passes the parallel API test and plays the same match."""
    make = module(game_id).parallel_env
    round_trip = aec_to_parallel_wrapper(parallel_to_aec(make()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(round_trip, num_cycles=300)
        again = aec_to_parallel_wrapper(parallel_to_aec(make()))
        assert play(again, seed=13) == play(make(), seed=13)
    original = make()
    assert aec_to_parallel(parallel_to_aec(original)) is original


@pytest.mark.parametrize("game_id", GAMES)
def test_passes_pettingzoos_max_cycles_test(game_id: str) -> None:
    """max_cycles_test plays unmasked random actions; with illegal="skip" an illegal index
    only costs its agent the moment, so the match runs until max_cycles truncates it."""
    parallel_env = functools.partial(module(game_id).parallel_env, illegal="skip")
    namespace = types.SimpleNamespace(
        parallel_env=parallel_env, env=lambda **kw: parallel_to_aec(parallel_env(**kw))
    )
    max_cycles_test(namespace)


def test_a_werewolf_night_is_one_step() -> None:
    """Werewolves, Seer and Guardian act in the same step; everyone else only waits."""
    env = werewolf_v0.parallel_env(players=9)
    obs, _ = env.reset(seed=3)
    acting = env.acting()
    assert len(acting) >= 3
    for agent in env.agents:
        assert bool(obs[agent]["action_mask"].any()) == (agent in acting)
    applied = env.aec.steps
    env.step(random_actions(env, obs, np.random.default_rng(3)))
    assert env.aec.steps - applied == len(acting)  # every night action went in at once


def test_what_an_agent_not_asked_sends_is_ignored() -> None:
    env = werewolf_v0.parallel_env(players=7, illegal="raise")
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    actions: dict[str, Any] = random_actions(env, obs, rng)
    for agent in env.agents:
        if agent not in env.acting():
            actions[agent] = None
    env.step(actions)  # no IllegalAction


def test_illegal_terminate_ends_the_match_with_minus_one() -> None:
    env = werewolf_v0.parallel_env(players=7)
    obs, _ = env.reset(seed=5)
    culprit = env.acting()[0]
    actions = random_actions(env, obs, np.random.default_rng(5))
    actions[culprit] = int(np.flatnonzero(obs[culprit]["action_mask"] == 0)[0])
    _, rewards, terms, _, infos = env.step(actions)
    assert all(terms.values()) and env.agents == []
    assert rewards[culprit] == -1.0
    assert all(r == 0.0 for a, r in rewards.items() if a != culprit)
    assert infos[culprit]["illegal_move"] is True


def test_illegal_raise_applies_nothing() -> None:
    env = werewolf_v0.parallel_env(players=7, illegal="raise")
    obs, _ = env.reset(seed=5)
    culprit = env.acting()[-1]
    actions = random_actions(env, obs, np.random.default_rng(5))
    actions[culprit] = int(np.flatnonzero(obs[culprit]["action_mask"] == 0)[0])
    before = env.aec.state_
    with pytest.raises(IllegalAction, match="legal indices"):
        env.step(actions)
    assert env.aec.state_ is before


def test_illegal_skip_asks_the_seat_again() -> None:
    env = werewolf_v0.parallel_env(players=7, illegal="skip")
    obs, _ = env.reset(seed=5)
    culprit = env.acting()[0]
    actions = {a: 0 for a in env.agents}
    actions[culprit] = int(np.flatnonzero(obs[culprit]["action_mask"] == 0)[0])
    env.step(actions)
    assert culprit in env.acting()


def test_of_several_questions_asked_at_once_one_is_heard() -> None:
    """In Werewords every player but the Mayor may ask while no question is open; when they
    all ask in the same step, the first in the drawn order is heard and the rest dropped."""
    env = werewords_v0.parallel_env(illegal="raise")
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(200):
        acting = env.acting()
        asking = [a for a in acting if obs[a]["action_mask"][27:51].any()]
        if len(asking) >= 2:
            actions = {a: 0 for a in env.agents}
            for a in asking:
                actions[a] = 27 + int(rng.integers(24))
            before = len(env.aec.view(asking[0])["questions"])
            env.step(actions)
            assert len(env.aec.view(asking[0])["questions"]) == before + 1
            return
        obs, *_ = env.step(random_actions(env, obs, rng))
    raise AssertionError("the day never came with several players free to ask")


def test_every_agent_gets_its_teams_result_at_the_end() -> None:
    env = werewolf_v0.parallel_env(players=9)
    obs, _ = env.reset(seed=8)
    rng = np.random.default_rng(8)
    final: dict[str, float] = {}
    while env.agents:
        obs, rewards, terms, _, _ = env.step(random_actions(env, obs, rng))
        final.update({a: r for a, r in rewards.items() if terms[a]})
    outcome = env.aec.outcome
    assert outcome is not None and set(final) == set(env.possible_agents)
    for agent, reward in final.items():
        expected = 0.0 if outcome.draw else 1.0 if env.seat(agent) in outcome.winners else -1.0
        assert reward == expected


def test_dead_leave_removes_the_fallen_at_once() -> None:
    env = werewolf_v0.parallel_env(players=8, dead_leave=True)
    rng = np.random.default_rng(1)
    for seed in range(20):
        obs, _ = env.reset(seed=seed)
        while env.agents and env.aec.outcome is None:
            before = list(env.agents)
            obs, rewards, terms, _, _ = env.step(random_actions(env, obs, rng))
            fallen = [a for a in before if terms[a]]
            if fallen and env.aec.outcome is None:
                assert all(a not in env.agents for a in fallen)
                assert all(rewards[a] == 0.0 for a in fallen)
                return
    raise AssertionError("no one fell before the end in 20 matches")
