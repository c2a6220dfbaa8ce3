"""Matches recorded from the game replay to the same events, views and outcome.

The fixtures were played by random and memory bots on the match runner's clock, for every
config family of the game (see ``recorded.py``); any change in what the game says or shows
at any step of them fails here, with the step and what differs.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.recorded import (
    check_families_recorded,
    check_replay,
    first_match,
    fixture_matches,
    replayed,
)
from wolfden.engine.record import MatchRecord
from wolfden.games import werwoelfe_kids as kids

from .recorded import FIXTURES


def test_every_config_family_is_recorded() -> None:
    check_families_recorded(kids, FIXTURES, most_bytes=1_000_000)


@pytest.mark.parametrize("match", fixture_matches(FIXTURES))
def test_a_recorded_match_replays_identically(match: dict[str, Any]) -> None:
    check_replay(kids, match)


def test_a_changed_rule_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay notices when the game shows something else: here, a peek that stays shut."""
    match = first_match(FIXTURES)
    record = MatchRecord.from_json(match["record"])
    original = kids.view

    def blind_view(state: Any, viewer: Any) -> Any:
        out = original(state, viewer)
        out.pop("peek", None)
        return out

    monkeypatch.setattr(kids, "view", blind_view)
    got = [digest for _, _, digest in replayed(kids, record)]
    assert got != [step["digest"] for step in match["steps"]]
