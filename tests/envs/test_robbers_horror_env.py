"""Robbers' Horror as an environment: rewards per deal and per match, relative seats."""

from __future__ import annotations

import numpy as np
import pytest

from wolfden.envs import robbers_horror_v0
from wolfden.envs.robbers_horror_v0 import CARDS


def play_out(env: robbers_horror_v0.raw_env, seed: int) -> dict[str, float]:
    """Random legal play to the end; the total reward each agent collected."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        agent = env.agent_selection
        totals[agent] += env._cumulative_rewards[agent]
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    return totals


def expected_deal_rewards(env: robbers_horror_v0.raw_env) -> list[float]:
    """Each seat's sum over the deals: +1 on the deal's winning team, -1 on the other."""
    out = [0.0] * len(env.possible_agents)
    for result in env.state_.results:
        if result.winner is None:
            continue
        for seat, score in enumerate(result.seats):
            out[seat] += 1.0 if score.role.team is result.winner else -1.0
    return out


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_deal_pays_its_team_result_and_the_match_its_winners(players: int) -> None:
    env = robbers_horror_v0.raw_env(players=players)
    totals = play_out(env, seed=players)
    outcome = env.outcome
    assert outcome is not None
    deals = expected_deal_rewards(env)
    everyone = len(outcome.winners) == players
    for seat, agent in enumerate(env.possible_agents):
        match = 0.0 if everyone else (1.0 if seat in outcome.winners else -1.0)
        assert totals[agent] == deals[seat] + match


def test_the_weights_select_deal_or_match_rewards() -> None:
    deal_only = robbers_horror_v0.raw_env(players=4, match_reward=0.0)
    totals = play_out(deal_only, seed=3)
    assert [totals[a] for a in deal_only.possible_agents] == expected_deal_rewards(deal_only)
    match_only = robbers_horror_v0.raw_env(players=4, deal_reward=0.0)
    totals = play_out(match_only, seed=3)
    winners = match_only.outcome.winners
    for seat, agent in enumerate(match_only.possible_agents):
        if len(winners) < 4:
            assert totals[agent] == (1.0 if seat in winners else -1.0)


def test_a_seat_sees_its_own_hand_and_the_trick_from_its_own_place() -> None:
    env = robbers_horror_v0.raw_env(players=4)
    env.reset(seed=8)
    layout = env.observation_layout
    first = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(first)["action_mask"])[0]))
    played = env.view(first)["trick"]["cards"][0]["card"]
    for agent in env.possible_agents:
        obs = env.observe(agent)["observation"]
        view = env.view(agent)
        hand = obs[layout.slot("hand")]
        held = {CARDS[i] for i in np.flatnonzero(hand)}
        assert held == set(view["hand"])
        trick = obs[layout.slot("trick")].reshape(4, len(CARDS))
        place = (env.seat(first) - env.seat(agent)) % 4  # where the leader sits, from here
        assert trick[place, CARDS.index(played)] == 1.0
        assert trick.sum() == 1.0
