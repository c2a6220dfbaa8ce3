"""Recorded Werwölfe Kids matches: how they are written and how a replay is compared with them.

Each fixture in ``fixtures/`` is a match played by bots on the match runner's virtual clock
(an open door closes by itself as it does on a server), saved as a :class:`MatchRecord` with
what the game said at every step: the events (type, data, audience, text), and a digest of
everything the contract shows at that step (every viewer's view and events, the actors, every
seat's legal actions, the deadline and timer, the phase number, the teams, and one
hidden-state perturbation's view). A replay through the game must give the same events, the
same digests and the same outcome.

Regenerate (only when a rule change is meant to change recorded play):
``PYTHONPATH=src python -m tests.games.werwoelfe_kids.recorded``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from wolfden import bots
from wolfden.engine.config import config_to_json
from wolfden.engine.record import MatchRecord, replay
from wolfden.engine.rng import Rng
from wolfden.engine.types import Event, Viewer
from wolfden.games import werwoelfe_kids as kids
from wolfden.sim.runner import play_match

FIXTURES = Path(__file__).parent / "fixtures"

SEATS = 2
"""Seat 0 is the Village team, seat 1 the Werewolf team."""

VIEWERS_EXTRA = (Viewer.parse("spectator"), Viewer.parse("table"), Viewer.parse("all"))


def event_json(event: Event) -> list[Any]:
    """An event as stored: [type, data, audience (null when public, else its seats), text]."""
    audience = None if event.audience.public else sorted(event.audience.seats)
    return [event.type, event.data, audience, event.text]


def step_digest(state: Any, events: Sequence[Event], step: int) -> str:
    """A digest of everything the contract shows after one step (16 hex digits)."""
    viewers = [Viewer.of(seat) for seat in range(SEATS)] + list(VIEWERS_EXTRA)
    parts: list[Any] = [
        repr(list(events)),
        sorted(kids.actors(state)),
        repr(kids.deadline(state)),
        kids.phase_seq(state),
        kids.seat_teams(state),
        [[str(a) for a in kids.legal_actions(state, seat)] for seat in [None, *range(SEATS)]],
        repr(kids.outcome(state)),
    ]
    for viewer in viewers:
        parts.append(kids.view(state, viewer))
        parts.append(kids.visible_events(state, list(events), viewer))
        parts.append(repr(kids.timer(state, viewer)))
    viewer = Viewer.of(step % SEATS)
    perturbed = kids.perturb_hidden(state, viewer, Rng(step))
    parts.append(None if perturbed is None else kids.view(perturbed, viewer))
    text = json.dumps(parts, ensure_ascii=False, sort_keys=False, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def replayed(record: MatchRecord) -> Iterator[tuple[Any, list[Event], str]]:
    """Each step of a record replayed through today's game: (state, events, digest)."""
    for step, (state, _seat, _action, events) in enumerate(replay(kids, record)):
        yield state, events, step_digest(state, events, step)


# -- writing the fixtures ---------------------------------------------------------------------

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
    steps = [
        {"events": [event_json(e) for e in events], "digest": digest}
        for _, events, digest in replayed(record)
    ]
    outcome = kids.outcome(result.state)
    assert outcome is not None
    return {
        "record": record.to_json(),
        "think": think,
        "steps": steps,
        "outcome": outcome.to_json(),
    }


def write_all() -> None:
    FIXTURES.mkdir(exist_ok=True)
    for name, config in families():
        matches = [record_match(config, seed, i) for i, seed in enumerate(SEEDS)]
        doc = {"config": config_to_json(config), "matches": matches}
        path = FIXTURES / f"{name}.json"
        path.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")
        print(f"{path.name}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    write_all()
