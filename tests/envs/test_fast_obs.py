"""The environments' fast observations equal the encoding of the game's view, and their
masks the game's legal actions.

A game's environment may compute observations from the game's state (``encode_state``)
instead of encoding ``game.view(state, seat)``; the view's encoding stays the definition.
These tests play seeded matches with random legal actions and compare, for every seat at
every step (the seat asked, the waiting and the eliminated), the fast vector with the
straightforward one: any difference, one entry anywhere, fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from wolfden import envs
from wolfden.engine.types import Viewer
from wolfden.envs.base import WolfdenEnv

CASES: list[tuple[str, dict[str, Any]]] = [
    ("werewolf", {"players": 7}),
    ("werewolf", {"players": 9, "dead_see_all": False}),
    ("werewolf", {"players": 12, "public_ballots": False, "round_limit": 3}),
    ("werewolf", {"players": 8, "night_seconds": 12, "min_night_seconds": 10, "vote_seconds": 5}),
    ("werewolf", {"players": 10, "werewolves": 3, "seers": 2, "villager_only": [0, 4]}),
    ("werwoelfe-kids", {"max_cycles": 400}),
    ("werwoelfe-kids", {"max_cycles": 400, "layout": "4x4", "too_hard": True, "notebook": True}),
    ("werwoelfe-kids", {"max_cycles": 400, "duel": "rounds", "dice_per_team": 2, "handover": True}),
    ("werwoelfe-kids", {"max_cycles": 400, "symbol_faces": 3, "peek_seconds": 2}),
    ("robbers-horror", {"players": 3, "deals": 2}),
    ("robbers-horror", {"players": 4}),
    ("robbers-horror", {"players": 5, "deals": 2, "show_history": True}),
    ("robbers-horror", {"players": 4, "deals": 1, "show_last_trick": False}),
    ("robbers-horror", {"players": 3, "deals": 1, "show_last_trick": False, "show_history": True}),
    ("robbers-horror", {"players": 4, "deals": 2, "first_dealer": 2, "icons": [9] * 15}),
    ("werewords", {}),
    ("werewords", {"players": 3, "rounds": 3}),
    (
        "werewords",
        {
            "players": 10,
            "deluxe": ["doppelganger", "thing", "beholder", "apprentice", "fortune_teller"],
            "word_choices": 5,
            "rounds": 2,
        },
    ),
    (
        "werewords",
        {
            "players": 8,
            "deluxe": ["minion", "mason", "mason", "fortune_teller"],
            "speedwords": True,
            "fortune_teller_letters": 3,
            "words_medium": ["ice cream", "hot air balloon", "mississippi", "x-ray", "bee"],
            "word_choices": 3,
            "rounds": 2,
        },
    ),
    (
        "werewords",
        {
            "players": 8,
            "deluxe": ["doppelganger", "minion", "thing"],
            "typed_questions": False,
            "yes_no_tokens": 4,
            "maybe_tokens": 0,
            "rounds": 2,
        },
    ),
    (
        "werewords",
        {
            "players": 12,
            "deluxe": ["doppelganger", "mason", "mason", "beholder"],
            "speedwords": True,
        },
    ),
]


def straightforward(env: WolfdenEnv, seat: int) -> np.ndarray:
    """The observation vector as defined: the encoding of the seat's view."""
    view = env.game.view(env.state_, Viewer.of(seat))
    return np.asarray(env.encode(view, seat), dtype=np.float32)


def straightforward_mask(env: WolfdenEnv, seat: int) -> np.ndarray:
    """The action mask as defined: the indices of the game's legal actions for the seat."""
    mask = np.zeros(env.action_layout.size, dtype=np.int8)
    legal = env.game.legal_actions(env.state_, seat)
    mask[env.legal_indices(seat, legal)] = 1
    return mask


def states(env: WolfdenEnv, seed: int) -> Iterator[None]:
    """Yield at every state an agent is shown, playing random legal actions to the end."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while env.agents:
        yield
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


def mismatches(env: WolfdenEnv, seeds: range) -> tuple[int, list[str]]:
    """How many vectors were compared, and a description of each that differed."""
    compared, wrong = 0, []
    for seed in seeds:
        for _ in states(env, seed):
            for seat in range(len(env.possible_agents)):
                fast = env.encode_state(env.state_, seat)
                slow = straightforward(env, seat)
                compared += 1
                assert fast.dtype == np.float32 and fast.shape == slow.shape
                if not np.array_equal(fast, slow):
                    where = np.flatnonzero(fast != slow)[:5].tolist()
                    wrong.append(f"seed {seed}, step {env.steps}, seat {seat}: entries {where}")
                agent = env.possible_agents[seat]
                if agent not in env.agents or env.terminations[agent] or env.truncations[agent]:
                    continue
                mask = env.observe(agent)["action_mask"]
                if not np.array_equal(mask, straightforward_mask(env, seat)):
                    wrong.append(f"seed {seed}, step {env.steps}, seat {seat}: mask")
    return compared, wrong


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[f"{g}-{o}" for g, o in CASES])
def test_fast_observations_equal_the_views_encoding(game_id: str, options: dict[str, Any]) -> None:
    env = envs.module(game_id).raw_env(**options)
    assert type(env).encode_state is not WolfdenEnv.encode_state, "no fast path to compare"
    compared, wrong = mismatches(env, range(3))
    assert compared > 100
    assert not wrong, wrong[:5]


def test_observations_and_state_use_the_fast_path_and_stay_unshared() -> None:
    env = envs.module("robbers-horror").raw_env(players=4, history=2)
    env.reset(seed=5)
    agent = env.agent_selection
    seat = env.seat(agent)
    obs = env.observe(agent)["observation"]
    size = env.observation_layout.size
    assert np.array_equal(obs[:size], straightforward(env, seat))
    state = env.state()
    for s in range(4):
        assert np.array_equal(state[s * size : (s + 1) * size], straightforward(env, s))
    # a caller writing into one vector changes no other one
    first = env.encode_state(env.state_, 0)
    first[:] = 7.0
    assert np.array_equal(env.encode_state(env.state_, 1), straightforward(env, 1))
    assert np.array_equal(env.encode_state(env.state_, 0), straightforward(env, 0))


def test_a_wrong_fast_path_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison notices one wrong entry: the hand's Knives counted as one copy each."""
    module = envs.module("robbers-horror")
    env = module.raw_env(players=4)
    honest = type(env).encode_state

    def miscounted(self: Any, state: Any, seat: int) -> np.ndarray:
        vector = honest(self, state, seat)
        knife = self.observation_layout.spans["hand"][0] + module.CARD_INDEX["K"]
        vector[knife] = min(1.0, vector[knife] * 2)
        return vector

    monkeypatch.setattr(type(env), "encode_state", miscounted)
    _, wrong = mismatches(env, range(2))
    assert wrong
