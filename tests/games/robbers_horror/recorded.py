"""Recorded matches of Robbers' Horror: what the game said at every step, to replay.

The fixtures in ``fixtures/`` were recorded from the engine as it was before the rules were
rewritten plainly (``python -m tests.games.robbers_horror.recorded`` wrote them); the rules
must keep replaying every one of them to the same events, views and outcome. Running it again
records from the current engine: do that only for a deliberate change of the rules.

Each fixture file (gzipped JSON) holds matches of one config family. A match is its record
(config, seed, actions), the bots that chose the actions, and per step: every event in full
with its audience, and a digest of everything else a client or bot could notice at that step (every
viewer's view, every seat's legal actions, the actors, the deadline, ``phase_seq`` and the
seats' teams). The last step also holds the Outcome in full.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

from wolfden.engine.config import config_to_json
from wolfden.engine.types import OMNISCIENT, SPECTATOR, TABLE, Event, Viewer
from wolfden.games import robbers_horror as rh

FIXTURES = Path(__file__).parent / "fixtures"


def event_json(event: Event) -> dict[str, Any]:
    """An event with its audience, as plain JSON."""
    audience: Any = "public" if event.audience.public else sorted(event.audience.seats)
    return {
        "type": event.type,
        "data": json.loads(json.dumps(dict(event.data), ensure_ascii=False)),
        "audience": audience,
        "text": event.text,
    }


def step_digest(state: rh.State) -> str:
    """A digest of all a client or bot could notice in this state besides the events."""
    n = state.config.players
    viewers = [Viewer.of(s) for s in range(n)] + [SPECTATOR, TABLE, OMNISCIENT]
    seen = {
        "views": [rh.view(state, v) for v in viewers],
        "legal": [[str(a) for a in rh.legal_actions(state, s)] for s in [*range(n), None]],
        "actors": sorted(rh.actors(state)),
        "deadline": rh.deadline(state),
        "phase_seq": rh.phase_seq(state),
        "seat_teams": rh.seat_teams(state),
    }
    text = json.dumps(seen, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def outcome_json(state: rh.State) -> Any:
    outcome = rh.outcome(state)
    if outcome is None:
        return None
    return json.loads(json.dumps(outcome.to_json(), ensure_ascii=False))


def _families() -> list[tuple[str, rh.Config]]:
    """Every config family of the game: its sample configs and its bench configs."""
    families = [(f"sample{i}", config) for i, config in enumerate(rh.sample_configs())]
    families += [(f"bench{config.players}", config) for _, config in rh.bench_configs()]
    return families


def _record_all() -> None:  # pragma: no cover - run once, before the rewrite
    from wolfden.bots import make
    from wolfden.bots.robbers_horror import IsmctsBot
    from wolfden.sim.runner import play_match

    FIXTURES.mkdir(exist_ok=True)
    for name, config in _families():
        n = config.players
        plans: list[tuple[int, list[str]]] = [
            (11, ["random"] * n),
            (12, ["random"] * n),
            (13, ["random"] * n),
            (14, ["random"] * n),
            (15, ["random"] * n),
            (21, ["rules"] * n),
            (22, ["rules"] * n),
            (31, [("ismcts", "rules", "random")[s % 3] for s in range(n)]),
        ]
        matches = []
        for seed, kinds in plans:
            players = {
                s: IsmctsBot(s, iterations=30) if kind == "ismcts" else make(rh.id, kind, s)
                for s, kind in enumerate(kinds)
            }
            result = play_match(rh, config, seed, players)
            state = rh.setup(config, seed)
            steps = [{"events": [], "digest": step_digest(state)}]
            for seat, action in result.record.actions:
                state, events = rh.apply(state, seat, action)
                steps.append(
                    {"events": [event_json(e) for e in events], "digest": step_digest(state)}
                )
            record = result.record.to_json()
            record["config"] = config_to_json(config)
            matches.append(
                {"bots": kinds, "record": record, "steps": steps, "outcome": outcome_json(state)}
            )
        text = json.dumps({"family": name, "matches": matches}, ensure_ascii=False)
        path = FIXTURES / f"{name}.json.gz"
        path.write_bytes(gzip.compress(text.encode(), mtime=0))
        print(path, path.stat().st_size)


def load_fixtures() -> list[tuple[str, dict[str, Any]]]:
    """Every recorded match, named by its family and its place in the family's file."""
    out = []
    for path in sorted(FIXTURES.glob("*.json.gz")):
        family = json.loads(gzip.decompress(path.read_bytes()))
        for i, match in enumerate(family["matches"]):
            out.append((f"{family['family']}-{i}-{'-'.join(sorted(set(match['bots'])))}", match))
    return out


if __name__ == "__main__":  # pragma: no cover
    _record_all()
