"""`wolfden bench` and `wolfden balance`: what they write, not how fast anything is."""

from __future__ import annotations

import json
import re
import sys
import types

import click
import pytest
import sim_tinygame as tiny
from click.testing import CliRunner

from wolfden import games
from wolfden.sim.cli import balance_command
from wolfden.sim.markdown import replace_sections
from wolfden.sim.options import extra_variants, parse_game_flags
from wolfden_bench import playouts as bench
from wolfden_bench.cli import bench_command


def test_a_random_playout_goes_through_the_contract_to_the_end():
    play = bench.playout_of(tiny, tiny.Config())
    steps = play(5)
    assert steps >= 4 * 3  # at least three rounds of four picks (target 3)


def test_two_benchmark_loops_built_alike_play_the_same_games():
    first, second = (bench.playout_of(tiny, tiny.Config()) for _ in range(2))
    lengths = [first(seed) for seed in range(40)]
    assert lengths == [second(seed) for seed in range(40)]
    assert len(set(lengths)) > 1  # the draws differ from game to game


def test_the_benchmark_draws_are_uniform_over_the_items():
    draw = bench.draws(7)
    counts = [0] * 5
    for _ in range(50_000):
        counts[int(draw() * 5)] += 1
    assert all(9_400 < c < 10_600 for c in counts), counts


@pytest.mark.parametrize("game_id", ["werewolf", "robbers-horror"])
def test_the_loop_alone_replays_the_real_games_step_for_step(game_id):
    from wolfden import games
    from wolfden.engine.types import Outcome

    game = games.get(game_id)
    config = next(c for _, c in bench.bench_configs(game))
    alone = bench.loop_alone(game, config, games=24)
    play = bench.playout_of(alone, config)
    starts = [*alone.starts, len(alone.ends)]
    for i in range(24):
        # seed i reads recorded game i: the loop takes as many actions as the real game did,
        # and ends on the real game's outcome
        assert play(i) == starts[i + 1] - starts[i] - 1
        assert isinstance(alone.ends[starts[i + 1] - 1], Outcome)
    # each step answers what the real game answered: the first game played again through
    # the real game with the loop's draws meets the same actors and legal lists at every step
    draw = bench.draws()
    state = game.setup(config, bench.derive_seed(0x100F, 0))
    for step in range(starts[1] - 1):
        seats = game.actors(state)
        assert seats == alone.actors(step)
        if seats:
            seat = min(seats) if len(seats) == 1 else sorted(seats)[int(draw() * len(seats))]
            legal = game.legal_actions(state, seat)
            assert legal == alone.legal_actions(step, seat)
            state, _ = game.apply(state, seat, legal[int(draw() * len(legal))])
        else:
            due = game.deadline(state)
            assert due == alone.deadline(step)
            state, _ = game.apply(state, None, due.action)
    assert game.outcome(state) == alone.outcome(starts[1] - 1)
    # and it does nothing else: the same loop over it is the real loop's floor
    real = sum(bench.playout_of(game, config)(s) for s in range(200)) / 200
    recorded = sum(play(s) for s in range(24)) / 24
    assert 0.7 * real < recorded < 1.3 * real


def test_a_measure_reports_medians_of_its_repetitions():
    m = bench.measure("tiny", bench.playout_of(tiny, tiny.Config()), repeats=3, seconds=0.05)
    assert m.repeats == 3 and m.games >= 5
    assert m.games_per_s > 0 and m.actions_per_s > m.games_per_s


def test_sections_are_replaced_and_other_sections_kept(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\nintro\n\n## Server\n\nserver figures\n\n## tiny\n\nold\n")
    replace_sections(doc, {"tiny": "new figures", "Simulator scaling": "1.9×"}, "# B\n")
    text = doc.read_text()
    assert "## Server\n\nserver figures" in text
    assert "## tiny\n\nnew figures" in text and "old" not in text
    assert text.index("## Server") < text.index("## tiny") < text.index("## Simulator scaling")
    replace_sections(doc, {"tiny": "new figures"}, "# B\n")
    assert doc.read_text() == text


def test_bench_writes_a_section_with_its_command(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# Benchmarks\n\n## Server\n\nkept\n")
    result = CliRunner().invoke(
        bench_command,
        ["sim_tinygame", "--repeat", "2", "--seconds", "0.05", "--output", str(doc)],
    )
    assert result.exit_code == 0, result.output
    assert "games/s" in result.stdout
    text = doc.read_text()
    assert "## Server\n\nkept" in text
    assert "## tiny-parity" in text
    assert "`wolfden bench sim_tinygame --repeat 2 --seconds 0.05`" in text
    assert "| default |" in text
    assert "OpenSpiel side by side" not in text  # only when no game is named, or asked for


def test_the_openspiel_section_splits_each_game_between_loop_and_rules(tmp_path):
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    doc = tmp_path / "benchmarks.md"
    result = CliRunner().invoke(
        bench_command,
        [
            *("werewolf", "--openspiel", "--no-scaling"),
            *("--repeat", "1", "--seconds", "0.05", "--output", str(doc)),
        ],
    )
    assert result.exit_code == 0, result.output
    text = doc.read_text()
    assert "## OpenSpiel side by side" in text
    row = next(line for line in text.splitlines() if line.startswith("| `social_deduction`"))
    assert "werewolf (7 players)" in row and row.endswith("× |")
    note = next(line for line in text.splitlines() if "with rules that cost nothing" in line)
    loop, rules = (
        int(x) for x in re.findall(r"the loop takes (\d+) µs and the rules (\d+) µs", note)[0]
    )
    assert loop > 0 and rules > 0  # both parts measured, in whole microseconds
    assert "the loop alone:" in result.stdout


def test_bench_server_without_its_dependencies_says_what_is_missing(monkeypatch):
    monkeypatch.delitem(sys.modules, "wolfden_bench.server", raising=False)
    monkeypatch.setitem(sys.modules, "websockets.exceptions", None)
    result = CliRunner().invoke(bench_command, ["server"])
    assert result.exit_code == 2
    assert "needs websockets.exceptions, which is not installed" in result.stderr


def test_openspiel_playouts_use_the_stated_games():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    oh_hell = next(s for s in bench.SPIEL_GAMES if s.name == "oh_hell")
    game = pyspiel.load_game("oh_hell", oh_hell.params)
    assert game.num_players() == 4
    assert game.get_parameters()["num_suits"] * game.get_parameters()["num_cards_per_suit"] == 36
    play = bench.spiel_playout("oh_hell", oh_hell.params)
    # four bids, then eight tricks of four cards; the deal itself is chance, not counted
    assert play(1) == 4 + 8 * 4


def test_balance_writes_tables_and_figures(tmp_path):
    import matplotlib.image

    doc = tmp_path / "balance.md"
    figures = tmp_path / "figures"
    result = CliRunner().invoke(
        balance_command,
        [
            "sim_tinygame",
            "--games",
            "20",
            "--workers",
            "2",
            "--output",
            str(doc),
            "--figures",
            str(figures),
        ],
    )
    assert result.exit_code == 0, result.output
    text = doc.read_text()
    assert "## Tiny Parity (`tiny-parity`)" in text
    assert "### Tiny Parity: win rate by player count" in text
    assert "### Tiny Parity: variants against the defaults" in text
    assert "Games: 20 per row. Seed: 1" in text
    assert "| --variant loaded | random |" in text
    # announcing the totals changes no figure between bots: it is listed, not tabled
    assert "| --no-announce |" not in text
    assert "(every figure as with the defaults): `--no-announce`." in text
    for name in ("balance-tiny-parity-players.png", "balance-tiny-parity-variants.png"):
        assert f"(figures/{name})" in text
        pixels = matplotlib.image.imread(figures / name)
        assert pixels.std() > 0.01


@pytest.fixture
def tiny_extra_flags(monkeypatch):
    """A terminal module for the tiny game with a flag of its own, as a game may have."""
    module = types.ModuleType("tiny_parity_terminal")
    module.EXTRA_OPTIONS = [
        click.Option(["--level"], type=click.Choice(["easy", "hard"]), default="easy")
    ]

    def apply_extra(options, config_kwargs, seat_bots):
        if options.get("level") == "hard":
            config_kwargs["target"] = 5
            seat_bots[0] = "random"

    module.apply_extra = apply_extra
    monkeypatch.setitem(sys.modules, "tiny_parity_terminal", module)
    games.register(games.Entry(tiny.id, rules=tiny.__name__, terminal="tiny_parity_terminal"))
    yield
    games.unregister(tiny.id)


def test_a_games_own_flags_set_config_and_seat_bots(tiny_extra_flags):
    config, seats = parse_game_flags(tiny, ["--level", "hard", "--players", "5"])
    assert config.target == 5 and config.players == 5
    assert seats == {0: "random"}
    assert extra_variants(tiny) == [["--level", "hard"]]


def test_simulate_takes_a_games_own_flags(tiny_extra_flags):
    from wolfden.sim.cli import simulate_command

    result = CliRunner().invoke(
        simulate_command, ["sim_tinygame", "--level", "hard", "--games", "5", "--json", "-w", "1"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["config"]["target"] == 5
    assert data["bots"]["seats"] == {"0": "random"}


def test_balance_studies_a_games_own_flags_as_variants(tiny_extra_flags, tmp_path):
    doc = tmp_path / "balance.md"
    result = CliRunner().invoke(
        balance_command,
        [
            "sim_tinygame",
            "--games",
            "10",
            "-w",
            "1",
            "--output",
            str(doc),
            "--figures",
            str(tmp_path / "figures"),
        ],
    )
    assert result.exit_code == 0, result.output
    text = doc.read_text()
    assert "| --level hard | random |" in text
    assert "With `--level hard` the game's option sets these seats' bots: seat 0: `random`." in text


def test_scaling_compares_one_worker_with_two():
    result = bench.bench_scaling(tiny, tiny.Config(), games=60, repeats=1)
    assert result.games == 60 and result.repeats == 1
    assert result.one > 0 and result.two > 0
    assert result.ratio == result.two / result.one
    assert result.startup > 0 and result.busy > 0


def test_studies_give_slow_bots_fewer_games_within_a_time_budget():
    from wolfden.sim import balance

    study = balance.generic_studies(tiny, 1000, ["random"])[0]
    balance.prepare_study(study, seed=1, workers=1, budget=None)
    assert study.games_by_kind == {"random": 1000}
    balance.prepare_study(study, seed=1, workers=1, budget=1e-6)
    assert study.games_by_kind == {"random": 100}


def test_a_long_range_of_player_counts_is_spread_over_seven_points():
    from wolfden.sim.balance import _spread

    assert _spread(range(3, 21)) == [3, 6, 9, 11, 14, 17, 20]
    assert _spread(range(7, 13)) == [7, 8, 9, 10, 11, 12]


def test_a_new_game_section_goes_above_the_comparisons(tmp_path):
    doc = tmp_path / "benchmarks.md"
    doc.write_text("# B\n\n## werewolf\n\nw\n\n## OpenSpiel side by side\n\no\n\n## Server\n\ns\n")
    replace_sections(doc, {"kids": "k"}, "# B\n", before=("OpenSpiel side by side",))
    text = doc.read_text()
    assert text.index("## werewolf") < text.index("## kids") < text.index("## OpenSpiel")
    assert text.endswith("## Server\n\ns\n")


def test_studies_play_the_strongest_bots_first():
    from wolfden.sim.balance import strongest

    assert strongest(["random", "rules", "belief"]) == ["belief", "rules", "random"]
    assert strongest(["random", "rules", "ismcts"], tiers=2) == ["ismcts", "rules"]
    assert strongest(["rules", "young", "older", "perfect", "random"]) == [
        "perfect",
        "older",
        "rules",
    ]
    assert strongest(["random", "mine"]) == ["random", "mine"]
