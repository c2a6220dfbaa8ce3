"""The game keeps the contract over 1,000 random playouts of every variant."""

from __future__ import annotations

from wolfden import games
from wolfden.engine.conformance import run_all


def test_werwoelfe_kids_passes_the_conformance_suite() -> None:
    game = games.get("werwoelfe-kids")
    report = run_all(game, playouts=1000, deep_every=10, max_steps=5000)
    assert report.playouts == 1000
    assert report.wall_checks > 10_000
    assert report.wall_event_checks > 5_000
    assert set(report.outcomes) == {"village", "werewolves"}
