"""Robbers' Horror's information-wall check really moves what a seat cannot see.

(The conformance suite itself runs once per game, in ``tests/test_conformance.py``, which also
asserts what is particular to this game on the same playouts.)
"""

from __future__ import annotations

from wolfden.games import robbers_horror as rh


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
