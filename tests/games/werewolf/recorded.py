"""Recorded Werewolf matches: how they are written and how a replay is compared with them.

Each fixture in ``fixtures/`` is a match played by bots on the match runner's virtual clock
(deadlines fire as they do on a server), saved as a :class:`MatchRecord` with what the game
said at every step: the events (type, data, audience, text), and a digest of everything the
contract shows at that step (every viewer's view and events, the actors, every seat's legal
actions, the deadline and timer, the phase number, the teams, and one hidden-state
perturbation's view). A replay through the game must give the same events, the same digests
and the same outcome.

Regenerate (only when a rule change is meant to change recorded play):
``PYTHONPATH=src python -m tests.games.werewolf.recorded`` (add ``--new`` to write only the
fixtures of config families that have none yet).
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
from wolfden.games import werewolf
from wolfden.sim.runner import play_match

FIXTURES = Path(__file__).parent / "fixtures"

VIEWERS_EXTRA = (Viewer.parse("spectator"), Viewer.parse("table"), Viewer.parse("all"))


def event_json(event: Event) -> list[Any]:
    """An event as stored: [type, data, audience (null when public, else its seats), text]."""
    audience = None if event.audience.public else sorted(event.audience.seats)
    return [event.type, event.data, audience, event.text]


def step_digest(state: Any, events: Sequence[Event], step: int) -> str:
    """A digest of everything the contract shows after one step (16 hex digits)."""
    game = werewolf
    players = state.config.players
    viewers = [Viewer.of(seat) for seat in range(players)] + list(VIEWERS_EXTRA)
    parts: list[Any] = [
        repr(list(events)),
        sorted(game.actors(state)),
        repr(game.deadline(state)),
        game.phase_seq(state),
        game.seat_teams(state),
        [[str(a) for a in game.legal_actions(state, seat)] for seat in [None, *range(players)]],
        repr(game.outcome(state)),
    ]
    for viewer in viewers:
        parts.append(game.view(state, viewer))
        parts.append(game.visible_events(state, list(events), viewer))
        parts.append(repr(game.timer(state, viewer)))
    viewer = Viewer.of(step % players)
    perturbed = game.perturb_hidden(state, viewer, Rng(step))
    parts.append(None if perturbed is None else game.view(perturbed, viewer))
    text = json.dumps(parts, ensure_ascii=False, sort_keys=False, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def replayed(record: MatchRecord) -> Iterator[tuple[Any, list[Event], str]]:
    """Each step of a record replayed through today's game: (state, events, digest)."""
    for step, (state, _seat, _action, events) in enumerate(replay(werewolf, record)):
        yield state, events, step_digest(state, events, step)


# -- writing the fixtures ---------------------------------------------------------------------

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
    steps = [
        {"events": [event_json(e) for e in events], "digest": digest}
        for _, events, digest in replayed(record)
    ]
    outcome = werewolf.outcome(result.state)
    assert outcome is not None
    return {
        "record": record.to_json(),
        "think": think,
        "steps": steps,
        "outcome": outcome.to_json(),
    }


def write_all(*, only_new: bool = False) -> None:
    """Write every family's fixture; with ``only_new``, only those not written yet (a new
    config family, e.g. a new variant role's sample config, leaves the others as they are)."""
    FIXTURES.mkdir(exist_ok=True)
    for name, config in families():
        if only_new and (FIXTURES / f"{name}.json").exists():
            continue
        matches = [record_match(config, seed, i) for i, seed in enumerate(SEEDS)]
        doc = {"config": config_to_json(config), "matches": matches}
        path = FIXTURES / f"{name}.json"
        path.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")
        print(f"{path.name}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    import sys

    write_all(only_new="--new" in sys.argv[1:])
