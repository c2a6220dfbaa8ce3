"""Werewords as an environment: a question bank, the Mayor's tokens, one round per episode."""

from __future__ import annotations

import numpy as np
import pytest

from wolfden.engine.errors import ConfigError
from wolfden.envs import werewords_v0
from wolfden.envs.werewords_v0 import QUESTIONS


def step_random(env: werewords_v0.raw_env, rng: np.random.Generator) -> None:
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        env.step(None)
        return
    env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


def until_day(env: werewords_v0.raw_env, rng: np.random.Generator) -> None:
    while env.state_.phase.value != "day":
        assert env.outcome is None
        step_random(env, rng)


def test_a_player_asks_a_question_of_the_bank_into_the_public_log() -> None:
    env = werewords_v0.raw_env()
    rng = np.random.default_rng(1)
    env.reset(seed=1)
    until_day(env, rng)
    while env.seat(env.agent_selection) == env.state_.mayor:
        step_random(env, rng)
    assert env.state_.phase.value == "day"
    agent = env.agent_selection
    ask = env.action_layout.index[werewords_v0.Action("ask", (QUESTIONS[7],))]
    env.step(ask)
    log = env.view(agent)["questions"]
    assert log[-1]["text"] == QUESTIONS[7] and log[-1]["seat"] == env.seat(agent)


def test_an_asker_may_ask_every_bank_question_and_nothing_else() -> None:
    """The asker's mask is the whole bank, as each of its legal actions maps one by one (the
    environment drops the list's questions at once when the game offers them as usual)."""
    env = werewords_v0.raw_env(players=5)
    rng = np.random.default_rng(2)
    env.reset(seed=2)
    until_day(env, rng)
    asked = 0
    while env.state_.phase.value == "day":
        agent = env.agent_selection
        seat = env.seat(agent)
        legal = env.game.legal_actions(env.state_, seat)
        one_by_one = [i for action in legal for i in env.legal_indices(seat, [action])]
        mask = env.observe(agent)["action_mask"]
        assert np.flatnonzero(mask).tolist() == sorted(one_by_one)
        if seat != env.state_.mayor:
            first = env.action_layout.index[werewords_v0.Action("ask", (QUESTIONS[0],))]
            assert np.flatnonzero(mask).tolist() == list(range(first, first + len(QUESTIONS)))
            asked += 1
        step_random(env, rng)
    assert asked >= 3


def test_the_mayors_answer_lands_on_the_open_question() -> None:
    env = werewords_v0.raw_env(players=5)
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    until_day(env, rng)
    mayor = f"player_{env.state_.mayor}"
    while env.agent_selection != mayor:
        step_random(env, rng)
    assert env.state_.phase.value == "day"
    (open_id,) = [q.id for q in env.state_.questions if q.answer is None]
    no = env.action_layout.index[env._answers[1]]
    assert env.observe(mayor)["action_mask"][no] == 1
    env.step(no)
    assert {q.id: q.answer for q in env.state_.questions}[open_id] == "no"


def test_an_episode_is_one_round_and_pays_the_round_to_each_team() -> None:
    env = werewords_v0.raw_env(players=7)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    final = {}
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            final[agent] = env._cumulative_rewards[agent]
        step_random(env, rng)
    outcome = env.outcome
    assert outcome is not None and outcome.rounds == 1
    for seat, team in outcome.teams.items():
        assert final[f"player_{seat}"] == (1.0 if team == outcome.winning_team else -1.0)


def test_an_episode_of_three_rounds_pays_every_round() -> None:
    env = werewords_v0.raw_env(rounds=3)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    paid = 0
    while env.agents:
        step_random(env, rng)
        if any(env.rewards.values()):
            paid += 1
            assert all(abs(r) == 1.0 for r in env.rewards.values())
    assert paid == 3
    assert env.outcome is not None and env.outcome.rounds == 3


def test_the_companion_mode_is_refused_with_a_reason() -> None:
    with pytest.raises(ConfigError, match="online"):
        werewords_v0.raw_env(mode="companion")
