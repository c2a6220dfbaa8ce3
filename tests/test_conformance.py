"""The conformance suite over every registered game (1,000 random playouts each)."""

from __future__ import annotations

import os
import types

import pytest

from wolfden import games
from wolfden.engine import conformance
from wolfden.engine.types import Viewer

PLAYOUTS = int(os.environ.get("WOLFDEN_PLAYOUTS", "1000"))
"""1,000 in the full suite; ``python3 dev.py test --quick`` asks for 100."""


def _kids(report: conformance.Report) -> None:
    # Both teams win now and then, and the wall is checked in views and events thousands of times.
    assert set(report.outcomes) == {"village", "werewolves"}
    assert report.wall_checks > 5 * PLAYOUTS
    assert report.wall_event_checks > 2 * PLAYOUTS
    assert report.largest_view < 8_000


def _robbers(report: conformance.Report) -> None:
    assert report.wall_checks > PLAYOUTS and report.wall_event_checks > PLAYOUTS
    assert report.illegal_checks > PLAYOUTS
    assert report.largest_view < 16_000


GAME_CHECKS = {"werwoelfe-kids": _kids, "robbers-horror": _robbers}
"""What is particular to a game, asserted on the same playouts (one run per game)."""


@pytest.mark.parametrize("game_id", games.ids())
def test_every_game_keeps_the_contract(game_id: str) -> None:
    game = games.get(game_id)
    report = conformance.run_all(game, playouts=PLAYOUTS, deep_every=10, max_steps=5000)
    assert report.playouts == PLAYOUTS
    GAME_CHECKS.get(game_id, lambda _: None)(report)
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


def _turncoat(game_id: str) -> types.SimpleNamespace:
    game = games.get(game_id)
    turncoat = types.SimpleNamespace(
        **{k: getattr(game, k) for k in dir(game) if not k.startswith("__")}
    )
    first, second = game.team_names(game.Config())[:2]

    def seat_teams(state: object) -> dict[int, str]:
        # Each seat's team swapped: not the teams the Outcome names.
        swap = {first: second, second: first}
        return {s: swap.get(t, t) for s, t in game.seat_teams(state).items()}

    turncoat.seat_teams = seat_teams
    return turncoat


@pytest.mark.parametrize("game_id", games.ids())
def test_seat_teams_that_disagree_with_the_outcome_are_caught(game_id: str) -> None:
    with pytest.raises(conformance.ConformanceError, match="disagrees with the Outcome"):
        conformance.run_all(_turncoat(game_id), playouts=10, deep_every=100)
