"""Recorded matches, shared by every game: how a step is stored and digested, how a replay is
compared with the fixtures, and how fixtures are written.

Each game keeps, in ``tests/games/<game>/recorded.py``, which config families it records and
which bots play them (``record_match``); its fixtures in ``fixtures/`` are matches played by
bots on the match runner's virtual clock, saved as a :class:`MatchRecord` with what the game
said at every step: the events (type, data, audience, text) and a digest of everything the
contract shows at that step (every viewer's view and events, the actors, every seat's legal
actions, the deadline and, where the game has one, the timer, the phase number, the teams, and
one hidden-state perturbation's view). A replay through the game must give the same events,
the same digests and the same outcome.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from wolfden.engine.config import config_to_json
from wolfden.engine.record import MatchRecord, replay
from wolfden.engine.rng import Rng
from wolfden.engine.types import Event, Viewer

VIEWERS_EXTRA = (Viewer.parse("spectator"), Viewer.parse("table"), Viewer.parse("all"))

Step = tuple[Any, list[Event], str]


def event_json(event: Event) -> list[Any]:
    """An event as stored: [type, data, audience (null when public, else its seats), text]."""
    audience = None if event.audience.public else sorted(event.audience.seats)
    return [event.type, event.data, audience, event.text]


def step_digest(game: ModuleType, state: Any, events: Sequence[Event], step: int) -> str:
    """A digest of everything the contract shows after one step (16 hex digits)."""
    seats = game.num_seats(state.config)
    viewers = [Viewer.of(seat) for seat in range(seats)] + list(VIEWERS_EXTRA)
    parts: list[Any] = [
        repr(list(events)),
        sorted(game.actors(state)),
        repr(game.deadline(state)),
        game.phase_seq(state),
        game.seat_teams(state),
        [[str(a) for a in game.legal_actions(state, seat)] for seat in [None, *range(seats)]],
        repr(game.outcome(state)),
    ]
    for viewer in viewers:
        parts.append(game.view(state, viewer))
        parts.append(game.visible_events(state, list(events), viewer))
        if hasattr(game, "timer"):
            parts.append(repr(game.timer(state, viewer)))
    viewer = Viewer.of(step % seats)
    perturbed = game.perturb_hidden(state, viewer, Rng(step))
    parts.append(None if perturbed is None else game.view(perturbed, viewer))
    text = json.dumps(parts, ensure_ascii=False, sort_keys=False, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def replayed(game: ModuleType, record: MatchRecord) -> Iterator[Step]:
    """Each step of a record replayed through today's game: (state, events, digest)."""
    for step, (state, _seat, _action, events) in enumerate(replay(game, record)):
        yield state, events, step_digest(game, state, events, step)


# -- checking a replay ------------------------------------------------------------------------


def fixture_files(fixtures: Path) -> list[Path]:
    return sorted(fixtures.glob("*.json"))


def fixture_matches(fixtures: Path) -> list[Any]:
    """Every recorded match as a pytest parameter named after its file and number."""
    out = []
    for path in fixture_files(fixtures):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for i, match in enumerate(doc["matches"]):
            out.append(pytest.param(match, id=f"{path.stem}-{i}"))
    return out


def first_match(fixtures: Path) -> dict[str, Any]:
    path = fixtures / "sample00.json"
    match = json.loads(path.read_text(encoding="utf-8"))["matches"][0]
    return match


def check_families_recorded(game: ModuleType, fixtures: Path, most_bytes: int) -> None:
    files = fixture_files(fixtures)
    assert len(files) >= len(game.sample_configs())
    assert sum(path.stat().st_size for path in files) < most_bytes


def check_replay(game: ModuleType, match: dict[str, Any]) -> None:
    """The recorded match replays step by step to the same events, digests and outcome."""
    record = MatchRecord.from_json(match["record"])
    expected = match["steps"]
    steps = list(replayed(game, record))
    assert len(steps) == len(expected)
    for step, ((_, events, digest), want) in enumerate(zip(steps, expected)):
        action = record.actions[step - 1] if step else "setup"
        # A JSON round trip gives the stored form (tuples become lists, as they did then).
        got = json.loads(json.dumps([event_json(e) for e in events]))
        assert got == want["events"], f"events differ at step {step} ({action})"
        assert digest == want["digest"], f"views or contract answers differ at step {step}"
    outcome = game.outcome(steps[-1][0])
    assert outcome is not None
    assert outcome.to_json() == match["outcome"]


# -- writing the fixtures ---------------------------------------------------------------------


def recorded_steps(game: ModuleType, record: MatchRecord) -> list[dict[str, Any]]:
    return [
        {"events": [event_json(e) for e in events], "digest": digest}
        for _, events, digest in replayed(game, record)
    ]


def write_all(
    fixtures: Path,
    families: Sequence[tuple[str, Any]],
    seeds: Sequence[int],
    record_match: Callable[[Any, int, int], dict[str, Any]],
) -> None:
    """Write one fixture file per config family, one match per seed."""
    fixtures.mkdir(exist_ok=True)
    for name, config in families:
        matches = [record_match(config, seed, i) for i, seed in enumerate(seeds)]
        doc = {"config": config_to_json(config), "matches": matches}
        path = fixtures / f"{name}.json"
        path.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")
        print(f"{path.name}: {path.stat().st_size:,} bytes")
