"""Every recorded match replays to the same events, views and outcome.

The fixtures were recorded before the rules were rewritten plainly (see ``recorded.py``):
every config family, random, rules and ismcts bots. A change to the rules that a player could
notice (an event's text or data, who hears it, a view, a legal action, the outcome) fails here.
"""

from __future__ import annotations

from typing import Any

import pytest

from wolfden import bots
from wolfden.engine.config import config_from_json
from wolfden.engine.record import MatchRecord, replay
from wolfden.games import robbers_horror as rh
from wolfden.sim.runner import play_match

from .recorded import event_json, load_fixtures, outcome_json, step_digest

MATCHES = load_fixtures()


def test_the_fixtures_cover_every_config_family_and_bot() -> None:
    families = {name.split("-")[0] for name, _ in MATCHES}
    assert len(families) == len(rh.sample_configs()) + len(rh.bench_configs())
    bots = {kind for _, match in MATCHES for kind in match["bots"]}
    assert bots == {"random", "rules", "ismcts"}


@pytest.mark.parametrize(("name", "match"), MATCHES, ids=[name for name, _ in MATCHES])
def test_a_recorded_match_replays_identically(name: str, match: dict[str, Any]) -> None:
    record = MatchRecord.from_json(match["record"])
    expected = match["steps"]
    steps = list(replay(rh, record))
    assert len(steps) == len(expected)
    for i, ((state, _seat, _action, events), want) in enumerate(zip(steps, expected)):
        assert [event_json(e) for e in events] == want["events"], f"events of step {i}"
        assert step_digest(state) == want["digest"], f"views or actions after step {i}"
        if i < len(steps) - 1:
            assert rh.outcome(state) is None, f"an outcome before the end, at step {i}"
    assert outcome_json(steps[-1][0]) == match["outcome"]
    assert match["outcome"] is not None


RULES_MATCHES = [(name, match) for name, match in MATCHES if set(match["bots"]) == {"rules"}]


@pytest.mark.parametrize(("name", "match"), RULES_MATCHES, ids=[n for n, _ in RULES_MATCHES])
def test_the_rules_bot_still_plays_the_recorded_cards(name: str, match: dict[str, Any]) -> None:
    record = MatchRecord.from_json(match["record"])
    config = config_from_json(rh.Config, record.config)
    players = {seat: bots.make(rh.id, "rules", seat) for seat in range(config.players)}
    assert play_match(rh, config, record.seed, players).record.actions == record.actions
