"""The history observation (``history=K``) and ``state()`` for centralised critics."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import pytest

from wolfden import envs, games
from wolfden.engine.rng import Rng
from wolfden.engine.types import OMNISCIENT, Viewer
from wolfden.envs import robbers_horror_v0, werewolf_v0
from wolfden.envs.robbers_horror_v0 import CARD_INDEX

GAMES = [g for g in games.ids() if g in envs.ids()]


def module(game_id: str) -> ModuleType:
    return envs.module(game_id)


def configs(game_id: str) -> list[Any]:
    accepts = module(game_id).raw_env.accepts
    sample = [c for c in games.get(game_id).sample_configs() if accepts(c)]
    return [sample[0], sample[-1]] if len(sample) > 1 else sample


def step_randomly(env: Any, rng: np.random.Generator) -> None:
    obs, _, term, trunc, _ = env.last()
    if term or trunc:
        env.step(None)
    else:
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def history_events(env: Any, agent: str) -> list[str]:
    """The event types in an agent's history rows, newest first."""
    start = env.observation_layout.size
    row = env.event_layout
    names = [*env.event_types, "other"]
    vector = env.observe(agent)["observation"]
    out = []
    for k in range(env.history):
        cells = vector[start + k * row.size : start + (k + 1) * row.size]
        kind = cells[row.slot("event")]
        if kind.any():
            out.append(names[int(np.argmax(kind))])
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_the_history_observation_has_a_fixed_size_in_its_space(game_id: str) -> None:
    env = module(game_id).raw_env(history=6)
    base = module(game_id).raw_env()
    assert env.observation_size == base.observation_layout.size + 6 * env.event_layout.size
    env.reset(seed=1)
    base.reset(seed=1)
    rng = np.random.default_rng(1)
    filled = False
    for agent in env.agent_iter(300):
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs)
        assert np.array_equal(
            obs["observation"][: base.observation_layout.size],
            env.encode(env.view(agent), env.seat(agent)),
        )
        filled |= bool(obs["observation"][base.observation_layout.size :].any())
        step_randomly(env, rng)
    assert filled, "no event reached any history in 300 steps"


@pytest.mark.parametrize("game_id", GAMES)
def test_history_rows_hold_only_what_the_seat_may_see(game_id: str) -> None:
    """For a state and a twin that differs only in what a seat cannot know, another seat's
    action gives that seat the same history rows (the information wall, applied to the
    history, as the conformance suite applies it to the events)."""
    game = games.get(game_id)
    checked = 0
    for config in configs(game_id):
        env = module(game_id).raw_env(config=config, history=4)
        env.reset(seed=11)
        rng = Rng(7)
        np_rng = np.random.default_rng(7)
        for agent in env.agent_iter(300):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            actor = env.seat(agent)
            index = int(np_rng.choice(np.flatnonzero(obs["action_mask"])))
            action = env.to_action(actor, index, env.legal_actions(agent))
            for other in env.agents:
                seat = env.seat(other)
                if seat == actor:
                    continue  # one's own action may reveal (the Seer's answer)
                twin = game.perturb_hidden(env.state_, Viewer.of(seat), rng)
                if twin is None or action not in game.legal_actions(twin, actor):
                    continue
                real_after, real_events = game.apply(env.state_, actor, action)
                twin_after, twin_events = game.apply(twin, actor, action)
                mine = env.history_rows(real_after, real_events, seat)
                theirs = env.history_rows(twin_after, twin_events, seat)
                assert len(mine) == len(theirs)
                for a, b in zip(mine, theirs):
                    assert np.array_equal(a, b)
                checked += 1
            env.step(index)
    assert checked > 0


def test_the_seer_remembers_her_answer_and_a_villager_never_hears_it() -> None:
    env = werewolf_v0.raw_env(players=7, history=40)
    rng = np.random.default_rng(0)
    for seed in range(10):
        env.reset(seed=seed)
        roles = {s["seat"]: s["role"] for s in env.game.view(env.state_, OMNISCIENT)["seats"]}
        seer = f"player_{next(s for s, r in roles.items() if r == 'seer')}"
        villager = f"player_{next(s for s, r in roles.items() if r == 'villager')}"
        while env.agents and env.game.view(env.state_, OMNISCIENT)["round"] == 1:
            step_randomly(env, rng)
        if not env.agents:
            continue
        if "seer_answer" in history_events(env, seer):
            assert "seer_answer" not in history_events(env, villager)
            shared = {"narration", "eliminated", "night_result", "tally"}
            assert shared & set(history_events(env, villager))
            return
    raise AssertionError("the Seer never got an answer in 10 first nights")


def test_history_seats_are_relative_in_robbers_horror() -> None:
    """As in the observation, seat k of a history row is k places to the viewer's left."""
    env = robbers_horror_v0.raw_env(players=4, history=4)
    env.reset(seed=3)
    first = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(first)["action_mask"])[0]))
    start = env.observation_layout.size
    who = env.event_layout.slot("who")
    for agent in env.possible_agents:
        newest = env.observe(agent)["observation"][start : start + env.event_layout.size]
        expected = (env.seat(first) - env.seat(agent)) % 4
        assert int(np.argmax(newest[who])) == expected


@pytest.mark.parametrize("game_id", GAMES)
def test_state_is_every_seats_observation_then_the_hidden(game_id: str) -> None:
    env = module(game_id).raw_env()
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(5):
        step_randomly(env, rng)
    state = env.state()
    assert env.state_space.contains(state)
    size = env.observation_layout.size
    for s, agent in enumerate(env.possible_agents):
        part = state[s * size : (s + 1) * size]
        assert np.array_equal(part, env.encode(env.view(agent), s))
    par = module(game_id).parallel_env()
    par.reset(seed=6)
    assert par.state().shape == state.shape and par.state_space is par.aec.state_space


def test_robbers_horror_state_shows_the_undealt_card() -> None:
    env = robbers_horror_v0.raw_env(players=3)
    env.reset(seed=2)
    undealt = env.game.view(env.state_, OMNISCIENT)["undealt"]
    hidden = env.state()[3 * env.observation_layout.size :]
    assert np.flatnonzero(hidden).tolist() == [CARD_INDEX[undealt]]
    for agent in env.possible_agents:  # no seat sees it
        assert undealt not in env.view(agent).get("hand", [])
