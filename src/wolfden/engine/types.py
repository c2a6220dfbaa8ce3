"""The domain words shared by every game: seats, viewers, actions, events, deadlines, outcomes."""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from wolfden.engine.errors import ParseError

Seat = int
"""A seat at the table, numbered from 0. Team games use one seat per team."""

Arg = int | str

_INT = re.compile(r"-?\d+\Z")
_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_.:\-]*\Z")
_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")


def _format_arg(arg: Arg) -> str:
    if isinstance(arg, bool):  # bool is an int subclass; actions never carry bools
        raise TypeError("action arguments are ints or strings")
    if isinstance(arg, int):
        return str(arg)
    if _BARE.match(arg) and not _INT.match(arg):
        return arg
    return json.dumps(arg, ensure_ascii=False)


class Action(NamedTuple):
    """A small frozen value: a name and a few int or string arguments.

    Its string form round-trips: ``Action.parse(str(a)) == a``. Strings that are not plain
    words are written as JSON strings, so free text (a question) survives intact.
    """

    name: str
    args: tuple[Arg, ...] = ()

    def __str__(self) -> str:
        if not self.args:
            return self.name
        return self.name + " " + " ".join(_format_arg(a) for a in self.args)

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "args": list(self.args)}

    @classmethod
    def from_json(cls, data: Any) -> Action:
        if not isinstance(data, Mapping):
            raise ParseError('an action in JSON is an object {"name": ..., "args": [...]}')
        name = data.get("name")
        args = data.get("args", [])
        if not isinstance(name, str) or not _NAME.match(name):
            raise ParseError("an action's name is a lowercase word such as 'vote'")
        if not isinstance(args, list) or not all(
            isinstance(a, (int, str)) and not isinstance(a, bool) for a in args
        ):
            raise ParseError("an action's args are a list of integers and strings")
        extra = set(data) - {"name", "args"}
        if extra:
            raise ParseError(f"an action has only 'name' and 'args', not {sorted(extra)}")
        return cls(name, tuple(args))

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the string form back: ``vote 3``, ``play R7``, ``ask "Is it big?"``."""
        if not isinstance(text, str):
            raise ParseError("an action is written as text such as 'vote 3'")
        text = text.strip()
        m = re.match(r"[a-z][a-z0-9_-]*", text)
        if not m:
            raise ParseError(f"cannot read {text!r} as an action: it starts with its name")
        name = m.group(0)
        rest = text[m.end() :]
        args: list[Arg] = []
        decoder = json.JSONDecoder()
        i = 0
        while i < len(rest):
            if rest[i].isspace():
                i += 1
                continue
            if i == 0:
                raise ParseError(f"cannot read {text!r}: put a space after the action's name")
            if rest[i] == '"':
                try:
                    value, end = decoder.raw_decode(rest, i)
                except json.JSONDecodeError as exc:
                    raise ParseError(f"unterminated quoted text in {text!r}") from exc
                args.append(value)
                i = end
                continue
            j = i
            while j < len(rest) and not rest[j].isspace():
                j += 1
            token = rest[i:j]
            args.append(int(token) if _INT.match(token) else token)
            i = j
        return cls(name, tuple(args))


class ViewerKind(enum.Enum):
    SEAT = "seat"
    SPECTATOR = "spectator"
    TABLE = "table"
    OMNISCIENT = "all"


class Viewer(NamedTuple):
    """Who is looking: a seat, a spectator, the shared table screen, or everyone (after the end)."""

    kind: ViewerKind
    seat: Seat | None = None

    @classmethod
    def of(cls, seat: Seat) -> Viewer:
        return cls(ViewerKind.SEAT, seat)

    def __str__(self) -> str:
        if self.kind is ViewerKind.SEAT:
            return f"seat:{self.seat}"
        return str(self.kind.value)

    def __repr__(self) -> str:
        return f"Viewer.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Viewer:
        text = text.strip().lower()
        if text.startswith("seat:") and _INT.match(text[5:]) and int(text[5:]) >= 0:
            return cls.of(int(text[5:]))
        for kind in ViewerKind:
            if kind is not ViewerKind.SEAT and text == kind.value:
                return cls(kind)
        raise ParseError(f"unknown viewer {text!r}: use seat:N, spectator, table or all")


SPECTATOR = Viewer(ViewerKind.SPECTATOR)
TABLE = Viewer(ViewerKind.TABLE)
OMNISCIENT = Viewer(ViewerKind.OMNISCIENT)


class Audience(NamedTuple):
    """Who may receive an event: everyone (public) or only the listed seats.

    Omniscient viewers see everything; a game may also let some viewers see all
    (for example eliminated Werewolf players) through ``filter_events(..., sees_all=True)``.
    """

    public: bool
    seats: frozenset[Seat] = frozenset()

    @classmethod
    def only(cls, *seats: Seat) -> Audience:
        return cls(False, frozenset(seats))

    @classmethod
    def of(cls, seats: Iterable[Seat]) -> Audience:
        return cls(False, frozenset(seats))

    def __repr__(self) -> str:
        return "PUBLIC" if self.public else f"Audience.only{tuple(sorted(self.seats))}"


PUBLIC = Audience(True)
NOBODY = Audience(False)


class Event(NamedTuple):
    """Something that happened, for an audience. ``text`` is the narration line, if any."""

    type: str
    data: Mapping[str, Any]
    audience: Audience = PUBLIC
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, **self.data}
        if self.text:
            out["text"] = self.text
        return out


def filter_events(
    events: Iterable[Event], viewer: Viewer, *, sees_all: bool = False
) -> list[dict[str, Any]]:
    """The JSON of the events this viewer may receive, in order."""
    everything = sees_all or viewer.kind is ViewerKind.OMNISCIENT
    out = []
    for e in events:
        if (
            everything
            or e.audience.public
            or (viewer.seat is not None and viewer.seat in e.audience.seats)
        ):
            out.append(e.to_json())
    return out


class Deadline(NamedTuple):
    """The rules' timer for the current phase.

    The phase with sequence number ``phase`` ends ``seconds`` after it began; then the
    clock applies ``action`` (as seat ``None``). The server's clock decides when that is.
    """

    phase: int
    seconds: float
    action: Action
    label: str = ""


@dataclass(frozen=True)
class Outcome:
    """How a match ended.

    ``winners`` are the winning seats (empty in a draw), ``teams`` and ``roles`` name each
    seat's team and role at the end (for statistics), ``stats`` carries game-specific figures.
    """

    winners: frozenset[Seat]
    winning_team: str | None
    summary: str
    teams: Mapping[Seat, str] = field(default_factory=dict)
    roles: Mapping[Seat, str] = field(default_factory=dict)
    rounds: int = 0
    stats: Mapping[str, Any] = field(default_factory=dict)

    @property
    def draw(self) -> bool:
        return not self.winners

    @staticmethod
    def filled(
        winners: frozenset[Seat],
        winning_team: str | None,
        summary: str,
        teams: Mapping[Seat, str],
        roles: Mapping[Seat, str],
        rounds: int,
        stats: Mapping[str, Any],
    ) -> Outcome:
        """The same Outcome as the constructor gives, for engines that end many matches: the
        frozen dataclass's ``__init__`` sets every field through ``object.__setattr__``, and
        filling a bare instance's fields directly costs well under half of that."""
        outcome: Outcome = _bare(Outcome)
        outcome.__dict__.update(
            winners=winners,
            winning_team=winning_team,
            summary=summary,
            teams=teams,
            roles=roles,
            rounds=rounds,
            stats=stats,
        )
        return outcome

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": sorted(self.winners),
            "winning_team": self.winning_team,
            "draw": self.draw,
            "summary": self.summary,
            "teams": {str(k): v for k, v in sorted(self.teams.items())},
            "roles": {str(k): v for k, v in sorted(self.roles.items())},
            "rounds": self.rounds,
            "stats": dict(self.stats),
        }


_bare = object.__new__
