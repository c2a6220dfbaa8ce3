"""A short soak: rooms of every game at once, a person and bots in each, for a few seconds,
with no error. The full run (500 rooms, 60 s) is ``wolfden soak run``; its
figures are in docs/reliability.md."""

from __future__ import annotations

from pathlib import Path

from tests.security.wire import run_in_own_loop
from wolfden import games
from wolfden_bench.soak import Serve, mann_whitney_p, soak, soak_report


def test_a_short_soak_of_every_game_has_no_error(tmp_path: Path) -> None:
    serve = Serve(tmp_path / "soak.sqlite3", bot_delay=0.1, time_scale=100)
    try:
        result = run_in_own_loop(lambda: soak(serve, 12, 4.0, games.ids(), "random"))
    finally:
        serve.stop()
    report = soak_report(result)
    tally = result["tally"]
    assert tally.errors == [], report
    assert tally.actions > 0 and tally.latencies, report
    assert result["rss_end_kib"] > 0
    assert serve.errors() == ""


def test_the_rank_test_tells_equal_from_shifted_samples() -> None:
    same = [float(i % 10) for i in range(200)]
    assert mann_whitney_p(same, list(reversed(same))) > 0.9
    assert mann_whitney_p(same, [x + 5 for x in same]) < 1e-6
