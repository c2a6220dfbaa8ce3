"""Werwölfe Kids as an environment: two team agents, doors that close by themselves."""

from __future__ import annotations

import numpy as np

from wolfden.envs import werwoelfe_kids_v0


def random_play(env: werwoelfe_kids_v0.raw_env, seed: int) -> list[str]:
    """The names of the actions the agents chose, to the end."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    chosen = []
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        index = int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))
        chosen.append(env.action_layout.actions[index].name)
        env.step(index)
    return chosen


def test_the_agents_are_the_two_teams_and_the_village_places_first() -> None:
    env = werwoelfe_kids_v0.raw_env()
    assert env.possible_agents == ["village_0", "werewolves_1"]
    env.reset(seed=1)
    assert env.agent_selection == "village_0"
    assert env.view("village_0")["step"] == "place"


def test_a_door_left_open_closes_by_itself_on_the_clock() -> None:
    """Each action takes longer than a door stays open: the env closes every door itself."""
    env = werwoelfe_kids_v0.raw_env(think_seconds=10.0)
    chosen = random_play(env, seed=4)
    assert "open" in chosen
    assert "close" not in chosen
    assert env.outcome is not None


def test_with_quick_hands_the_team_closes_its_door() -> None:
    env = werwoelfe_kids_v0.raw_env()
    assert "close" in random_play(env, seed=4)


def test_the_winner_gets_plus_one_and_the_other_team_minus_one() -> None:
    env = werwoelfe_kids_v0.raw_env(layout="4x4", duel="rounds")
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    final = {}
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            final[agent] = env._cumulative_rewards[agent]
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    winner = env.outcome.winning_team
    assert final == {
        "village_0": 1.0 if winner == "village" else -1.0,
        "werewolves_1": 1.0 if winner == "werewolves" else -1.0,
    }


def test_the_notebook_keeps_what_a_team_saw() -> None:
    env = werwoelfe_kids_v0.raw_env(notebook=True)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    notebook = env.observation_layout.slot("notebook")
    most = 0
    for _ in range(200):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        obs = env.observe("village_0")["observation"]
        noted = len(env.view("village_0").get("notebook", []))
        houses = len(env.houses)
        assert obs[notebook].reshape(houses, 5)[:, 1:].sum() == noted
        most = max(most, noted)
    assert most > 0, "the village never noted anything"
