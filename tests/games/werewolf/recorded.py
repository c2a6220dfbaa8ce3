"""Recorded Werewolf matches: how they are written and how a replay is compared with them.

The config families, the bots that play them and how each match is recorded; the format, the
digest and the replay are shared by every game (``tests/games/recorded.py``).

Regenerate (only when a rule change is meant to change recorded play):
``PYTHONPATH=src python -m tests.games.werewolf.recorded`` (add ``--new`` to write only the
fixtures of config families that have none yet).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.recorded import recorded_steps, write_all
from wolfden import bots
from wolfden.games import werewolf
from wolfden.sim.runner import play_match

FIXTURES = Path(__file__).parent / "fixtures"


SEEDS = (11, 22, 33)
"""Three matches per config family: all random bots; all rules bots; and a mix."""


def families() -> list[tuple[str, werewolf.Config]]:
    """Every config family the game documents: the conformance configs and the bench's."""
    out = [(f"sample{i:02d}", config) for i, config in enumerate(werewolf.sample_configs())]
    sampled = set(werewolf.sample_configs())
    out += [
        (f"bench-{label.split()[0]}", config)
        for label, config in werewolf.bench_configs()
        if config not in sampled
    ]
    out.append(
        (
            "named",
            werewolf.Config(
                players=7, names=tuple(f"Ann{i}" for i in range(7)), min_night_seconds=0.0
            ),
        )
    )
    return out


def _players(match: int, players: int) -> dict[int, Any]:
    if match == 0:
        kinds = ["random"] * players
    elif match == 1:
        kinds = ["rules"] * players
    else:
        kinds = ["rules" if seat % 2 else "random" for seat in range(players)]
    return {seat: bots.make("werewolf", kind, seat) for seat, kind in enumerate(kinds)}


def record_match(config: werewolf.Config, seed: int, match: int) -> dict[str, Any]:
    """Play one match and keep what the game said at every step."""
    # Slow thinkers (25 virtual seconds a move) let the clock end nights and ballots with
    # actions missing; quick ones (1 s) finish them by acting.
    think = 25.0 if match == 2 or seed % 2 else 1.0
    result = play_match(werewolf, config, seed, _players(match, config.players), think=think)
    record = result.record
    steps = recorded_steps(werewolf, record)
    outcome = werewolf.outcome(result.state)
    assert outcome is not None
    return {
        "record": record.to_json(),
        "think": think,
        "steps": steps,
        "outcome": outcome.to_json(),
    }


if __name__ == "__main__":
    import sys

    wanted = families()
    if "--new" in sys.argv[1:]:  # only the families that have no fixture yet
        wanted = [(name, c) for name, c in wanted if not (FIXTURES / f"{name}.json").exists()]
    write_all(FIXTURES, wanted, SEEDS, record_match)
