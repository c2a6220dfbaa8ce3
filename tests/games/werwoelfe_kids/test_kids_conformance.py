"""The game keeps the contract over 1,000 random playouts of every variant.

``tests/test_conformance.py`` runs the suite over every game with its own seed; this run uses
other seeds (so together they cover 2,000 different matches), checks every 20th playout deeply,
and asserts what is particular to Werwölfe Kids: both teams win now and then, and the
information wall is checked in views and in events thousands of times.
"""

from __future__ import annotations

from wolfden import games
from wolfden.engine.conformance import run_all


def test_werwoelfe_kids_passes_the_conformance_suite() -> None:
    game = games.get("werwoelfe-kids")
    report = run_all(game, playouts=1000, deep_every=20, max_steps=5000, seed=4)
    assert report.playouts == 1000
    assert report.wall_checks > 5_000
    assert report.wall_event_checks > 2_500
    assert report.illegal_checks > 5_000
    assert set(report.outcomes) == {"village", "werewolves"}
    assert report.largest_view < 8_000
