"""The match record: game id, version, config, seed and actions. Everything else is a fold."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wolfden.engine.config import config_from_json
from wolfden.engine.contract import Game
from wolfden.engine.errors import ParseError
from wolfden.engine.types import Action, Event, Seat

RECORD_FORMAT = 1


@dataclass
class MatchRecord:
    game: str
    version: str
    config: dict[str, Any]
    seed: int
    actions: list[tuple[Seat | None, Action]] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game,
            "version": self.version,
            "config": self.config,
            "seed": self.seed,
            "actions": [[seat, str(action)] for seat, action in self.actions],
            "meta": self.meta,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        if not isinstance(data, dict):
            raise ParseError("a match record is a JSON object")
        missing = [k for k in ("game", "version", "config", "seed", "actions") if k not in data]
        if missing:
            raise ParseError(f"a match record needs {', '.join(missing)}")
        if not isinstance(data["seed"], int) or not isinstance(data["actions"], list):
            raise ParseError("a match record's seed is an integer and its actions a list")
        actions: list[tuple[Seat | None, Action]] = []
        for i, item in enumerate(data["actions"]):
            if (
                not isinstance(item, list)
                or len(item) != 2
                or not (item[0] is None or (isinstance(item[0], int) and item[0] >= 0))
                or not isinstance(item[1], str)
            ):
                raise ParseError(f"action {i + 1} of the record is not [seat or null, text]")
            actions.append((item[0], Action.parse(item[1])))
        return cls(
            game=str(data["game"]),
            version=str(data["version"]),
            config=dict(data["config"]),
            seed=data["seed"],
            actions=actions,
            meta=dict(data.get("meta") or {}),
        )

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ParseError(f"cannot read {path}: {exc.strerror or exc}") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ParseError(f"{path} is not JSON: {exc.msg} at line {exc.lineno}") from exc
        return cls.from_json(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")


Step = tuple[Any, Seat | None, Action | None, list[Event]]


def replay(game: Game, record: MatchRecord) -> Iterator[Step]:
    """Fold ``apply`` over the record: yields (state, seat, action, events), first the setup."""
    if record.game != game.id:
        raise ParseError(f"this record is of {record.game!r}, not {game.id!r}")
    config = config_from_json(game.Config, record.config)
    state = game.setup(config, record.seed)
    yield state, None, None, []
    for seat, action in record.actions:
        state, events = game.apply(state, seat, action)
        yield state, seat, action, events


def final_state(game: Game, record: MatchRecord) -> Any:
    state = None
    for step in replay(game, record):
        state = step[0]
    return state
