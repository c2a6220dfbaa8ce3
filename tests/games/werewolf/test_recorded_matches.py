"""Matches recorded from the game replay to the same events, views and outcome.

The fixtures were played by random and rules bots on the match runner's clock, for every
config family of the game (see ``recorded.py``); any change in what the game says or shows
at any step of them fails here, with the step and what differs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from wolfden.engine.record import MatchRecord
from wolfden.games import werewolf

from .recorded import FIXTURES, event_json, replayed

FILES = sorted(FIXTURES.glob("*.json"))


def _matches() -> list[Any]:
    out = []
    for path in FILES:
        doc = json.loads(path.read_text(encoding="utf-8"))
        for i, match in enumerate(doc["matches"]):
            out.append(pytest.param(match, id=f"{path.stem}-{i}"))
    return out


def test_every_config_family_is_recorded() -> None:
    assert len(FILES) >= len(werewolf.sample_configs())
    # About 25 kB a family: the seed's and the variant roles' (docs/games/werewolf.md).
    assert sum(path.stat().st_size for path in FILES) < 700_000


@pytest.mark.parametrize("match", _matches())
def test_a_recorded_match_replays_identically(match: dict[str, Any]) -> None:
    record = MatchRecord.from_json(match["record"])
    expected = match["steps"]
    steps = list(replayed(record))
    assert len(steps) == len(expected)
    for step, ((_, events, digest), want) in enumerate(zip(steps, expected)):
        action = record.actions[step - 1] if step else "setup"
        # A JSON round trip gives the stored form (tuples become lists, as they did then).
        got = json.loads(json.dumps([event_json(e) for e in events]))
        assert got == want["events"], f"events differ at step {step} ({action})"
        assert digest == want["digest"], f"views or contract answers differ at step {step}"
    final = steps[-1][0]
    outcome = werewolf.outcome(final)
    assert outcome is not None
    assert outcome.to_json() == match["outcome"]


def test_a_changed_rule_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay notices when the game says something else: here, every line shouted."""
    path = FIXTURES / "sample00.json"
    match = json.loads(Path(path).read_text(encoding="utf-8"))["matches"][0]
    record = MatchRecord.from_json(match["record"])
    original = werewolf.apply

    def lying_apply(state: Any, seat: Any, action: Any) -> Any:
        state, events = original(state, seat, action)
        return state, [e._replace(text=e.text.upper()) for e in events]

    monkeypatch.setattr(werewolf, "apply", lying_apply)
    got = [[event_json(e) for e in events] for _, events, _ in replayed(record)]
    assert got != [step["events"] for step in match["steps"]]
