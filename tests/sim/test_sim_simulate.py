"""The simulator gives the same figures for the same seed, whatever the workers or chunks."""

from __future__ import annotations

import pytest
import sim_tinygame as tiny

import wolfden.games
from wolfden.engine.errors import ConfigError
from wolfden.engine.rng import derive_seed
from wolfden.sim import simulate as sim
from wolfden.sim.report import RUN_KEYS, summary
from wolfden.sim.runner import play_match


def figures(game, config, study):
    data = summary(game, config, study)
    for key in RUN_KEYS:
        data.pop(key)
    return data


def test_same_seed_same_figures_on_one_or_two_workers_and_any_chunk_size():
    config = tiny.Config(players=5)
    plan = sim.make_plan(tiny, config, games=300, seed=11, keep_rows=True)
    one = sim.run(plan, workers=1)
    two = sim.run(plan, workers=2)
    odd = sim.run(plan, workers=2, chunk_size=7)
    assert figures(tiny, config, one) == figures(tiny, config, two) == figures(tiny, config, odd)
    assert [r.seed for r in one.rows] == [r.seed for r in odd.rows]
    assert one.tally.games == 300


def test_match_i_is_played_with_the_derived_seed():
    config = tiny.Config()
    plan = sim.make_plan(tiny, config, games=3, seed=5, keep_rows=True)
    study = sim.run(plan, workers=1)
    for row in study.rows:
        assert row.seed == derive_seed(5, row.index)
        alone = play_match(
            tiny,
            config,
            row.seed,
            {s: sim.bot_kinds(tiny)["random"](s) for s in range(config.players)},
        )
        assert alone.outcome.rounds == row.rounds
        assert alone.steps == row.steps


def test_another_seed_gives_other_games():
    config = tiny.Config()
    a = sim.run(sim.make_plan(tiny, config, games=50, seed=1, keep_rows=True), workers=1)
    b = sim.run(sim.make_plan(tiny, config, games=50, seed=2, keep_rows=True), workers=1)
    assert [r.steps for r in a.rows] != [r.steps for r in b.rows]


@pytest.mark.parametrize("game", wolfden.games.all(), ids=lambda g: g.id)
def test_every_registered_game_simulates_identically_on_one_and_two_workers(game):
    config = game.Config()
    plan = sim.make_plan(game, config, games=24, seed=3)
    one = sim.run(plan, workers=1)
    two = sim.run(plan, workers=2, chunk_size=5)
    assert figures(game, config, one) == figures(game, config, two)
    assert one.tally.games == 24
    assert sum(one.tally.team_wins.values()) + one.tally.solo_wins == 24


def test_ctrl_c_stops_and_keeps_what_finished():
    plan = sim.make_plan(tiny, tiny.Config(), games=2000, seed=1)
    seen = []

    def interrupt_after_first(n):
        seen.append(n)
        if len(seen) == 1:
            raise KeyboardInterrupt

    study = sim.run(plan, workers=2, chunk_size=50, progress=interrupt_after_first)
    assert study.interrupted
    assert 50 <= study.tally.games < 2000
    assert study.tally.games == sum(stop - start for start, stop in study.done)
    assert study.tally.games == sum(seen)


def test_ctrl_c_on_one_worker_keeps_the_finished_chunks():
    plan = sim.make_plan(tiny, tiny.Config(), games=1000, seed=1)
    calls = []

    def interrupt_on_third(n):
        calls.append(n)
        if len(calls) == 3:
            raise KeyboardInterrupt

    study = sim.run(plan, workers=1, chunk_size=10, progress=interrupt_on_third)
    assert study.interrupted
    assert study.tally.games == 30


def test_bots_one_kind_for_all_seats():
    plan = sim.parse_bots("random", 4)
    assert sim.seat_kinds(tiny, plan, None, 4) == ["random"] * 4


def test_bots_one_kind_per_seat():
    plan = sim.parse_bots("a,b,c", 3)
    assert sim.seat_kinds(tiny, plan, None, 3) == ["a", "b", "c"]


def test_bots_by_seat_and_team_over_a_default():
    plan = sim.parse_bots("rules,odds=random,2=clever", 4)
    state = tiny.setup(tiny.Config(), 1)
    assert sim.seat_kinds(tiny, plan, state, 4) == ["rules", "random", "clever", "random"]


def test_bots_from_a_games_own_flags_fill_unnamed_seats():
    plan = sim.parse_bots("rules,0=random", 3, overrides={0: "young", 1: "older"})
    assert sim.seat_kinds(tiny, plan, None, 3) == ["random", "older", "rules"]


def test_bots_with_the_wrong_number_of_kinds_is_an_error():
    with pytest.raises(ConfigError, match="2 kinds for 3 seats"):
        sim.parse_bots("rules,random", 3)


def test_bots_naming_a_seat_that_does_not_exist_is_an_error():
    with pytest.raises(ConfigError, match="seats are 0 to 2"):
        sim.parse_bots("5=random", 3)


def test_unknown_bot_kind_is_an_error_naming_the_kinds():
    with pytest.raises(ConfigError, match=r"unknown bot 'genius'.*random"):
        sim.make_plan(tiny, tiny.Config(), games=1, seed=1, bots=sim.parse_bots("genius", 4))


def test_team_bots_follow_the_deal_in_a_simulation():
    plan = sim.make_plan(
        tiny, tiny.Config(), games=20, seed=1, bots=sim.parse_bots("odds=random", 4)
    )
    assert sim.run(plan, workers=1).tally.games == 20


def test_zero_games_is_an_error():
    with pytest.raises(ConfigError, match="at least 1"):
        sim.make_plan(tiny, tiny.Config(), games=0, seed=1)


def test_unknown_backend_is_an_error():
    plan = sim.make_plan(tiny, tiny.Config(), games=1, seed=1)
    with pytest.raises(ConfigError, match="local, ray"):
        sim.run(plan, backend="cloud")
