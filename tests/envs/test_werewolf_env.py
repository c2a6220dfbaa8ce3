"""Werewolf as an environment: what an agent notices at the table."""

from __future__ import annotations

import numpy as np
import pytest

from wolfden.engine.errors import ConfigError
from wolfden.envs import werewolf_v0
from wolfden.games.werewolf import Role


def random_step(env: werewolf_v0.raw_env, rng: np.random.Generator) -> None:
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        env.step(None)
        return
    env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


def test_only_night_roles_are_asked_at_night() -> None:
    env = werewolf_v0.raw_env(players=8)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    while env.state_.phase.value == "night":
        seat = env.seat(env.agent_selection)
        assert env.state_.roles[seat] is not Role.VILLAGER
        random_step(env, rng)


def test_dawn_and_the_discussion_end_by_themselves() -> None:
    """Nobody acts at dawn or in the discussion: the next agent asked is a voter."""
    env = werewolf_v0.raw_env(players=8)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    while env.state_.phase.value == "night":
        random_step(env, rng)
    assert env.state_.phase.value in ("vote", "end")
    if env.state_.phase.value == "vote":
        assert env.observe(env.agent_selection)["observation"][2] == 1.0  # phase: vote


def test_with_dead_leave_a_player_eliminated_at_night_leaves_the_game() -> None:
    env = werewolf_v0.raw_env(players=8, dead_leave=True)
    rng = np.random.default_rng(0)
    for seed in range(20):
        env.reset(seed=seed)
        while env.state_.phase.value == "night":
            random_step(env, rng)
        fallen = (env.state_.night_result or {}).get("eliminated")
        if fallen is None or env.outcome is not None:
            continue
        agent = f"player_{fallen}"
        assert env.terminations[agent]
        assert env.agent_selection == agent  # the fallen take their last step first
        env.step(None)
        assert agent not in env.agents
        return
    raise AssertionError("no one fell at the first dawn in 20 matches")


def test_the_fallen_stay_for_their_teams_result() -> None:
    """By default an eliminated player is never asked again but is terminated only at the
    end, with its team's +1 or −1 like everyone else."""
    env = werewolf_v0.raw_env(players=7)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    rewards: dict[str, float] = {}
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            rewards[agent] = env._cumulative_rewards[agent]
        random_step(env, rng)
    assert set(rewards) == set(env.possible_agents)
    outcome = env.outcome
    assert outcome is not None and outcome.winning_team is not None
    for seat, team in outcome.teams.items():
        expected = 1.0 if team == outcome.winning_team else -1.0
        assert rewards[f"player_{seat}"] == expected


def test_the_winners_get_plus_one_and_the_losers_minus_one() -> None:
    env = werewolf_v0.raw_env(players=9)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    final: dict[str, float] = {}
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            final[agent] = env._cumulative_rewards[agent]
        random_step(env, rng)
    outcome = env.outcome
    assert outcome is not None
    assert set(final) == set(env.possible_agents)
    for agent, reward in final.items():
        assert reward == (1.0 if env.seat(agent) in outcome.winners else -1.0)


def test_a_round_limit_draw_gives_nobody_anything() -> None:
    env = werewolf_v0.raw_env(players=12, round_limit=1)
    rng = np.random.default_rng(1)
    for seed in range(30):
        env.reset(seed=seed)
        final = {}
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                final[agent] = env._cumulative_rewards[agent]
            random_step(env, rng)
        if env.outcome is not None and env.outcome.draw:
            assert set(final.values()) == {0.0}
            return
    raise AssertionError("no draw in 30 one-round matches")


def test_a_werewolf_sees_its_pack_and_a_villager_does_not() -> None:
    env = werewolf_v0.raw_env(players=7)
    env.reset(seed=2)
    layout = env.observation_layout
    roles = layout.slot("roles")
    for agent in env.possible_agents:
        obs = env.observe(agent)["observation"]
        seat = env.seat(agent)
        known = [s for s in range(7) if obs[roles][5 * s] == 0.0]
        wolves = [s for s, r in enumerate(env.state_.roles) if r is Role.WEREWOLF]
        if env.state_.roles[seat] is Role.WEREWOLF:
            assert sorted(known) == wolves
        else:
            assert known == [seat]


def test_a_vote_cast_in_turn_stays_secret_from_the_next_voter() -> None:
    """Serialising the secret ballot leaks nothing: another voter's observation changes only
    in the count of votes cast."""
    env = werewolf_v0.raw_env(players=9)
    env.reset(seed=12)
    rng = np.random.default_rng(12)
    while env.state_.phase.value != "vote" or env.terminations[env.agent_selection]:
        random_step(env, rng)
    voter = env.agent_selection
    others = [a for a in env.agents if a != voter and not env.terminations[a]]
    before = {a: env.observe(a)["observation"].copy() for a in others}
    random_step(env, rng)
    assert env.state_.phase.value == "vote", "the first vote closed the ballot"
    ballot = env.observation_layout.slot("ballot")
    for agent in others:
        changed = np.flatnonzero(before[agent] != env.observe(agent)["observation"])
        assert list(changed) == [ballot.start + 1], agent


def test_the_environment_says_it_plays_without_structured_talk() -> None:
    from wolfden.games.werewolf import Config

    assert not werewolf_v0.raw_env.accepts(Config(talk=True))
    with pytest.raises(ConfigError, match="without structured talk"):
        werewolf_v0.raw_env(config=Config(talk=True))
