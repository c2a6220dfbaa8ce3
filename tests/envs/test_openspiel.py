"""Every wolfden game inside OpenSpiel: OpenSpiel's own checks, the information wall, and
OpenSpiel's algorithms (ISMCTS on every game, CFR and NashConv on a small Robbers' Horror)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is an optional extra: pip install 'wolfden[openspiel]'"
)

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import cfr, ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402
from open_spiel.python.tests import games_sim_test  # noqa: E402

from wolfden import envs  # noqa: E402
from wolfden.envs import openspiel as wos  # noqa: E402

NAMES = wos.names()
SEQUENTIAL = [n for n in NAMES if n.endswith("_turns") or n.endswith("robbers_horror")]
SMALL: dict[str, dict[str, Any]] = {
    "python_wolfden_robbers_horror": {"players": 3, "deals": 1},
}
GT = pyspiel.GameType


def load(name: str, **params: Any) -> Any:
    return pyspiel.load_game(name, {**SMALL.get(name, {}), **params})


def random_states(game: Any, seed: int, limit: int = 80) -> list[Any]:
    """The decision states of one random playout."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    out = []
    while not state.is_terminal() and len(out) < limit:
        if state.is_chance_node():
            state.apply_action(int(rng.integers(game.max_chance_outcomes())))
            continue
        out.append(state.clone())
        if state.is_simultaneous_node():
            state.apply_actions(
                [int(rng.choice(state.legal_actions(p))) for p in range(game.num_players())]
            )
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return out


def test_every_game_is_registered_with_its_game_type() -> None:
    registered = set(pyspiel.registered_names())
    for game_id in envs.ids():
        assert wos.game_name(game_id) in registered
        kind = pyspiel.load_game(wos.game_name(game_id)).get_type()
        assert kind.information == GT.Information.IMPERFECT_INFORMATION
        assert kind.chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
        simultaneous = game_id in wos.SIMULTANEOUS
        assert (kind.dynamics == GT.Dynamics.SIMULTANEOUS) == simultaneous
        zero_sum = game_id == "werwoelfe-kids"
        assert kind.utility == (GT.Utility.ZERO_SUM if zero_sum else GT.Utility.GENERAL_SUM)
        if simultaneous:
            turns = pyspiel.load_game(wos.game_name(game_id, turn_based=True)).get_type()
            assert turns.dynamics == GT.Dynamics.SEQUENTIAL


@pytest.mark.parametrize("name", NAMES)
def test_passes_openspiels_random_sim_test(name: str) -> None:
    pyspiel.random_sim_test(load(name), num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_passes_openspiels_sim_checks(name: str) -> None:
    """The checks OpenSpiel's games_sim_test applies to every registered game: pickling of the
    game, its type and its states, serialisation, clones that play on alike, utilities in
    range; and a simultaneous game converted to turn-based by OpenSpiel."""
    checks = games_sim_test.GamesSimTest()
    checks.sim_game(load(name))
    if load(name).get_type().dynamics == GT.Dynamics.SIMULTANEOUS:
        checks.sim_game(pyspiel.load_game_as_turn_based(name))


@pytest.mark.parametrize("name", SEQUENTIAL)
def test_information_states_hold_only_what_the_player_may_know(name: str) -> None:
    """A state resampled from a player's information state (the game's perturb_hidden) gives
    that player the same information state and observation, strings and tensors; and the
    resampled states really differ from the real one now and then."""
    game = load(name)
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    checked = moved = 0
    rng = np.random.default_rng(3)
    for state in random_states(game, seed=3):
        player = state.current_player()
        twin = state.resample_from_infostate(player, lambda: float(rng.random()))
        assert twin.information_state_string(player) == state.information_state_string(player)
        assert twin.observation_string(player) == state.observation_string(player)
        for observer in (info, obs):
            observer.set_from(state, player)
            mine = observer.tensor.copy()
            observer.set_from(twin, player)
            assert np.array_equal(mine, observer.tensor)
        assert twin.information_state_tensor(player) == state.information_state_tensor(player)
        checked += 1
        moved += int(str(twin) != str(state))
    assert checked > 0 and moved > 0


def test_the_information_state_recalls_the_players_own_private_events() -> None:
    """Werewolf: the Seer's information state keeps her answer; another player's has none."""
    game = pyspiel.load_game(wos.game_name("werewolf", turn_based=True))
    for seed in range(20):
        for state in random_states(game, seed=seed, limit=30):
            roles = {s["seat"]: s["role"] for s in json.loads(str(state))["seats"]}
            seer = next(s for s, r in roles.items() if r == "seer")
            other = next(s for s, r in roles.items() if r == "villager")
            if "seer_answer" in state.information_state_string(seer):
                assert "seer_answer" not in state.information_state_string(other)
                return
    raise AssertionError("no Seer answer in 20 random matches")


def test_a_werewolf_night_is_a_simultaneous_node() -> None:
    game = pyspiel.load_game(wos.game_name("werewolf"), {"players": 9})
    state = game.new_initial_state()
    state.apply_action(0)
    assert state.is_simultaneous_node()
    waiting = set(state.acting)
    assert len(waiting) >= 3
    for player in range(game.num_players()):
        legal = state.legal_actions(player)
        if player in waiting:
            assert wos.setup_of(game).pass_action not in legal and legal
        else:
            assert legal == [wos.setup_of(game).pass_action]


def test_bad_options_are_refused_with_a_reason() -> None:
    with pytest.raises(Exception, match="players must be"):
        pyspiel.load_game(wos.game_name("werewolf"), {"players": 2})
    with pytest.raises(Exception, match="icons"):
        wos.load("robbers-horror", icons=[1, 2])
    with pytest.raises(Exception, match="seeds must be at least 1"):
        wos.load("robbers-horror", seeds=0)


@pytest.mark.parametrize("name", SEQUENTIAL)
def test_ismcts_plays_every_game(name: str) -> None:
    """OpenSpiel's ISMCTS (resampling worlds through perturb_hidden) chooses legal moves for
    seat 0 through a match against random players."""
    game = load(name, max_moves=300)
    rs = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=8, random_state=rs
    )
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal() and searched < 6:
        if state.is_chance_node():
            state.apply_action(int(rs.randint(game.max_chance_outcomes())))
        elif state.current_player() == 0:
            action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            searched += 1
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert searched > 0


def endgame(tricks: int, seeds: int) -> Any:
    return wos.robbers_horror_endgame(tricks=tricks, seeds=seeds)


def test_cfr_solves_a_small_robbers_horror_endgame() -> None:
    """CFR's average policy on the last two tricks of a three-player deal is far less
    exploitable than uniform play; the rules bot is a policy NashConv can measure."""
    game = endgame(tricks=2, seeds=4)
    uniform = wos.nash_conv(game, policy_lib.UniformRandomPolicy(game))
    solver = cfr.CFRSolver(game)
    for _ in range(12):
        solver.evaluate_and_update_policy()
    solved = wos.nash_conv(game, solver.average_policy())
    assert uniform > 0
    assert solved < uniform / 2
    rules = wos.nash_conv(game, wos.bot_policy(game, "rules", samples=2))
    assert -1e-9 <= rules <= game.max_utility() * game.num_players()
