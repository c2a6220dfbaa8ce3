"""Recorded Werewords matches: how they are written and how a replay is compared with them.

The config families, the bots that play them and how each match is recorded; the format, the
digest and the replay are shared by every game (``tests/games/recorded.py``).

Regenerate (only when a rule change is meant to change recorded play):
``PYTHONPATH=src python -m tests.games.werewords.recorded``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.recorded import recorded_steps, write_all
from wolfden import bots
from wolfden.engine.config import config_to_json
from wolfden.engine.errors import IllegalAction
from wolfden.engine.record import MatchRecord
from wolfden.engine.rng import Rng
from wolfden.engine.types import Viewer
from wolfden.games import werewords
from wolfden.sim.runner import play_match

FIXTURES = Path(__file__).parent / "fixtures"


SEEDS = (11, 22, 33, 44)
"""Four matches per config family: all random bots; all rules bots; a mix; and a mix with a
host who presses the host's buttons (Whoops, Play Again, Next, companion clues)."""


def families() -> list[tuple[str, werewords.Config]]:
    """Every config family the game documents: the conformance configs and the bench's."""
    out = [(f"sample{i:02d}", config) for i, config in enumerate(werewords.sample_configs())]
    sampled = set(werewords.sample_configs())
    out += [
        (f"bench-{label.split()[0]}", config)
        for label, config in werewords.bench_configs()
        if config not in sampled
    ]
    out.append(
        (
            "named",
            werewords.Config(players=7, names=tuple(f"Ann{i}" for i in range(7))),
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
    return {seat: bots.make("werewords", kind, seat) for seat, kind in enumerate(kinds)}


def host_match(config: werewords.Config, seed: int) -> tuple[MatchRecord, Any]:
    """A match in which the host presses a button now and then, and plays three rounds."""
    players = _players(2, config.players)
    rng = Rng(seed)
    record = MatchRecord(werewords.id, werewords.version, config_to_json(config), seed)
    state = werewords.setup(config, seed)
    while werewords.outcome(state) is None:
        assert len(record.actions) < 5_000
        host = werewords.legal_actions(state, None)
        if state.round < 3:
            host = [a for a in host if a.name != "finish"]
        elif any(a.name == "finish" for a in host):
            host = [a for a in host if a.name == "finish"]
        actors = sorted(werewords.actors(state))
        deadline = werewords.deadline(state)
        seat: int | None = None
        if host and (not actors or rng.chance(0.1)):
            action = host[rng.below(len(host))]
        elif actors:
            seat = actors[rng.below(len(actors))]
            legal = werewords.legal_actions(state, seat)
            action = players[seat].act(werewords.view(state, Viewer.of(seat)), legal, rng)
        else:
            assert deadline is not None
            action = deadline.action
        try:
            state, _ = werewords.apply(state, seat, action)
        except IllegalAction:
            continue  # offered but refused (a companion clue after the last one): not recorded
        record.actions.append((seat, action))
    return record, state


def record_match(config: werewords.Config, seed: int, match: int) -> dict[str, Any]:
    """Play one match and keep what the game said at every step."""
    # Slow thinkers (25 virtual seconds a move) let the clock end nights and ballots with
    # actions missing; quick ones (1 s) finish them by acting.
    think = 25.0 if match == 2 or seed % 2 else 1.0
    if match == 3:
        record, final = host_match(config, seed)
    else:
        result = play_match(werewords, config, seed, _players(match, config.players), think=think)
        record, final = result.record, result.state
    steps = recorded_steps(werewords, record)
    outcome = werewords.outcome(final)
    assert outcome is not None
    return {
        "record": record.to_json(),
        "think": think,
        "steps": steps,
        "outcome": outcome.to_json(),
    }


if __name__ == "__main__":
    write_all(FIXTURES, families(), SEEDS, record_match)
