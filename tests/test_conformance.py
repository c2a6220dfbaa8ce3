"""The conformance suite over every registered game (1,000 random playouts each)."""

from __future__ import annotations

import types

import pytest

from wolfden import games
from wolfden.engine import conformance
from wolfden.engine.types import Viewer


@pytest.mark.parametrize("game_id", games.ids())
def test_every_game_keeps_the_contract(game_id: str) -> None:
    game = games.get(game_id)
    report = conformance.run_all(game, playouts=1000, deep_every=10)
    assert report.playouts == 1000
    assert report.wall_checks > 0, "the information-wall check never ran: perturb_hidden is vacuous"
    assert report.illegal_checks > 0
    # The largest view and event batch, for the record (views must stay small for phones).
    print(
        f"{game_id}: largest view {report.largest_view} bytes ({report.largest_view_where}); "
        f"largest events {report.largest_events} bytes; outcomes {report.outcomes}"
    )
    assert report.largest_view < 64_000


def _leaky(game_id: str) -> types.SimpleNamespace:
    game = games.get(game_id)
    leaky = types.SimpleNamespace(
        **{k: getattr(game, k) for k in dir(game) if not k.startswith("__")}
    )

    def view(state: object, viewer: Viewer) -> dict[str, object]:
        out = game.view(state, viewer)
        # A debugging field left in by mistake: the whole hidden state.
        out["debug"] = repr(game.view(state, Viewer.parse("all")))
        return out

    leaky.view = view
    return leaky


@pytest.mark.parametrize("game_id", games.ids())
def test_a_leaky_view_is_caught(game_id: str) -> None:
    with pytest.raises(conformance.ConformanceError, match="can tell apart"):
        conformance.run_all(_leaky(game_id), playouts=30, deep_every=1)
