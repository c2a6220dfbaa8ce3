"""Matches recorded from the game replay to the same events, views and outcome.

The fixtures were played by random and rules bots on the match runner's clock, for every
config family of the game (see ``recorded.py``); any change in what the game says or shows
at any step of them fails here, with the step and what differs.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.recorded import (
    check_families_recorded,
    check_replay,
    event_json,
    first_match,
    fixture_matches,
    replayed,
)
from wolfden.engine.record import MatchRecord
from wolfden.games import werewolf

from .recorded import FIXTURES


def test_every_config_family_is_recorded() -> None:
    # About 25 kB a family: the seed's and the variant roles' (docs/games/werewolf.md).
    check_families_recorded(werewolf, FIXTURES, most_bytes=700_000)


@pytest.mark.parametrize("match", fixture_matches(FIXTURES))
def test_a_recorded_match_replays_identically(match: dict[str, Any]) -> None:
    check_replay(werewolf, match)


def test_a_changed_rule_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay notices when the game says something else: here, every line shouted."""
    match = first_match(FIXTURES)
    record = MatchRecord.from_json(match["record"])
    original = werewolf.apply

    def lying_apply(state: Any, seat: Any, action: Any) -> Any:
        state, events = original(state, seat, action)
        return state, [e._replace(text=e.text.upper()) for e in events]

    monkeypatch.setattr(werewolf, "apply", lying_apply)
    got = [[event_json(e) for e in events] for _, events, _ in replayed(werewolf, record)]
    assert got != [step["events"] for step in match["steps"]]
