"""Every registered game's environment passes PettingZoo's own test suite and keeps its promises:
observations come from the agent's view only, the clock runs itself, the dead leave, rewards
follow the team result."""

from __future__ import annotations

import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from wolfden import envs, games
from wolfden.engine.errors import ConfigError, IllegalAction
from wolfden.engine.rng import Rng
from wolfden.engine.types import Viewer

GAMES = [g for g in games.ids() if g in envs.ids()]


def module(game_id: str) -> ModuleType:
    return envs.module(game_id)


def configs(game_id: str) -> list[Any]:
    """The game's first and last sample configs that the environment plays: the plain table
    and the most unusual one."""
    accepts = module(game_id).raw_env.accepts
    sample = [c for c in games.get(game_id).sample_configs() if accepts(c)]
    return [sample[0], sample[-1]] if len(sample) > 1 else sample


def play_randomly(env: Any, seed: int, steps: int = 10_000) -> list[Any]:
    """Masked random play to the end; returns the agents in the order they were asked."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    order = []
    for agent in env.agent_iter(steps):
        obs, _, term, trunc, _ = env.last()
        order.append(agent)
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    return order


def test_every_registered_game_has_an_environment() -> None:
    assert set(games.ids()) <= set(envs.ids()), "a registered game has no environment module"


@pytest.mark.parametrize("game_id", GAMES)
def test_passes_pettingzoos_api_test(game_id: str) -> None:
    """On every sample config of the game that the environment plays."""
    accepts = module(game_id).raw_env.accepts
    for config in [c for c in games.get(game_id).sample_configs() if accepts(c)]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the dict observation of classic games warns
            api_test(module(game_id).env(config=config), num_cycles=200)


@pytest.mark.parametrize("game_id", GAMES)
def test_passes_pettingzoos_seed_test(game_id: str) -> None:
    config = configs(game_id)[-1]
    seed_test(lambda: module(game_id).env(config=config), num_cycles=200)


@pytest.mark.parametrize("game_id", GAMES)
def test_max_cycles_truncates_every_agent(game_id: str) -> None:
    """PettingZoo's max_cycles_test needs a parallel API and unmasked actions, which a
    turn-based game with illegal moves cannot offer; this checks the same promise in AEC."""
    env = module(game_id).env(max_cycles=1)
    seats = len(env.possible_agents)
    order = play_randomly(env, seed=5)
    acting = len(order) - seats  # every agent is handed its final step(None) once
    raw = env.unwrapped
    if raw.outcome is None:
        assert raw.steps == seats
    else:
        assert raw.steps <= seats
    assert acting == raw.steps
    assert env.agents == []


@pytest.mark.parametrize("game_id", GAMES)
def test_raw_env_refuses_an_illegal_index(game_id: str) -> None:
    env = module(game_id).raw_env()
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = np.flatnonzero(mask == 0)
    assert illegal.size, "every index is legal at the start; nothing to refuse"
    with pytest.raises(IllegalAction):
        env.step(int(illegal[0]))


@pytest.mark.parametrize("game_id", GAMES)
def test_wrapped_env_ends_the_match_for_an_illegal_index(game_id: str) -> None:
    env = module(game_id).env()
    env.reset(seed=1)
    agent = env.agent_selection
    illegal = np.flatnonzero(env.observe(agent)["action_mask"] == 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(int(illegal[0]))
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1


@pytest.mark.parametrize("game_id", GAMES)
def test_observations_hold_only_what_the_view_shows(game_id: str) -> None:
    """A state that differs only in what a seat cannot know gives that seat the same
    observation, history rows included, and action mask (the game's perturb_hidden makes such
    states)."""
    game = games.get(game_id)
    checked = 0
    for config in configs(game_id):
        env = module(game_id).raw_env(config=config, history=8)
        env.reset(seed=11)
        rng = Rng(7)
        np_rng = np.random.default_rng(7)
        for _agent in env.agent_iter(400):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            for other in env.agents:
                seat = env.seat(other)
                twin = game.perturb_hidden(env.state_, Viewer.of(seat), rng)
                if twin is None:
                    continue
                real = env.state_
                mine = env.observe(other)
                env.state_, env._obs_cache = twin, {}
                theirs = env.observe(other)
                env.state_, env._obs_cache = real, {}
                assert np.array_equal(mine["observation"], theirs["observation"])
                assert np.array_equal(mine["action_mask"], theirs["action_mask"])
                checked += 1
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(np_rng.choice(legal)))
    assert checked > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_the_observation_is_the_encoded_view(game_id: str) -> None:
    env = module(game_id).raw_env()
    env.reset(seed=2)
    for agent in env.agents:
        expected = env.encode(env.view(agent), env.seat(agent))
        assert np.array_equal(env.observe(agent)["observation"], expected)
        assert env.observation_space(agent).contains(env.observe(agent))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_index_in_the_mask_is_a_legal_action(game_id: str) -> None:
    """Each masked index becomes an action the game accepts from that seat now, and every
    legal action the layout numbers one by one is in the mask."""
    env = module(game_id).raw_env()
    game = env.game
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(60):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        seat = env.seat(agent)
        mask = env.observe(agent)["action_mask"]
        legal = env.legal_actions(agent)
        offered = np.flatnonzero(mask)
        assert offered.size > 0
        for index in offered:
            game.apply(env.state_, seat, env.to_action(seat, int(index), legal))
        for action in legal:
            index = env.action_layout.index.get(action)
            if index is not None:
                assert mask[index] == 1
        env.step(int(rng.choice(offered)))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_agent_asked_is_one_the_game_waits_for(game_id: str) -> None:
    env = module(game_id).raw_env()
    game = env.game
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    for agent in env.agent_iter(2000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert env.seat(agent) in game.actors(env.state_)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.outcome is not None


@pytest.mark.parametrize("game_id", GAMES)
def test_the_same_seed_replays_the_same_match(game_id: str) -> None:
    first = module(game_id).env()
    second = module(game_id).env()
    assert play_randomly(first, seed=21) == play_randomly(second, seed=21)
    assert first.unwrapped.outcome == second.unwrapped.outcome


def test_docs_show_the_current_layouts() -> None:
    """docs/rl.md carries every environment's tables (python -m wolfden.envs --write ...)."""
    path = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
    text = path.read_text(encoding="utf-8")
    for game_id in GAMES:
        assert f"<!-- layout:{game_id} -->" in text, f"docs/rl.md has no section for {game_id}"
        assert envs.layout_markdown(game_id) in text, f"docs/rl.md: {game_id} tables are stale"


@pytest.mark.parametrize("game_id", GAMES)
def test_ansi_render_draws_the_shared_table_screen(game_id: str) -> None:
    env = module(game_id).env(render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert isinstance(text, str) and text.strip()


@pytest.mark.parametrize("game_id", GAMES)
def test_an_unknown_option_is_refused_with_the_options_named(game_id: str) -> None:
    with pytest.raises(ConfigError, match="the options are"):
        module(game_id).raw_env(no_such_option=1)
