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


def test_ismcts_move_times_count_the_moves_with_a_choice() -> None:
    """A 4-player deal has 36 moves; the last trick's 4 are forced, and so is any other move
    from a hand whose cards are one play (two Werewolves, say), so 28 to 32 are timed."""
    play, spent = kernel_bench.kernel_ismcts_moves(20, "random")
    moves = play(1, 0)
    assert 28 <= moves <= 32
    assert len(spent) == moves and all(s >= 0 for s in spent)
    times = kernel_bench.move_times(
        [("compiled", kernel_bench.kernel_ismcts_moves(20, "rules"), 1)], repeats=2
    )
    assert [t.label for t in times] == ["compiled"] and times[0].moves >= 2 * 28


def test_openspiel_ismcts_plays_whole_oh_hell_games() -> None:
    pytest.importorskip("pyspiel")
    play, spent = kernel_bench.spiel_ismcts_moves(20)
    moves = play(1, 0)
    # 4 bids and 32 cards, the last trick forced.
    assert 4 + 8 <= moves <= 4 + 28
    assert len(spent) == moves


def test_the_bootstrap_interval_holds_the_share() -> None:
    low, high = kernel_bench.bootstrap([3, 1, 2, 2, 4, 0], [4, 4, 4, 4, 4, 4])
    assert low < 12 / 24 < high
    low, high = kernel_bench.bootstrap([4] * 10, [4] * 10)
    assert low == high == 1.0


def test_the_head_to_head_plays_both_seatings_of_each_seed() -> None:
    h = kernel_bench.kernel_vs_reference_ismcts(5, 2)
    # One deal of 4 players: a point to each member of the winning team (at most 3 seats).
    assert h.pairs == 2 and h.simulations == 5
    assert 0 < h.points <= 2 * 2 * 3
    assert h.low <= h.share <= h.high
