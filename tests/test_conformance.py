"""The conformance suite over every registered game (1,000 random playouts each).

A game's playouts are those of ``conformance.run_all`` (numbered 0 to PLAYOUTS - 1: the
number picks the sample config, the seed and whether the playout is checked deeply), played
in parts of at least PART playouts, one test each, so that the test processes share them.
What is asserted over a game's playouts is asserted over each part.
"""

from __future__ import annotations

import os
import types
from typing import Any

import pytest

from wolfden import games
from wolfden.engine import conformance
from wolfden.engine.rng import derive_seed
from wolfden.engine.types import Viewer

PLAYOUTS = int(os.environ.get("WOLFDEN_PLAYOUTS", "1000"))
"""1,000 in the full suite; ``python3 dev.py test --quick`` asks for 100."""
PART = 250
"""The fewest playouts in a part (a game of fewer playouts is played in one part)."""
PARTS = max(1, PLAYOUTS // PART)
DEEP_EVERY = 10
MAX_STEPS = 5000
SEED = 2026
"""``conformance.run_all``'s seed."""


def part_of(part: int) -> range:
    """The numbers of the playouts in a part; the parts together are 0 to PLAYOUTS - 1."""
    return range(part * PLAYOUTS // PARTS, (part + 1) * PLAYOUTS // PARTS)


def play_part(game: Any, numbers: range) -> conformance.Report:
    """The playouts ``conformance.run_all`` numbers ``numbers``, checked as it checks them."""
    report = conformance.Report()
    configs = list(game.sample_configs())
    for i in numbers:
        conformance.check_playout(
            game,
            configs[i % len(configs)],
            derive_seed(SEED, i),
            report,
            max_steps=MAX_STEPS,
            deep=i % DEEP_EVERY == 0,
        )
    return report


def _kids(report: conformance.Report) -> None:
    # Both teams win now and then, and the wall is checked in views and events thousands of times.
    assert set(report.outcomes) == {"village", "werewolves"}
    assert report.wall_checks > 5 * report.playouts
    assert report.wall_event_checks > 2 * report.playouts
    assert report.largest_view < 8_000


def _robbers(report: conformance.Report) -> None:
    assert report.wall_checks > report.playouts and report.wall_event_checks > report.playouts
    assert report.illegal_checks > report.playouts
    assert report.largest_view < 16_000


GAME_CHECKS = {"werwoelfe-kids": _kids, "robbers-horror": _robbers}
"""What is particular to a game, asserted on the playouts of each part."""


@pytest.mark.parametrize(
    ("game_id", "part"),
    [(game_id, part) for game_id in games.ids() for part in range(PARTS)],
    ids=[
        f"{game_id}-{part_of(part).start}-{part_of(part).stop - 1}"
        for game_id in games.ids()
        for part in range(PARTS)
    ],
)
def test_every_game_keeps_the_contract(game_id: str, part: int) -> None:
    game = games.get(game_id)
    numbers = part_of(part)
    report = play_part(game, numbers)
    assert report.playouts == len(numbers)
    GAME_CHECKS.get(game_id, lambda _: None)(report)
    assert report.wall_checks > 0, "the information-wall check never ran: perturb_hidden is vacuous"
    assert report.illegal_checks > 0
    # The largest view and event batch, for the record (views must stay small for phones).
    print(
        f"{game_id} {numbers}: largest view {report.largest_view} bytes "
        f"({report.largest_view_where}); largest events {report.largest_events} bytes; "
        f"outcomes {report.outcomes}"
    )
    assert report.largest_view < 64_000


def test_the_parts_are_the_playouts_of_run_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parts play, together and once each, the playouts ``run_all`` plays: the same
    configs, seeds, depth and step bound."""
    game = games.get(games.ids()[0])
    played: list[tuple[Any, int, int, bool]] = []

    def check_playout(
        game: Any, config: Any, seed: int, report: Any, *, max_steps: int, deep: bool
    ) -> None:
        played.append((config, seed, max_steps, deep))

    monkeypatch.setattr(conformance, "check_playout", check_playout)
    conformance.run_all(game, playouts=PLAYOUTS, deep_every=DEEP_EVERY, max_steps=MAX_STEPS)
    by_run_all = list(played)
    played.clear()
    for part in range(PARTS):
        play_part(game, part_of(part))
    assert played == by_run_all
    assert len(by_run_all) == PLAYOUTS and sum(d for *_, d in by_run_all) > 0


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
