"""Recorded Werwölfe Kids matches: how they are written and how a replay is compared with them.

The config families, the bots that play them and how each match is recorded; the format, the
digest and the replay are shared by every game (``tests/games/recorded.py``).

Regenerate (only when a rule change is meant to change recorded play):
``PYTHONPATH=src python -m tests.games.werwoelfe_kids.recorded``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.recorded import recorded_steps, write_all
from wolfden import bots
from wolfden.games import werwoelfe_kids as kids
from wolfden.sim.runner import play_match

FIXTURES = Path(__file__).parent / "fixtures"

SEEDS = (11, 22, 33)
"""Three matches per config family: random teams; rules teams; a young village against a
perfect pack."""

TEAMS_BY_MATCH = (("random", "random"), ("rules", "rules"), ("young", "perfect"))


def families() -> list[tuple[str, kids.Config]]:
    """Every config family the game documents: the conformance configs and the bench's."""
    out = [(f"sample{i:02d}", config) for i, config in enumerate(kids.sample_configs())]
    sampled = set(kids.sample_configs())
    out += [
        (f"bench{i}", config)
        for i, (_label, config) in enumerate(kids.bench_configs())
        if config not in sampled
    ]
    return out


def _players(match: int) -> dict[int, Any]:
    return {
        seat: bots.make("werwoelfe-kids", kind, seat)
        for seat, kind in enumerate(TEAMS_BY_MATCH[match])
    }


def record_match(config: kids.Config, seed: int, match: int) -> dict[str, Any]:
    """Play one match and keep what the game said at every step."""
    # Slow thinkers (25 virtual seconds a move) let the clock close the open doors; quick ones
    # (1 s) close them themselves.
    think = 25.0 if match == 2 or seed % 2 else 1.0
    result = play_match(kids, config, seed, _players(match), think=think)
    record = result.record
    steps = recorded_steps(kids, record)
    outcome = kids.outcome(result.state)
    assert outcome is not None
    return {
        "record": record.to_json(),
        "think": think,
        "steps": steps,
        "outcome": outcome.to_json(),
    }


if __name__ == "__main__":
    write_all(FIXTURES, families(), SEEDS, record_match)
