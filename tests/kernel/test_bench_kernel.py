"""The kernel's benchmark plays what it says it plays (its speed is measured by `wolfden bench`,
never here)."""

from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

pytest.importorskip("numba")

from wolfden.games import robbers_horror as rh
from wolfden.games.werewolf.config import Config as WerewolfConfig
from wolfden_bench import kernel as kernel_bench
from wolfden_bench.cli import bench_command


def test_kernel_batches_play_whole_matches() -> None:
    deals = kernel_bench.kernel_batch(rh.id, rh.Config(players=4, deals=1))
    assert deals(10, 0) == 10 * 36  # 9 tricks of 4 cards a deal
    games = kernel_bench.kernel_batch("werewolf", WerewolfConfig(players=7), "rules")
    assert games(10, 0) > 10 * 7


def test_measure_in_turns_names_each_entry() -> None:
    deals = kernel_bench.kernel_batch(rh.id, rh.Config(players=3, deals=1))
    rates = kernel_bench.measure_in_turns([("a", deals), ("b", deals)], repeats=1, seconds=0.05)
    assert [r.label for r in rates] == ["a", "b"]
    assert all(r.games_per_s > 0 and r.actions_per_game == 27 for r in rates)


def test_openspiel_playouts_count_their_actions() -> None:
    pytest.importorskip("pyspiel")
    oh_hell = kernel_bench.spiel_batch("oh_hell", kernel_bench.OH_HELL)
    # 4 bids and 8 tricks of 4 cards.
    assert oh_hell(3, 0) == 3 * 36


def test_bench_has_the_kernel_section() -> None:
    result = CliRunner().invoke(bench_command, ["--help"])
    assert "--kernel / --no-kernel" in result.output


def test_calibration_does_not_count_the_first_call() -> None:
    """The first call of a kernel loads or compiles it; counted, it made the timed batches a few
    dozen games long and the kernel's rate a measure of the call overhead."""
    calls = []

    def play(games: int, first: int) -> int:
        if not calls:
            began = time.process_time()
            while time.process_time() - began < 0.3:  # a slow first call
                pass
        calls.append(games)
        sum(range(games * 20))
        return games

    assert kernel_bench._calibrate(play, 0.2) >= 1000
