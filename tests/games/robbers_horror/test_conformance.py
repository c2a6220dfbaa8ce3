"""The conformance suite on robbers-horror: 1,000 random playouts over every sample config.

(The suite over every registered game runs with its own seed; this one adds a second,
independent set of playouts and checks the figures specific to this game.)
"""

from __future__ import annotations

from wolfden.engine import conformance
from wolfden.games import robbers_horror as rh


def test_robbers_horror_keeps_the_contract_over_1000_playouts() -> None:
    report = conformance.run_all(rh, playouts=1000, deep_every=10, seed=303)
    assert report.playouts == 1000
    assert report.wall_checks > 1000 and report.wall_event_checks > 1000
    assert report.illegal_checks > 1000
    assert report.largest_view < 16_000


def test_perturb_hidden_really_moves_the_hidden_cards() -> None:
    from wolfden.engine.rng import Rng
    from wolfden.engine.types import SPECTATOR, Viewer

    state = rh.setup(rh.Config(players=5), seed=4)
    rng = Rng(9)
    moved_hands = moved_undealt = 0
    for _ in range(20):
        other = rh.perturb_hidden(state, Viewer.of(0), rng)
        assert other is not None
        assert other.hands[0] == state.hands[0]
        assert [len(h) for h in other.hands] == [len(h) for h in state.hands]
        moved_hands += other.hands != state.hands
        moved_undealt += other.undealt != state.undealt
        assert rh.view(other, Viewer.of(0)) == rh.view(state, Viewer.of(0))
    assert moved_hands >= 19 and moved_undealt >= 10
    table = rh.perturb_hidden(state, SPECTATOR, rng)
    assert table is not None and table.hands[0] != state.hands[0]
